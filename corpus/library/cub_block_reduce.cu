// CUB BlockReduce: every reduction algorithm, several element types and
// operators, one and several items per thread, full and partial tiles.
// Kernels are extern "C" wrappers: in[] holds gridDim.x * THREADS * ITEMS
// elements, out[] one result per block (written by thread 0).
#include <cub/block/block_reduce.cuh>
#include <cuda/functional>

template <typename T, int THREADS, int ITEMS, cub::BlockReduceAlgorithm ALG, typename Op>
__device__ __forceinline__ void block_reduce_body(const T* in, T* out, Op op)
{
  using Reduce = cub::BlockReduce<T, THREADS, ALG>;
  __shared__ typename Reduce::TempStorage storage;
  T items[ITEMS];
  const T* tile = in + blockIdx.x * THREADS * ITEMS;
  for (int i = 0; i < ITEMS; ++i)
  {
    items[i] = tile[threadIdx.x * ITEMS + i];
  }
  T total = Reduce(storage).Reduce(items, op);
  if (threadIdx.x == 0)
  {
    out[blockIdx.x] = total;
  }
}

// Sum over the first `valid` threads of each block only.
template <typename T, int THREADS, cub::BlockReduceAlgorithm ALG>
__device__ __forceinline__ void block_reduce_partial_body(const T* in, T* out, int valid)
{
  using Reduce = cub::BlockReduce<T, THREADS, ALG>;
  __shared__ typename Reduce::TempStorage storage;
  T item = threadIdx.x < valid ? in[blockIdx.x * THREADS + threadIdx.x] : T(0);
  T total = Reduce(storage).Sum(item, valid);
  if (threadIdx.x == 0)
  {
    out[blockIdx.x] = total;
  }
}

#define BLOCK_REDUCE(NAME, T, THREADS, ITEMS, ALG, OP)                                  \
  extern "C" __global__ void __launch_bounds__(THREADS) NAME(const T* in, T* out)     \
  {                                                                                   \
    block_reduce_body<T, THREADS, ITEMS, cub::ALG>(in, out, OP);                      \
  }

#define BLOCK_REDUCE_ALGS(PREFIX, T, THREADS, ITEMS, OP)                                             \
  BLOCK_REDUCE(PREFIX##_raking_commutative, T, THREADS, ITEMS, BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY, OP) \
  BLOCK_REDUCE(PREFIX##_raking, T, THREADS, ITEMS, BLOCK_REDUCE_RAKING, OP)                             \
  BLOCK_REDUCE(PREFIX##_warp_reductions, T, THREADS, ITEMS, BLOCK_REDUCE_WARP_REDUCTIONS, OP)

BLOCK_REDUCE_ALGS(block_reduce_sum_i32_128, int, 128, 1, cuda::std::plus<>{})
BLOCK_REDUCE_ALGS(block_reduce_sum_u32_256x4, unsigned, 256, 4, cuda::std::plus<>{})
BLOCK_REDUCE_ALGS(block_reduce_sum_f32_128, float, 128, 1, cuda::std::plus<>{})
BLOCK_REDUCE_ALGS(block_reduce_sum_f64_64x2, double, 64, 2, cuda::std::plus<>{})
BLOCK_REDUCE_ALGS(block_reduce_sum_i64_96, long long, 96, 1, cuda::std::plus<>{})
BLOCK_REDUCE_ALGS(block_reduce_max_i32_128x4, int, 128, 4, cuda::maximum<>{})
BLOCK_REDUCE_ALGS(block_reduce_min_f32_256, float, 256, 1, cuda::minimum<>{})
BLOCK_REDUCE_ALGS(block_reduce_xor_u64_128x2, unsigned long long, 128, 2, cuda::std::bit_xor<>{})

extern "C" __global__ void block_reduce_partial_sum_i32_128(const int* in, int* out, int valid)
{
  block_reduce_partial_body<int, 128, cub::BLOCK_REDUCE_WARP_REDUCTIONS>(in, out, valid);
}

extern "C" __global__ void block_reduce_partial_sum_f32_128_raking(const float* in, float* out, int valid)
{
  block_reduce_partial_body<float, 128, cub::BLOCK_REDUCE_RAKING>(in, out, valid);
}

// A 2-D block (16 x 8 threads) reduced as one.
extern "C" __global__ void block_reduce_sum_i32_16x8_2d(const int* in, int* out)
{
  using Reduce = cub::BlockReduce<int, 16, cub::BLOCK_REDUCE_WARP_REDUCTIONS, 8>;
  __shared__ Reduce::TempStorage storage;
  int linear = threadIdx.y * 16 + threadIdx.x;
  int total  = Reduce(storage).Sum(in[blockIdx.x * 128 + linear]);
  if (linear == 0)
  {
    out[blockIdx.x] = total;
  }
}
