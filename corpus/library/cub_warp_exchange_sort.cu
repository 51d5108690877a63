// CUB WarpLoad, WarpStore, WarpExchange and WarpMergeSort, and
// BlockMergeSort for comparison: warp-cooperative data movement and
// comparison sorts with custom comparators. in[] and out[] hold
// gridDim.x * blockDim.x * ITEMS elements; each logical warp owns WIDTH *
// ITEMS consecutive ones.
#include <cub/block/block_merge_sort.cuh>
#include <cub/warp/warp_exchange.cuh>
#include <cub/warp/warp_load.cuh>
#include <cub/warp/warp_merge_sort.cuh>
#include <cub/warp/warp_store.cuh>

struct Less
{
  template <typename T>
  __device__ bool operator()(const T& a, const T& b) const
  {
    return a < b;
  }
};

// Orders by absolute value (ties by sign), a comparator that is not `<`.
struct AbsLess
{
  __device__ bool operator()(int a, int b) const
  {
    const unsigned ua = a < 0 ? 0u - unsigned(a) : unsigned(a);
    const unsigned ub = b < 0 ? 0u - unsigned(b) : unsigned(b);
    return ua < ub || (ua == ub && a < b);
  }
};

template <typename T, int THREADS, int WIDTH, int ITEMS, cub::WarpLoadAlgorithm LOAD, cub::WarpStoreAlgorithm STORE>
__device__ __forceinline__ void warp_load_store_body(const T* in, T* out)
{
  using Load  = cub::WarpLoad<T, ITEMS, LOAD, WIDTH>;
  using Store = cub::WarpStore<T, ITEMS, STORE, WIDTH>;
  constexpr int WARPS = THREADS / WIDTH;
  __shared__ typename Load::TempStorage load_storage[WARPS];
  __shared__ typename Store::TempStorage store_storage[WARPS];
  const int warp   = threadIdx.x / WIDTH;
  const int offset = (blockIdx.x * WARPS + warp) * WIDTH * ITEMS;
  T items[ITEMS];
  Load(load_storage[warp]).Load(in + offset, items);
  for (int i = 0; i < ITEMS; ++i)
  {
    items[i] = items[i] * static_cast<T>(2) + static_cast<T>(i);
  }
  Store(store_storage[warp]).Store(out + offset, items);
}

#define WARP_LOAD_STORE(NAME, T, THREADS, WIDTH, ITEMS, LOAD, STORE)               \
  extern "C" __global__ void __launch_bounds__(THREADS) NAME(const T* in, T* out) \
  {                                                                               \
    warp_load_store_body<T, THREADS, WIDTH, ITEMS, cub::LOAD, cub::STORE>(in, out); \
  }

WARP_LOAD_STORE(warp_load_store_direct_i32_w32x4, int, 128, 32, 4, WARP_LOAD_DIRECT, WARP_STORE_DIRECT)
WARP_LOAD_STORE(warp_load_store_striped_i32_w32x4, int, 128, 32, 4, WARP_LOAD_STRIPED, WARP_STORE_STRIPED)
WARP_LOAD_STORE(warp_load_store_vectorize_f32_w32x4, float, 128, 32, 4, WARP_LOAD_VECTORIZE, WARP_STORE_VECTORIZE)
WARP_LOAD_STORE(warp_load_store_transpose_i32_w16x8, int, 128, 16, 8, WARP_LOAD_TRANSPOSE, WARP_STORE_TRANSPOSE)
WARP_LOAD_STORE(warp_load_store_transpose_f64_w8x2, double, 64, 8, 2, WARP_LOAD_TRANSPOSE, WARP_STORE_TRANSPOSE)

// Blocked -> striped -> blocked through WarpExchange, scaling in between.
extern "C" __global__ void warp_exchange_roundtrip_u32_w32x4(const unsigned* in, unsigned* out)
{
  using Exchange = cub::WarpExchange<unsigned, 4>;
  __shared__ Exchange::TempStorage storage[4];
  const int warp   = threadIdx.x / 32;
  const int lane   = threadIdx.x % 32;
  const int offset = (blockIdx.x * 4 + warp) * 128;
  unsigned items[4];
  for (int i = 0; i < 4; ++i)
  {
    items[i] = in[offset + lane * 4 + i];
  }
  Exchange(storage[warp]).BlockedToStriped(items, items);
  for (int i = 0; i < 4; ++i)
  {
    items[i] = items[i] * 5u + unsigned(lane);
  }
  __syncwarp();
  Exchange(storage[warp]).StripedToBlocked(items, items);
  for (int i = 0; i < 4; ++i)
  {
    out[offset + lane * 4 + i] = items[i];
  }
}

template <typename K, int THREADS, int WIDTH, int ITEMS, typename Compare>
__device__ __forceinline__ void warp_merge_sort_body(const K* in, K* out, Compare compare)
{
  using Sort          = cub::WarpMergeSort<K, ITEMS, WIDTH>;
  constexpr int WARPS = THREADS / WIDTH;
  __shared__ typename Sort::TempStorage storage[WARPS];
  const int warp   = threadIdx.x / WIDTH;
  const int lane   = threadIdx.x % WIDTH;
  const int offset = (blockIdx.x * WARPS + warp) * WIDTH * ITEMS;
  K keys[ITEMS];
  for (int i = 0; i < ITEMS; ++i)
  {
    keys[i] = in[offset + lane * ITEMS + i];
  }
  Sort(storage[warp]).Sort(keys, compare);
  for (int i = 0; i < ITEMS; ++i)
  {
    out[offset + lane * ITEMS + i] = keys[i];
  }
}

#define WARP_MERGE_SORT(NAME, K, THREADS, WIDTH, ITEMS, COMPARE)                   \
  extern "C" __global__ void __launch_bounds__(THREADS) NAME(const K* in, K* out) \
  {                                                                               \
    warp_merge_sort_body<K, THREADS, WIDTH, ITEMS>(in, out, COMPARE);             \
  }

WARP_MERGE_SORT(warp_merge_sort_i32_w32x4, int, 128, 32, 4, Less{})
WARP_MERGE_SORT(warp_merge_sort_abs_i32_w16x2, int, 64, 16, 2, AbsLess{})
WARP_MERGE_SORT(warp_merge_sort_f32_w8x4, float, 64, 8, 4, Less{})
WARP_MERGE_SORT(warp_merge_sort_u64_w32x2, unsigned long long, 64, 32, 2, Less{})

// Block-wide merge sort with a partial last tile: the first `valid` keys
// of each block's tile are sorted, padded with INT_MAX.
extern "C" __global__ void block_merge_sort_guarded_i32_128x4(const int* in, int* out, int valid)
{
  using Sort = cub::BlockMergeSort<int, 128, 4>;
  __shared__ Sort::TempStorage storage;
  const int tile = blockIdx.x * 512;
  int keys[4];
  for (int i = 0; i < 4; ++i)
  {
    const int at = threadIdx.x * 4 + i;
    keys[i]      = at < valid ? in[tile + at] : 0x7fffffff;
  }
  Sort(storage).Sort(keys, Less{}, valid, 0x7fffffff);
  for (int i = 0; i < 4; ++i)
  {
    out[tile + threadIdx.x * 4 + i] = keys[i];
  }
}

extern "C" __global__ void block_merge_sort_pairs_f32_u32_64x4(const float* keys_in, const unsigned* values_in, float* keys_out, unsigned* values_out)
{
  using Sort = cub::BlockMergeSort<float, 64, 4, unsigned>;
  __shared__ Sort::TempStorage storage;
  const int base = blockIdx.x * 256 + threadIdx.x * 4;
  float keys[4];
  unsigned values[4];
  for (int i = 0; i < 4; ++i)
  {
    keys[i]   = keys_in[base + i];
    values[i] = values_in[base + i];
  }
  Sort(storage).StableSort(keys, values, Less{});
  for (int i = 0; i < 4; ++i)
  {
    keys_out[base + i]   = keys[i];
    values_out[base + i] = values[i];
  }
}
