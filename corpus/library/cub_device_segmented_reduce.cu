// CUB DeviceSegmentedReduce: per-segment sums, minima, maxima,
// arg-min/arg-max and custom reductions, with segments given by begin and
// end offset arrays or by a fixed segment size. Host functions call the
// dispatch so that nvcc emits the segmented-reduction kernels; nothing
// calls them.
#include <cub/device/device_segmented_reduce.cuh>
#include <cuda/functional>

#define SEGMENTED(NAME, T, CALL)                                                                            \
  cudaError_t NAME(void* temp, size_t& bytes, const T* in, T* out, int segments, const int* begin, const int* end, \
                   cudaStream_t s)                                                                          \
  {                                                                                                         \
    return cub::DeviceSegmentedReduce::CALL(temp, bytes, in, out, segments, begin, end, s);                 \
  }

SEGMENTED(segmented_sum_i32, int, Sum)
SEGMENTED(segmented_sum_f32, float, Sum)
SEGMENTED(segmented_sum_f64, double, Sum)
SEGMENTED(segmented_sum_u64, unsigned long long, Sum)
SEGMENTED(segmented_min_i32, int, Min)
SEGMENTED(segmented_min_f64, double, Min)
SEGMENTED(segmented_max_f32, float, Max)
SEGMENTED(segmented_max_u8, unsigned char, Max)

cudaError_t segmented_argmin_f32(
  void* temp, size_t& bytes, const float* in, cub::KeyValuePair<int, float>* out, int segments, const int* begin, const int* end, cudaStream_t s)
{
  return cub::DeviceSegmentedReduce::ArgMin(temp, bytes, in, out, segments, begin, end, s);
}

cudaError_t segmented_argmax_i64(
  void* temp, size_t& bytes, const long long* in, cub::KeyValuePair<int, long long>* out, int segments, const int* begin, const int* end, cudaStream_t s)
{
  return cub::DeviceSegmentedReduce::ArgMax(temp, bytes, in, out, segments, begin, end, s);
}

cudaError_t segmented_reduce_or_u32(
  void* temp, size_t& bytes, const unsigned* in, unsigned* out, int segments, const int* begin, const int* end, cudaStream_t s)
{
  return cub::DeviceSegmentedReduce::Reduce(temp, bytes, in, out, segments, begin, end, cuda::std::bit_or<>{}, 0u, s);
}

// Offsets as 64-bit integers; end offsets are the begin offsets shifted by one.
cudaError_t segmented_sum_i64_offsets(
  void* temp, size_t& bytes, const float* in, float* out, int segments, const long long* offsets, cudaStream_t s)
{
  return cub::DeviceSegmentedReduce::Sum(temp, bytes, in, out, segments, offsets, offsets + 1, s);
}

// Fixed-size segments (this form writes cuda::std::pair results).
cudaError_t segmented_argmin_fixed_i32(
  void* temp, size_t& bytes, const int* in, cuda::std::pair<int, int>* out, int segments, int size, cudaStream_t s)
{
  return cub::DeviceSegmentedReduce::ArgMin(temp, bytes, in, out, segments, size, s);
}
