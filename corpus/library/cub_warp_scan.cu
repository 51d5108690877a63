// CUB WarpScan: inclusive and exclusive sums, scans under other operators,
// the combined Scan, aggregates and Broadcast, over full and logical warps.
// One item per thread; in[] and out[] hold gridDim.x * blockDim.x items.
#include <cub/warp/warp_scan.cuh>
#include <cuda/functional>

enum ScanKind
{
  inclusive_sum,
  exclusive_sum,
  inclusive_op,
  exclusive_op
};

template <typename T, int THREADS, int WIDTH, ScanKind KIND, typename Op>
__device__ __forceinline__ void warp_scan_body(const T* in, T* out, Op op)
{
  using Scan = cub::WarpScan<T, WIDTH>;
  __shared__ typename Scan::TempStorage storage[THREADS / WIDTH];
  const int gid = blockIdx.x * THREADS + threadIdx.x;
  Scan scan(storage[threadIdx.x / WIDTH]);
  T value = in[gid];
  T result;
  if constexpr (KIND == inclusive_sum)
  {
    scan.InclusiveSum(value, result);
  }
  else if constexpr (KIND == exclusive_sum)
  {
    scan.ExclusiveSum(value, result);
  }
  else if constexpr (KIND == inclusive_op)
  {
    scan.InclusiveScan(value, result, op);
  }
  else
  {
    scan.ExclusiveScan(value, result, static_cast<T>(0), op);
  }
  out[gid] = result;
}

#define WARP_SCAN(NAME, T, THREADS, WIDTH, KIND, OP)                                 \
  extern "C" __global__ void __launch_bounds__(THREADS) NAME(const T* in, T* out)  \
  {                                                                                \
    warp_scan_body<T, THREADS, WIDTH, KIND>(in, out, OP);                          \
  }

#define WARP_SCAN_WIDTHS(PREFIX, T, KIND, OP)       \
  WARP_SCAN(PREFIX##_w32, T, 128, 32, KIND, OP)     \
  WARP_SCAN(PREFIX##_w16, T, 128, 16, KIND, OP)     \
  WARP_SCAN(PREFIX##_w8, T, 128, 8, KIND, OP)

WARP_SCAN_WIDTHS(warp_scan_incl_sum_i32, int, inclusive_sum, 0)
WARP_SCAN_WIDTHS(warp_scan_excl_sum_i32, int, exclusive_sum, 0)
WARP_SCAN_WIDTHS(warp_scan_incl_sum_f32, float, inclusive_sum, 0)
WARP_SCAN_WIDTHS(warp_scan_excl_sum_f64, double, exclusive_sum, 0)
WARP_SCAN_WIDTHS(warp_scan_incl_max_i32, int, inclusive_op, cuda::maximum<>{})
WARP_SCAN(warp_scan_incl_sum_u64_w32, unsigned long long, 64, 32, inclusive_sum, 0)
WARP_SCAN(warp_scan_excl_min_u32_w32, unsigned, 128, 32, exclusive_op, cuda::minimum<>{})
WARP_SCAN(warp_scan_excl_xor_u32_w4, unsigned, 128, 4, exclusive_op, cuda::std::bit_xor<>{})
WARP_SCAN(warp_scan_incl_min_f32_w32, float, 128, 32, inclusive_op, cuda::minimum<>{})

// Inclusive and exclusive results at once, plus the warp total
// (out[] holds 2 * n: inclusive at [gid], exclusive at [n + gid]).
extern "C" __global__ void warp_scan_both_max_i32_w32(const int* in, int* out, int* totals)
{
  using Scan = cub::WarpScan<int>;
  __shared__ Scan::TempStorage storage[4];
  const int gid = blockIdx.x * 128 + threadIdx.x;
  const int n   = gridDim.x * 128;
  int inclusive, exclusive, total;
  Scan scan(storage[threadIdx.x / 32]);
  scan.Scan(in[gid], inclusive, exclusive, cuda::maximum<>{});
  scan.ExclusiveSum(in[gid], total, total);
  out[gid]     = inclusive;
  out[n + gid] = exclusive;
  if (threadIdx.x % 32 == 0)
  {
    totals[gid / 32] = total;
  }
}

// Every lane gets the value of lane `src` of its logical warp.
extern "C" __global__ void warp_scan_broadcast_f64_w16(const double* in, double* out, int src)
{
  using Scan = cub::WarpScan<double, 16>;
  __shared__ Scan::TempStorage storage[8];
  const int gid = blockIdx.x * 128 + threadIdx.x;
  out[gid]      = Scan(storage[threadIdx.x / 16]).Broadcast(in[gid], src & 15);
}
