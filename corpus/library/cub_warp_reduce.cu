// CUB WarpReduce: sums, minima, maxima and custom reductions over full
// warps and logical warps of 16, 8 and 4 threads, partial warps, and
// head/tail-flagged segmented reductions. One item per thread; in[] holds
// gridDim.x * blockDim.x items. Plain reductions write one result per
// logical warp to out[global_thread / WIDTH]; segmented ones write each
// thread's result (meaningful at segment heads/tails) to out[global_thread].
#include <cub/warp/warp_reduce.cuh>
#include <cuda/functional>

enum ReduceKind
{
  reduce_sum,
  reduce_max,
  reduce_min,
  reduce_custom
};

template <typename T, int THREADS, int WIDTH, ReduceKind KIND, typename Op>
__device__ __forceinline__ void warp_reduce_body(const T* in, T* out, Op op)
{
  using Reduce = cub::WarpReduce<T, WIDTH>;
  __shared__ typename Reduce::TempStorage storage[THREADS / WIDTH];
  const int gid  = blockIdx.x * THREADS + threadIdx.x;
  const int warp = threadIdx.x / WIDTH;
  T value        = in[gid];
  T result;
  if constexpr (KIND == reduce_sum)
  {
    result = Reduce(storage[warp]).Sum(value);
  }
  else if constexpr (KIND == reduce_max)
  {
    result = Reduce(storage[warp]).Max(value);
  }
  else if constexpr (KIND == reduce_min)
  {
    result = Reduce(storage[warp]).Min(value);
  }
  else
  {
    result = Reduce(storage[warp]).Reduce(value, op);
  }
  if (threadIdx.x % WIDTH == 0)
  {
    out[gid / WIDTH] = result;
  }
}

#define WARP_REDUCE(NAME, T, THREADS, WIDTH, KIND, OP)                               \
  extern "C" __global__ void __launch_bounds__(THREADS) NAME(const T* in, T* out)  \
  {                                                                                \
    warp_reduce_body<T, THREADS, WIDTH, KIND>(in, out, OP);                        \
  }

#define WARP_REDUCE_WIDTHS(PREFIX, T, KIND, OP)         \
  WARP_REDUCE(PREFIX##_w32, T, 128, 32, KIND, OP)       \
  WARP_REDUCE(PREFIX##_w16, T, 128, 16, KIND, OP)       \
  WARP_REDUCE(PREFIX##_w8, T, 128, 8, KIND, OP)         \
  WARP_REDUCE(PREFIX##_w4, T, 128, 4, KIND, OP)

WARP_REDUCE_WIDTHS(warp_reduce_sum_i32, int, reduce_sum, 0)
WARP_REDUCE_WIDTHS(warp_reduce_sum_f32, float, reduce_sum, 0)
WARP_REDUCE_WIDTHS(warp_reduce_sum_f64, double, reduce_sum, 0)
WARP_REDUCE_WIDTHS(warp_reduce_max_u32, unsigned, reduce_max, 0)
WARP_REDUCE(warp_reduce_sum_u64_w32, unsigned long long, 64, 32, reduce_sum, 0)
WARP_REDUCE(warp_reduce_min_i64_w32, long long, 64, 32, reduce_min, 0)
WARP_REDUCE(warp_reduce_min_f32_w32, float, 128, 32, reduce_min, 0)
WARP_REDUCE(warp_reduce_max_f64_w16, double, 64, 16, reduce_max, 0)
WARP_REDUCE(warp_reduce_or_u32_w32, unsigned, 128, 32, reduce_custom, cuda::std::bit_or<>{})
WARP_REDUCE(warp_reduce_and_u32_w8, unsigned, 128, 8, reduce_custom, cuda::std::bit_and<>{})
WARP_REDUCE(warp_reduce_mul_i32_w32, int, 64, 32, reduce_custom, cuda::std::multiplies<>{})
WARP_REDUCE(warp_reduce_sum_i16_w32, short, 64, 32, reduce_sum, 0)
WARP_REDUCE(warp_reduce_sum_i8_w16, signed char, 64, 16, reduce_sum, 0)

// Only the first `valid` lanes of each warp contribute.
extern "C" __global__ void warp_reduce_partial_sum_i32_w32(const int* in, int* out, int valid)
{
  using Reduce = cub::WarpReduce<int>;
  __shared__ Reduce::TempStorage storage[4];
  const int gid  = blockIdx.x * 128 + threadIdx.x;
  const int lane = threadIdx.x % 32;
  int value      = lane < valid ? in[gid] : 0;
  int total      = Reduce(storage[threadIdx.x / 32]).Sum(value, valid);
  if (lane == 0)
  {
    out[gid / 32] = total;
  }
}

// Segments start at lanes whose input has bit 0 set (and at lane 0).
extern "C" __global__ void warp_reduce_head_segmented_sum_i32_w32(const int* in, const int* flags, int* out)
{
  using Reduce = cub::WarpReduce<int>;
  __shared__ Reduce::TempStorage storage[4];
  const int gid  = blockIdx.x * 128 + threadIdx.x;
  const int head = (flags[gid] & 1) | (threadIdx.x % 32 == 0);
  out[gid]       = Reduce(storage[threadIdx.x / 32]).HeadSegmentedSum(in[gid], head);
}

extern "C" __global__ void warp_reduce_tail_segmented_max_f32_w16(const float* in, const int* flags, float* out)
{
  using Reduce = cub::WarpReduce<float, 16>;
  __shared__ Reduce::TempStorage storage[8];
  const int gid  = blockIdx.x * 128 + threadIdx.x;
  const int tail = (flags[gid] & 1) | (threadIdx.x % 16 == 15);
  out[gid] = Reduce(storage[threadIdx.x / 16]).TailSegmentedReduce(in[gid], tail, cuda::maximum<>{});
}
