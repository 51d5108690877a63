// CUB DeviceHistogram: evenly spaced and range-searched bins, one-channel
// and multi-channel (RGBA with three active channels), 1-D and 2-D
// (strided rows) inputs, over 8-bit, 16-bit and floating-point samples.
// Host functions call the dispatch so that nvcc emits the histogram
// initialisation and sweep kernels; nothing calls them.
#include <cub/device/device_histogram.cuh>

cudaError_t histogram_even_u8_256(void* temp, size_t& bytes, const unsigned char* samples, int* hist, int n, cudaStream_t s)
{
  return cub::DeviceHistogram::HistogramEven(temp, bytes, samples, hist, 257, 0, 256, n, s);
}

cudaError_t histogram_even_u16_1024(void* temp, size_t& bytes, const unsigned short* samples, unsigned* hist, int n, cudaStream_t s)
{
  return cub::DeviceHistogram::HistogramEven(temp, bytes, samples, hist, 1025, 0, 65536, n, s);
}

cudaError_t histogram_even_f32_100(void* temp, size_t& bytes, const float* samples, int* hist, int n, cudaStream_t s)
{
  return cub::DeviceHistogram::HistogramEven(temp, bytes, samples, hist, 101, -1.0f, 1.0f, n, s);
}

cudaError_t histogram_even_f64_16(void* temp, size_t& bytes, const double* samples, unsigned long long* hist, long long n, cudaStream_t s)
{
  return cub::DeviceHistogram::HistogramEven(temp, bytes, samples, hist, 17, 0.0, 1.0, n, s);
}

cudaError_t histogram_even_2d_u8_64(
  void* temp, size_t& bytes, const unsigned char* samples, int* hist, int width, int rows, size_t pitch, cudaStream_t s)
{
  return cub::DeviceHistogram::HistogramEven(temp, bytes, samples, hist, 65, 0, 256, width, rows, pitch, s);
}

cudaError_t histogram_range_f32(
  void* temp, size_t& bytes, const float* samples, int* hist, int levels, const float* d_levels, int n, cudaStream_t s)
{
  return cub::DeviceHistogram::HistogramRange(temp, bytes, samples, hist, levels, d_levels, n, s);
}

cudaError_t histogram_range_i32(
  void* temp, size_t& bytes, const int* samples, unsigned* hist, int levels, const int* d_levels, int n, cudaStream_t s)
{
  return cub::DeviceHistogram::HistogramRange(temp, bytes, samples, hist, levels, d_levels, n, s);
}

cudaError_t histogram_rgba_even_u8(
  void* temp, size_t& bytes, const unsigned char* pixels, int* r, int* g, int* b, int n, cudaStream_t s)
{
  cuda::std::array<int*, 3> hist{r, g, b};
  cuda::std::array<int, 3> levels{257, 257, 257};
  cuda::std::array<int, 3> lower{0, 0, 0};
  cuda::std::array<int, 3> upper{256, 256, 256};
  return cub::DeviceHistogram::MultiHistogramEven<4, 3>(temp, bytes, pixels, hist, levels, lower, upper, n, s);
}

cudaError_t histogram_rgba_range_u16(
  void* temp, size_t& bytes, const unsigned short* pixels, unsigned* r, unsigned* g, unsigned* b, const int* d_levels, int n, cudaStream_t s)
{
  cuda::std::array<unsigned*, 3> hist{r, g, b};
  cuda::std::array<int, 3> levels{33, 33, 33};
  cuda::std::array<const int*, 3> d_level_arrays{d_levels, d_levels, d_levels};
  return cub::DeviceHistogram::MultiHistogramRange<4, 3>(temp, bytes, pixels, hist, levels, d_level_arrays, n, s);
}
