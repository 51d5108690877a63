// Thrust transformations on raw device pointers with the thrust::device
// policy: unary and binary transform, transform_if, for_each, fill,
// sequence, tabulate, gather/scatter, fancy iterators (counting,
// constant, zip, permutation) and copy_if. Host functions instantiate the
// kernels Thrust launches; nothing calls them.
#include <thrust/copy.h>
#include <thrust/execution_policy.h>
#include <thrust/fill.h>
#include <thrust/for_each.h>
#include <thrust/functional.h>
#include <thrust/gather.h>
#include <thrust/iterator/constant_iterator.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/permutation_iterator.h>
#include <thrust/iterator/zip_iterator.h>
#include <thrust/scatter.h>
#include <thrust/sequence.h>
#include <thrust/tabulate.h>
#include <thrust/transform.h>
#include <thrust/tuple.h>

struct Saxpy
{
  float a;
  __host__ __device__ float operator()(float x, float y) const
  {
    return a * x + y;
  }
};

struct Clamp01
{
  __host__ __device__ double operator()(double x) const
  {
    return x < 0.0 ? 0.0 : (x > 1.0 ? 1.0 : x);
  }
};

struct IsOdd
{
  __host__ __device__ bool operator()(int x) const
  {
    return (x & 1) != 0;
  }
};

struct Negate64
{
  __host__ __device__ long long operator()(long long x) const
  {
    return -x;
  }
};

struct Hash
{
  __host__ __device__ unsigned operator()(int i) const
  {
    unsigned h = unsigned(i) * 0x9e3779b9u;
    h ^= h >> 16;
    return h * 0x85ebca6bu;
  }
};

struct Increment
{
  __host__ __device__ void operator()(int& x) const
  {
    x += 1;
  }
};

struct PolarToX
{
  __host__ __device__ float operator()(const thrust::tuple<float, float>& rt) const
  {
    return thrust::get<0>(rt) * cosf(thrust::get<1>(rt));
  }
};

void saxpy(float a, const float* x, float* y, int n)
{
  thrust::transform(thrust::device, x, x + n, y, y, Saxpy{a});
}

void clamp_f64(const double* in, double* out, long long n)
{
  thrust::transform(thrust::device, in, in + n, out, Clamp01{});
}

void negate_odd_stencil_i64(long long* data, const int* stencil, int n)
{
  thrust::transform_if(thrust::device, data, data + n, stencil, data, Negate64{}, IsOdd{});
}

void add_i32(const int* a, const int* b, int* out, int n)
{
  thrust::transform(thrust::device, a, a + n, b, out, thrust::plus<int>());
}

void multiply_u8(const unsigned char* a, const unsigned char* b, unsigned char* out, int n)
{
  thrust::transform(thrust::device, a, a + n, b, out, thrust::multiplies<unsigned char>());
}

void increment_all(int* data, int n)
{
  thrust::for_each(thrust::device, data, data + n, Increment{});
}

void fill_f32(float* data, float value, int n)
{
  thrust::fill(thrust::device, data, data + n, value);
}

void sequence_i64(long long* data, long long start, long long step, int n)
{
  thrust::sequence(thrust::device, data, data + n, start, step);
}

void tabulate_hash(unsigned* data, int n)
{
  thrust::tabulate(thrust::device, data, data + n, Hash{});
}

void counting_hash(unsigned* out, int first, int n)
{
  thrust::transform(thrust::device, thrust::counting_iterator<int>(first), thrust::counting_iterator<int>(first + n), out, Hash{});
}

void scale_constant(const float* in, float* out, float scale, int n)
{
  thrust::transform(thrust::device, in, in + n, thrust::constant_iterator<float>(scale), out, thrust::multiplies<float>());
}

void polar_to_x(const float* r, const float* theta, float* x, int n)
{
  auto first = thrust::make_zip_iterator(thrust::make_tuple(r, theta));
  thrust::transform(thrust::device, first, first + n, x, PolarToX{});
}

void gather_f64(const int* map, const double* in, double* out, int n)
{
  thrust::gather(thrust::device, map, map + n, in, out);
}

void scatter_i32(const int* in, const int* map, int* out, int n)
{
  thrust::scatter(thrust::device, in, in + n, map, out);
}

void permuted_add(const float* in, const int* map, const float* b, float* out, int n)
{
  auto permuted = thrust::make_permutation_iterator(in, map);
  thrust::transform(thrust::device, permuted, permuted + n, b, out, thrust::plus<float>());
}

int copy_odd(const int* in, int* out, int n)
{
  return int(thrust::copy_if(thrust::device, in, in + n, out, IsOdd{}) - out);
}
