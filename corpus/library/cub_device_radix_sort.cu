// CUB DeviceRadixSort and DeviceSegmentedRadixSort. Host functions call the
// device-wide dispatch for several key and value types, orders and buffer
// forms; nvcc then emits every kernel the dispatch may launch (single-tile,
// histogram, exclusive-sum, onesweep, upsweep/downsweep, ...). The host
// functions only exist to instantiate the kernels; nothing calls them.
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_segmented_radix_sort.cuh>

#include <cuda_fp16.h>

#define SORT_KEYS(NAME, K, CALL)                                                          \
  cudaError_t NAME(void* temp, size_t& bytes, const K* in, K* out, int n, cudaStream_t s) \
  {                                                                                       \
    return cub::DeviceRadixSort::CALL(temp, bytes, in, out, n, 0, int(sizeof(K) * 8), s); \
  }

#define SORT_PAIRS(NAME, K, V, CALL)                                                                      \
  cudaError_t NAME(void* temp, size_t& bytes, const K* kin, K* kout, const V* vin, V* vout, int n, cudaStream_t s) \
  {                                                                                                       \
    return cub::DeviceRadixSort::CALL(temp, bytes, kin, kout, vin, vout, n, 0, int(sizeof(K) * 8), s);      \
  }

SORT_KEYS(sort_keys_u32, unsigned, SortKeys)
SORT_KEYS(sort_keys_i32, int, SortKeys)
SORT_KEYS(sort_keys_f32, float, SortKeys)
SORT_KEYS(sort_keys_u64, unsigned long long, SortKeys)
SORT_KEYS(sort_keys_f64, double, SortKeys)
SORT_KEYS(sort_keys_u8, unsigned char, SortKeys)
SORT_KEYS(sort_keys_i16, short, SortKeys)
SORT_KEYS(sort_keys_f16, __half, SortKeys)
SORT_KEYS(sort_keys_desc_u32, unsigned, SortKeysDescending)
SORT_KEYS(sort_keys_desc_f32, float, SortKeysDescending)

SORT_PAIRS(sort_pairs_u32_u32, unsigned, unsigned, SortPairs)
SORT_PAIRS(sort_pairs_u64_i32, unsigned long long, int, SortPairs)
SORT_PAIRS(sort_pairs_f32_u64, float, unsigned long long, SortPairs)
SORT_PAIRS(sort_pairs_desc_i32_f64, int, double, SortPairsDescending)

// The ping-pong buffer form (the sort chooses which buffer ends current).
cudaError_t sort_pairs_double_buffer_u32_f32(
  void* temp, size_t& bytes, unsigned* k0, unsigned* k1, float* v0, float* v1, int n, cudaStream_t s)
{
  cub::DoubleBuffer<unsigned> keys(k0, k1);
  cub::DoubleBuffer<float> values(v0, v1);
  return cub::DeviceRadixSort::SortPairs(temp, bytes, keys, values, n, 0, 32, s);
}

// Sorting by the low 12 key bits only, 64-bit item count.
cudaError_t sort_keys_bits_u32_i64_count(void* temp, size_t& bytes, const unsigned* in, unsigned* out, long long n, cudaStream_t s)
{
  return cub::DeviceRadixSort::SortKeys(temp, bytes, in, out, n, 0, 12, s);
}

cudaError_t segmented_sort_keys_i32(
  void* temp, size_t& bytes, const int* in, int* out, int n, int segments, const int* begin, const int* end, cudaStream_t s)
{
  return cub::DeviceSegmentedRadixSort::SortKeys(temp, bytes, in, out, n, segments, begin, end, 0, 32, s);
}

cudaError_t segmented_sort_pairs_desc_f32_u32(
  void* temp,
  size_t& bytes,
  const float* kin,
  float* kout,
  const unsigned* vin,
  unsigned* vout,
  int n,
  int segments,
  const int* begin,
  const int* end,
  cudaStream_t s)
{
  return cub::DeviceSegmentedRadixSort::SortPairsDescending(
    temp, bytes, kin, kout, vin, vout, n, segments, begin, end, 0, 32, s);
}
