// CUB DeviceReduce: sums, minima, maxima, arg-min/arg-max, custom
// reductions and transform-reductions over whole arrays. Host functions
// call the device-wide dispatch so that nvcc emits the single-tile,
// per-block and final-pass reduction kernels; nothing calls them.
#include <cub/device/device_reduce.cuh>
#include <cuda/functional>

cudaError_t reduce_sum_i32(void* temp, size_t& bytes, const int* in, int* out, int n, cudaStream_t s)
{
  return cub::DeviceReduce::Sum(temp, bytes, in, out, n, s);
}

cudaError_t reduce_sum_f64(void* temp, size_t& bytes, const double* in, double* out, long long n, cudaStream_t s)
{
  return cub::DeviceReduce::Sum(temp, bytes, in, out, n, s);
}

cudaError_t reduce_max_f32(void* temp, size_t& bytes, const float* in, float* out, int n, cudaStream_t s)
{
  return cub::DeviceReduce::Max(temp, bytes, in, out, n, s);
}

cudaError_t reduce_min_u64(void* temp, size_t& bytes, const unsigned long long* in, unsigned long long* out, int n, cudaStream_t s)
{
  return cub::DeviceReduce::Min(temp, bytes, in, out, n, s);
}

cudaError_t reduce_argmin_f32(void* temp, size_t& bytes, const float* in, float* min_out, long long* index_out, int n, cudaStream_t s)
{
  return cub::DeviceReduce::ArgMin(temp, bytes, in, min_out, index_out, n, cuda::std::less<>{}, cuda::stream_ref{s});
}

cudaError_t reduce_argmax_i32(void* temp, size_t& bytes, const int* in, int* max_out, int* index_out, int n, cudaStream_t s)
{
  return cub::DeviceReduce::ArgMax(temp, bytes, in, max_out, index_out, n, cuda::std::less<>{}, cuda::stream_ref{s});
}

cudaError_t reduce_custom_and_u32(void* temp, size_t& bytes, const unsigned* in, unsigned* out, int n, cudaStream_t s)
{
  return cub::DeviceReduce::Reduce(temp, bytes, in, out, n, cuda::std::bit_and<>{}, 0xffffffffu, s);
}

struct Square
{
  __host__ __device__ float operator()(float x) const
  {
    return x * x;
  }
};

// Sum of squares in one pass.
cudaError_t reduce_sum_of_squares_f32(void* temp, size_t& bytes, const float* in, float* out, int n, cudaStream_t s)
{
  return cub::DeviceReduce::TransformReduce(temp, bytes, in, out, n, cuda::std::plus<>{}, Square{}, 0.0f, s);
}
