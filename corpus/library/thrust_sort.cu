// Thrust sorts on raw device pointers: primitive keys (radix sort),
// descending order, custom comparators and struct keys (merge sort),
// stable sorts, sort_by_key, and is_sorted. Host functions instantiate the
// kernels Thrust launches; nothing calls them.
#include <thrust/execution_policy.h>
#include <thrust/functional.h>
#include <thrust/sort.h>

struct Point
{
  float x, y;
};

struct ByDistance
{
  __host__ __device__ bool operator()(const Point& a, const Point& b) const
  {
    return a.x * a.x + a.y * a.y < b.x * b.x + b.y * b.y;
  }
};

struct ByLowByte
{
  __host__ __device__ bool operator()(unsigned a, unsigned b) const
  {
    return (a & 0xffu) < (b & 0xffu);
  }
};

void sort_i32(int* data, int n)
{
  thrust::sort(thrust::device, data, data + n);
}

void sort_f32(float* data, int n)
{
  thrust::sort(thrust::device, data, data + n);
}

void sort_f64(double* data, long long n)
{
  thrust::sort(thrust::device, data, data + n);
}

void sort_u64(unsigned long long* data, int n)
{
  thrust::sort(thrust::device, data, data + n);
}

void sort_desc_i32(int* data, int n)
{
  thrust::sort(thrust::device, data, data + n, thrust::greater<int>());
}

void sort_points(Point* data, int n)
{
  thrust::sort(thrust::device, data, data + n, ByDistance{});
}

void stable_sort_low_byte(unsigned* data, int n)
{
  thrust::stable_sort(thrust::device, data, data + n, ByLowByte{});
}

void sort_by_key_u32_f32(unsigned* keys, float* values, int n)
{
  thrust::sort_by_key(thrust::device, keys, keys + n, values);
}

void sort_by_key_desc_f64_i32(double* keys, int* values, int n)
{
  thrust::sort_by_key(thrust::device, keys, keys + n, values, thrust::greater<double>());
}

void stable_sort_by_key_points(Point* keys, int* values, int n)
{
  thrust::stable_sort_by_key(thrust::device, keys, keys + n, values, ByDistance{});
}

bool is_sorted_i32(const int* data, int n)
{
  return thrust::is_sorted(thrust::device, data, data + n);
}
