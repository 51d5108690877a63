// CUB BlockScan: the three scan algorithms with inclusive and exclusive
// sums and scans under other operators, blocked arrangements of several
// items per thread, and a prefix callback carrying a running total across
// tiles. Kernels are extern "C": in[] and out[] hold
// gridDim.x * THREADS * ITEMS elements (blocked: thread t owns ITEMS
// consecutive elements), aggregate kernels also write one total per block.
#include <cub/block/block_scan.cuh>
#include <cuda/functional>

enum ScanKind
{
  inclusive_sum,
  exclusive_sum,
  inclusive_op,
  exclusive_op
};

template <typename T, int THREADS, int ITEMS, cub::BlockScanAlgorithm ALG, ScanKind KIND, typename Op>
__device__ __forceinline__ void block_scan_body(const T* in, T* out, Op op)
{
  using Scan = cub::BlockScan<T, THREADS, ALG>;
  __shared__ typename Scan::TempStorage storage;
  T items[ITEMS];
  const int base = (blockIdx.x * THREADS + threadIdx.x) * ITEMS;
  for (int i = 0; i < ITEMS; ++i)
  {
    items[i] = in[base + i];
  }
  if constexpr (KIND == inclusive_sum)
  {
    Scan(storage).InclusiveSum(items, items);
  }
  else if constexpr (KIND == exclusive_sum)
  {
    Scan(storage).ExclusiveSum(items, items);
  }
  else if constexpr (KIND == inclusive_op)
  {
    Scan(storage).InclusiveScan(items, items, op);
  }
  else
  {
    Scan(storage).ExclusiveScan(items, items, T(0), op);
  }
  for (int i = 0; i < ITEMS; ++i)
  {
    out[base + i] = items[i];
  }
}

#define BLOCK_SCAN(NAME, T, THREADS, ITEMS, ALG, KIND, OP)                          \
  extern "C" __global__ void __launch_bounds__(THREADS) NAME(const T* in, T* out) \
  {                                                                               \
    block_scan_body<T, THREADS, ITEMS, cub::ALG, KIND>(in, out, OP);              \
  }

#define BLOCK_SCAN_ALGS(PREFIX, T, THREADS, ITEMS, KIND, OP)                      \
  BLOCK_SCAN(PREFIX##_raking, T, THREADS, ITEMS, BLOCK_SCAN_RAKING, KIND, OP)     \
  BLOCK_SCAN(PREFIX##_memoize, T, THREADS, ITEMS, BLOCK_SCAN_RAKING_MEMOIZE, KIND, OP) \
  BLOCK_SCAN(PREFIX##_warp_scans, T, THREADS, ITEMS, BLOCK_SCAN_WARP_SCANS, KIND, OP)

BLOCK_SCAN_ALGS(block_scan_incl_sum_i32_128, int, 128, 1, inclusive_sum, cuda::std::plus<>{})
BLOCK_SCAN_ALGS(block_scan_excl_sum_i32_128x4, int, 128, 4, exclusive_sum, cuda::std::plus<>{})
BLOCK_SCAN_ALGS(block_scan_incl_sum_f32_256x2, float, 256, 2, inclusive_sum, cuda::std::plus<>{})
BLOCK_SCAN_ALGS(block_scan_excl_sum_u64_64, unsigned long long, 64, 1, exclusive_sum, cuda::std::plus<>{})
BLOCK_SCAN_ALGS(block_scan_incl_sum_f64_128, double, 128, 1, inclusive_sum, cuda::std::plus<>{})
BLOCK_SCAN_ALGS(block_scan_incl_max_i32_128x3, int, 128, 3, inclusive_op, cuda::maximum<>{})
BLOCK_SCAN_ALGS(block_scan_excl_xor_u32_96, unsigned, 96, 1, exclusive_op, cuda::std::bit_xor<>{})

// Exclusive sum that also reports the block's total.
extern "C" __global__ void block_scan_excl_sum_aggregate_i32_256(const int* in, int* out, int* totals)
{
  using Scan = cub::BlockScan<int, 256>;
  __shared__ Scan::TempStorage storage;
  const int i = blockIdx.x * 256 + threadIdx.x;
  int result, total;
  Scan(storage).ExclusiveSum(in[i], result, total);
  out[i] = result;
  if (threadIdx.x == 0)
  {
    totals[blockIdx.x] = total;
  }
}

// A running prefix carried across `tiles` consecutive tiles by one block.
struct RunningPrefix
{
  int running;
  __device__ int operator()(int block_aggregate)
  {
    int old = running;
    running += block_aggregate;
    return old;
  }
};

extern "C" __global__ void block_scan_prefix_callback_i32_128(const int* in, int* out, int tiles)
{
  using Scan = cub::BlockScan<int, 128>;
  __shared__ Scan::TempStorage storage;
  RunningPrefix prefix{0};
  const int* src = in + blockIdx.x * tiles * 128;
  int* dst       = out + blockIdx.x * tiles * 128;
  for (int tile = 0; tile < tiles; ++tile)
  {
    int value = src[tile * 128 + threadIdx.x];
    Scan(storage).InclusiveSum(value, value, prefix);
    __syncthreads();
    dst[tile * 128 + threadIdx.x] = value;
  }
}
