// Thrust reductions on raw device pointers: reduce with the default and
// other operators, transform_reduce, inner_product, count/count_if,
// min/max/minmax_element, reduce_by_key and the predicates all_of/any_of.
// Host functions instantiate the kernels Thrust launches; nothing calls them.
#include <thrust/count.h>
#include <thrust/execution_policy.h>
#include <thrust/extrema.h>
#include <thrust/functional.h>
#include <thrust/inner_product.h>
#include <thrust/logical.h>
#include <thrust/reduce.h>
#include <thrust/transform_reduce.h>

struct Square
{
  __host__ __device__ double operator()(float x) const
  {
    return double(x) * double(x);
  }
};

struct IsNegative
{
  __host__ __device__ bool operator()(float x) const
  {
    return x < 0.0f;
  }
};

struct AbsDiff
{
  __host__ __device__ int operator()(int a, int b) const
  {
    return a > b ? a - b : b - a;
  }
};

int sum_i32(const int* in, int n)
{
  return thrust::reduce(thrust::device, in, in + n);
}

float sum_f32(const float* in, int n)
{
  return thrust::reduce(thrust::device, in, in + n, 0.0f);
}

double sum_f64(const double* in, long long n)
{
  return thrust::reduce(thrust::device, in, in + n, 0.0, thrust::plus<double>());
}

unsigned long long max_u64(const unsigned long long* in, int n)
{
  return thrust::reduce(thrust::device, in, in + n, 0ull, thrust::maximum<unsigned long long>());
}

unsigned xor_u32(const unsigned* in, int n)
{
  return thrust::reduce(thrust::device, in, in + n, 0u, thrust::bit_xor<unsigned>());
}

double sum_of_squares(const float* in, int n)
{
  return thrust::transform_reduce(thrust::device, in, in + n, Square{}, 0.0, thrust::plus<double>());
}

float dot_f32(const float* a, const float* b, int n)
{
  return thrust::inner_product(thrust::device, a, a + n, b, 0.0f);
}

int manhattan_i32(const int* a, const int* b, int n)
{
  return thrust::inner_product(thrust::device, a, a + n, b, 0, thrust::plus<int>(), AbsDiff{});
}

long count_value(const int* in, int value, int n)
{
  return long(thrust::count(thrust::device, in, in + n, value));
}

long count_negative(const float* in, int n)
{
  return long(thrust::count_if(thrust::device, in, in + n, IsNegative{}));
}

long argmin_f64(const double* in, int n)
{
  return long(thrust::min_element(thrust::device, in, in + n) - in);
}

long argmax_i16(const short* in, int n)
{
  return long(thrust::max_element(thrust::device, in, in + n) - in);
}

long minmax_spread_f32(const float* in, int n)
{
  auto r = thrust::minmax_element(thrust::device, in, in + n);
  return long(r.second - r.first);
}

int reduce_by_key_i32(const int* keys, const float* values, int* keys_out, float* sums_out, int n)
{
  auto end = thrust::reduce_by_key(thrust::device, keys, keys + n, values, keys_out, sums_out);
  return int(end.first - keys_out);
}

bool all_negative(const float* in, int n)
{
  return thrust::all_of(thrust::device, in, in + n, IsNegative{});
}

bool any_negative(const float* in, int n)
{
  return thrust::any_of(thrust::device, in, in + n, IsNegative{});
}
