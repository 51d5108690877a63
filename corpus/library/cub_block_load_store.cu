// CUB BlockLoad, BlockStore and BlockExchange: every load and store
// algorithm, full tiles and guarded partial tiles, over 8- to 64-bit
// elements. Each kernel copies (and slightly transforms) the tile of
// THREADS * ITEMS elements of each block from in[] to out[].
#include <cub/block/block_exchange.cuh>
#include <cub/block/block_load.cuh>
#include <cub/block/block_store.cuh>

template <typename T, int THREADS, int ITEMS, cub::BlockLoadAlgorithm LOAD, cub::BlockStoreAlgorithm STORE>
__device__ __forceinline__ void load_store_body(const T* in, T* out)
{
  using Load  = cub::BlockLoad<T, THREADS, ITEMS, LOAD>;
  using Store = cub::BlockStore<T, THREADS, ITEMS, STORE>;
  __shared__ union
  {
    typename Load::TempStorage load;
    typename Store::TempStorage store;
  } storage;
  T items[ITEMS];
  const int tile = blockIdx.x * THREADS * ITEMS;
  Load(storage.load).Load(in + tile, items);
  for (int i = 0; i < ITEMS; ++i)
  {
    items[i] = items[i] + static_cast<T>(i + 1);
  }
  __syncthreads();
  Store(storage.store).Store(out + tile, items);
}

// Guarded: only the first `valid` elements of each tile are read and
// written; the rest of the loaded items take `fill`.
template <typename T, int THREADS, int ITEMS, cub::BlockLoadAlgorithm LOAD, cub::BlockStoreAlgorithm STORE>
__device__ __forceinline__ void load_store_guarded_body(const T* in, T* out, int valid, T fill)
{
  using Load  = cub::BlockLoad<T, THREADS, ITEMS, LOAD>;
  using Store = cub::BlockStore<T, THREADS, ITEMS, STORE>;
  __shared__ union
  {
    typename Load::TempStorage load;
    typename Store::TempStorage store;
  } storage;
  T items[ITEMS];
  const int tile = blockIdx.x * THREADS * ITEMS;
  Load(storage.load).Load(in + tile, items, valid, fill);
  T total = static_cast<T>(0);
  for (int i = 0; i < ITEMS; ++i)
  {
    total = total + items[i];
  }
  for (int i = 0; i < ITEMS; ++i)
  {
    items[i] = total;
  }
  __syncthreads();
  Store(storage.store).Store(out + tile, items, valid);
}

#define LOAD_STORE(NAME, T, THREADS, ITEMS, LOAD, STORE)                           \
  extern "C" __global__ void __launch_bounds__(THREADS) NAME(const T* in, T* out) \
  {                                                                               \
    load_store_body<T, THREADS, ITEMS, cub::LOAD, cub::STORE>(in, out);           \
  }

#define LOAD_STORE_GUARDED(NAME, T, THREADS, ITEMS, LOAD, STORE)                                    \
  extern "C" __global__ void __launch_bounds__(THREADS) NAME(const T* in, T* out, int valid)       \
  {                                                                                                \
    load_store_guarded_body<T, THREADS, ITEMS, cub::LOAD, cub::STORE>(in, out, valid, static_cast<T>(7));        \
  }

LOAD_STORE(block_load_store_direct_i32_128x4, int, 128, 4, BLOCK_LOAD_DIRECT, BLOCK_STORE_DIRECT)
LOAD_STORE(block_load_store_striped_i32_128x4, int, 128, 4, BLOCK_LOAD_STRIPED, BLOCK_STORE_STRIPED)
LOAD_STORE(block_load_store_vectorize_i32_128x4, int, 128, 4, BLOCK_LOAD_VECTORIZE, BLOCK_STORE_VECTORIZE)
LOAD_STORE(block_load_store_transpose_i32_128x4, int, 128, 4, BLOCK_LOAD_TRANSPOSE, BLOCK_STORE_TRANSPOSE)
LOAD_STORE(block_load_store_warp_transpose_i32_128x4, int, 128, 4, BLOCK_LOAD_WARP_TRANSPOSE, BLOCK_STORE_WARP_TRANSPOSE)
LOAD_STORE(block_load_store_timesliced_i32_128x4, int, 128, 4, BLOCK_LOAD_WARP_TRANSPOSE_TIMESLICED, BLOCK_STORE_WARP_TRANSPOSE_TIMESLICED)
LOAD_STORE(block_load_store_vectorize_f32_256x4, float, 256, 4, BLOCK_LOAD_VECTORIZE, BLOCK_STORE_VECTORIZE)
LOAD_STORE(block_load_store_transpose_f64_64x3, double, 64, 3, BLOCK_LOAD_TRANSPOSE, BLOCK_STORE_WARP_TRANSPOSE)
LOAD_STORE(block_load_store_vectorize_u8_128x16, unsigned char, 128, 16, BLOCK_LOAD_VECTORIZE, BLOCK_STORE_VECTORIZE)
LOAD_STORE(block_load_store_warp_transpose_u16_64x8, unsigned short, 64, 8, BLOCK_LOAD_WARP_TRANSPOSE, BLOCK_STORE_TRANSPOSE)
LOAD_STORE(block_load_store_striped_u64_96x2, unsigned long long, 96, 2, BLOCK_LOAD_STRIPED, BLOCK_STORE_DIRECT)
LOAD_STORE(block_load_store_vectorize_f64_128x2, double, 128, 2, BLOCK_LOAD_VECTORIZE, BLOCK_STORE_VECTORIZE)

LOAD_STORE_GUARDED(block_load_store_guarded_direct_i32_128x4, int, 128, 4, BLOCK_LOAD_DIRECT, BLOCK_STORE_DIRECT)
LOAD_STORE_GUARDED(block_load_store_guarded_striped_f32_128x4, float, 128, 4, BLOCK_LOAD_STRIPED, BLOCK_STORE_STRIPED)
LOAD_STORE_GUARDED(block_load_store_guarded_transpose_i32_128x4, int, 128, 4, BLOCK_LOAD_TRANSPOSE, BLOCK_STORE_TRANSPOSE)
LOAD_STORE_GUARDED(block_load_store_guarded_warp_transpose_u64_64x2, unsigned long long, 64, 2, BLOCK_LOAD_WARP_TRANSPOSE, BLOCK_STORE_WARP_TRANSPOSE)

// BlockExchange alone: blocked -> striped -> blocked -> warp-striped -> blocked.
extern "C" __global__ void block_exchange_roundtrip_i32_128x4(const int* in, int* out)
{
  using Exchange = cub::BlockExchange<int, 128, 4>;
  __shared__ Exchange::TempStorage storage;
  int items[4];
  const int tile = blockIdx.x * 512;
  cub::LoadDirectBlocked(threadIdx.x, in + tile, items);
  Exchange(storage).BlockedToStriped(items, items);
  __syncthreads();
  for (int i = 0; i < 4; ++i)
  {
    items[i] *= 3;
  }
  Exchange(storage).StripedToBlocked(items, items);
  __syncthreads();
  Exchange(storage).BlockedToWarpStriped(items, items);
  __syncthreads();
  Exchange(storage).WarpStripedToBlocked(items, items);
  cub::StoreDirectBlocked(threadIdx.x, out + tile, items);
}

// Scatter each thread's items to reversed ranks through shared memory.
extern "C" __global__ void block_exchange_scatter_reverse_u32_64x4(const unsigned* in, unsigned* out)
{
  using Exchange = cub::BlockExchange<unsigned, 64, 4>;
  __shared__ Exchange::TempStorage storage;
  unsigned items[4];
  int ranks[4];
  const int tile = blockIdx.x * 256;
  cub::LoadDirectStriped<64>(threadIdx.x, in + tile, items);
  for (int i = 0; i < 4; ++i)
  {
    ranks[i] = 255 - (i * 64 + threadIdx.x);
  }
  Exchange(storage).ScatterToStriped(items, items, ranks);
  cub::StoreDirectStriped<64>(threadIdx.x, out + tile, items);
}
