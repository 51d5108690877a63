// CUB BlockRadixSort: keys-only and key-value sorts, ascending and
// descending, into blocked or striped output, over integer, floating-point
// and 64-bit keys, with the default and other radix widths, and a sort over
// a sub-range of key bits. Each block sorts its own tile of
// THREADS * ITEMS keys; keys[] (and values[]) hold gridDim.x tiles and are
// sorted in place into out_keys[] (and out_values[]).
#include <cub/block/block_radix_sort.cuh>

enum Order
{
  ascending,
  descending
};

template <typename K, int THREADS, int ITEMS, int RADIX_BITS, Order ORDER, bool STRIPED>
__device__ __forceinline__ void sort_keys_body(const K* keys, K* out_keys, int begin_bit, int end_bit)
{
  using Sort = cub::BlockRadixSort<K, THREADS, ITEMS, cub::NullType, RADIX_BITS>;
  __shared__ typename Sort::TempStorage storage;
  K items[ITEMS];
  const int tile = blockIdx.x * THREADS * ITEMS;
  for (int i = 0; i < ITEMS; ++i)
  {
    items[i] = keys[tile + threadIdx.x * ITEMS + i];
  }
  if constexpr (ORDER == ascending && !STRIPED)
  {
    Sort(storage).Sort(items, begin_bit, end_bit);
  }
  else if constexpr (ORDER == descending && !STRIPED)
  {
    Sort(storage).SortDescending(items, begin_bit, end_bit);
  }
  else if constexpr (ORDER == ascending)
  {
    Sort(storage).SortBlockedToStriped(items, begin_bit, end_bit);
  }
  else
  {
    Sort(storage).SortDescendingBlockedToStriped(items, begin_bit, end_bit);
  }
  for (int i = 0; i < ITEMS; ++i)
  {
    const int at = STRIPED ? i * THREADS + threadIdx.x : threadIdx.x * ITEMS + i;
    out_keys[tile + at] = items[i];
  }
}

template <typename K, typename V, int THREADS, int ITEMS, Order ORDER>
__device__ __forceinline__ void sort_pairs_body(const K* keys, const V* values, K* out_keys, V* out_values)
{
  using Sort = cub::BlockRadixSort<K, THREADS, ITEMS, V>;
  __shared__ typename Sort::TempStorage storage;
  K k[ITEMS];
  V v[ITEMS];
  const int base = blockIdx.x * THREADS * ITEMS + threadIdx.x * ITEMS;
  for (int i = 0; i < ITEMS; ++i)
  {
    k[i] = keys[base + i];
    v[i] = values[base + i];
  }
  if constexpr (ORDER == ascending)
  {
    Sort(storage).Sort(k, v);
  }
  else
  {
    Sort(storage).SortDescending(k, v);
  }
  for (int i = 0; i < ITEMS; ++i)
  {
    out_keys[base + i]   = k[i];
    out_values[base + i] = v[i];
  }
}

#define SORT_KEYS(NAME, K, THREADS, ITEMS, RADIX_BITS, ORDER, STRIPED)                   \
  extern "C" __global__ void __launch_bounds__(THREADS) NAME(const K* keys, K* out_keys) \
  {                                                                                      \
    sort_keys_body<K, THREADS, ITEMS, RADIX_BITS, ORDER, STRIPED>(keys, out_keys, 0, sizeof(K) * 8); \
  }

#define SORT_PAIRS(NAME, K, V, THREADS, ITEMS, ORDER)                                       \
  extern "C" __global__ void __launch_bounds__(THREADS)                                     \
    NAME(const K* keys, const V* values, K* out_keys, V* out_values)                        \
  {                                                                                         \
    sort_pairs_body<K, V, THREADS, ITEMS, ORDER>(keys, values, out_keys, out_values);       \
  }

SORT_KEYS(block_radix_sort_u32_128x4, unsigned, 128, 4, 4, ascending, false)
SORT_KEYS(block_radix_sort_u32_128x4_desc, unsigned, 128, 4, 4, descending, false)
SORT_KEYS(block_radix_sort_u32_128x4_striped, unsigned, 128, 4, 4, ascending, true)
SORT_KEYS(block_radix_sort_u32_128x4_desc_striped, unsigned, 128, 4, 4, descending, true)
SORT_KEYS(block_radix_sort_i32_256x2, int, 256, 2, 4, ascending, false)
SORT_KEYS(block_radix_sort_i32_64x8_radix6, int, 64, 8, 6, ascending, false)
SORT_KEYS(block_radix_sort_f32_128x4, float, 128, 4, 4, ascending, false)
SORT_KEYS(block_radix_sort_f32_128x4_desc, float, 128, 4, 4, descending, false)
SORT_KEYS(block_radix_sort_f64_64x4, double, 64, 4, 4, ascending, false)
SORT_KEYS(block_radix_sort_u64_128x2, unsigned long long, 128, 2, 4, ascending, false)
SORT_KEYS(block_radix_sort_i64_128x2_desc, long long, 128, 2, 4, descending, false)
SORT_KEYS(block_radix_sort_u16_128x8, unsigned short, 128, 8, 4, ascending, false)
SORT_KEYS(block_radix_sort_u8_96x4_radix5, unsigned char, 96, 4, 5, ascending, false)
SORT_KEYS(block_radix_sort_i16_64x4_radix2, short, 64, 4, 2, descending, false)

SORT_PAIRS(block_radix_sort_pairs_u32_i32_128x4, unsigned, int, 128, 4, ascending)
SORT_PAIRS(block_radix_sort_pairs_f32_u32_128x2_desc, float, unsigned, 128, 2, descending)
SORT_PAIRS(block_radix_sort_pairs_u64_f64_64x4, unsigned long long, double, 64, 4, ascending)
SORT_PAIRS(block_radix_sort_pairs_i32_u8_256x2, int, unsigned char, 256, 2, ascending)

// Sort on bits [8, 20) of the keys only: the other bits ride along.
extern "C" __global__ void block_radix_sort_bits_8_20_u32_128x4(const unsigned* keys, unsigned* out_keys)
{
  sort_keys_body<unsigned, 128, 4, 4, ascending, false>(keys, out_keys, 8, 20);
}
