// Cooperative groups collectives: cg::reduce with the cg:: operators over
// tiles of 32, 16, 8 and 4 threads and over several element types,
// cg::inclusive_scan / cg::exclusive_scan, reduce_update_async and
// reduce_store_async into atomics, and invoke_one / invoke_one_broadcast.
// Each thread reads in[gid]; per-thread results go to out[gid].
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>

namespace cg = cooperative_groups;

#define GID (blockIdx.x * blockDim.x + threadIdx.x)

template <int N, typename T, typename Op>
__device__ __forceinline__ void tile_reduce_body(const T* in, T* out, Op op)
{
  auto tile = cg::tiled_partition<N>(cg::this_thread_block());
  out[GID]  = cg::reduce(tile, in[GID], op);
}

#define TILE_REDUCE(NAME, N, T, OP)                                 \
  extern "C" __global__ void NAME(const T* in, T* out)           \
  {                                                               \
    tile_reduce_body<N>(in, out, OP);                             \
  }

TILE_REDUCE(cg_reduce_plus_i32_t32, 32, int, cg::plus<int>())
TILE_REDUCE(cg_reduce_plus_i32_t16, 16, int, cg::plus<int>())
TILE_REDUCE(cg_reduce_plus_i32_t8, 8, int, cg::plus<int>())
TILE_REDUCE(cg_reduce_plus_i32_t4, 4, int, cg::plus<int>())
TILE_REDUCE(cg_reduce_plus_u32_t32, 32, unsigned, cg::plus<unsigned>())
TILE_REDUCE(cg_reduce_plus_f32_t32, 32, float, cg::plus<float>())
TILE_REDUCE(cg_reduce_plus_f64_t16, 16, double, cg::plus<double>())
TILE_REDUCE(cg_reduce_plus_i64_t32, 32, long long, cg::plus<long long>())
TILE_REDUCE(cg_reduce_less_i32_t32, 32, int, cg::less<int>())
TILE_REDUCE(cg_reduce_less_u32_t8, 8, unsigned, cg::less<unsigned>())
TILE_REDUCE(cg_reduce_greater_i32_t32, 32, int, cg::greater<int>())
TILE_REDUCE(cg_reduce_greater_f32_t16, 16, float, cg::greater<float>())
TILE_REDUCE(cg_reduce_greater_u64_t32, 32, unsigned long long, cg::greater<unsigned long long>())
TILE_REDUCE(cg_reduce_bit_and_u32_t32, 32, unsigned, cg::bit_and<unsigned>())
TILE_REDUCE(cg_reduce_bit_or_u32_t16, 16, unsigned, cg::bit_or<unsigned>())
TILE_REDUCE(cg_reduce_bit_xor_u32_t32, 32, unsigned, cg::bit_xor<unsigned>())
TILE_REDUCE(cg_reduce_bit_xor_i64_t8, 8, long long, cg::bit_xor<long long>())

// A lambda operator (product of small integers).
extern "C" __global__ void cg_reduce_lambda_mul_i32_t32(const int* in, int* out)
{
  auto tile = cg::tiled_partition<32>(cg::this_thread_block());
  out[GID]  = cg::reduce(tile, (in[GID] & 3) + 1, [](int a, int b) { return a * b; });
}

template <int N, bool INCLUSIVE, typename T, typename Op>
__device__ __forceinline__ void tile_scan_body(const T* in, T* out, Op op)
{
  auto tile = cg::tiled_partition<N>(cg::this_thread_block());
  if constexpr (INCLUSIVE)
  {
    out[GID] = cg::inclusive_scan(tile, in[GID], op);
  }
  else
  {
    out[GID] = cg::exclusive_scan(tile, in[GID], op);
  }
}

#define TILE_SCAN(NAME, N, INCLUSIVE, T, OP)                        \
  extern "C" __global__ void NAME(const T* in, T* out)           \
  {                                                               \
    tile_scan_body<N, INCLUSIVE>(in, out, OP);                    \
  }

TILE_SCAN(cg_inclusive_scan_plus_i32_t32, 32, true, int, cg::plus<int>())
TILE_SCAN(cg_inclusive_scan_plus_f32_t16, 16, true, float, cg::plus<float>())
TILE_SCAN(cg_inclusive_scan_greater_i32_t8, 8, true, int, cg::greater<int>())
TILE_SCAN(cg_inclusive_scan_plus_f64_t32, 32, true, double, cg::plus<double>())
TILE_SCAN(cg_exclusive_scan_plus_i32_t32, 32, false, int, cg::plus<int>())
TILE_SCAN(cg_exclusive_scan_plus_u64_t16, 16, false, unsigned long long, cg::plus<unsigned long long>())
TILE_SCAN(cg_exclusive_scan_bit_or_u32_t32, 32, false, unsigned, cg::bit_or<unsigned>())
TILE_SCAN(cg_exclusive_scan_less_i32_t4, 4, false, int, cg::less<int>())

// Warp partial sums combined into one total per block with
// reduce_update_async (an atomic add by one lane of each tile).
extern "C" __global__ void cg_reduce_update_async_sum_i32(const int* in, int* totals)
{
  auto tile = cg::tiled_partition<32>(cg::this_thread_block());
  cuda::atomic_ref<int, cuda::thread_scope_device> total(totals[blockIdx.x]);
  cg::reduce_update_async(tile, total, in[GID], cg::plus<int>());
}

// Per-tile maximum stored (not accumulated) into out[tile index].
extern "C" __global__ void cg_reduce_store_async_max_u32(const unsigned* in, unsigned* out)
{
  auto tile = cg::tiled_partition<16>(cg::this_thread_block());
  cuda::atomic_ref<unsigned, cuda::thread_scope_device> slot(out[GID / 16]);
  cg::reduce_store_async(tile, slot, in[GID], cg::greater<unsigned>());
}

// One lane per tile claims a slot with an atomic; the slot is broadcast.
extern "C" __global__ void cg_invoke_one_broadcast_claim(unsigned* counter, unsigned* out)
{
  auto tile     = cg::tiled_partition<32>(cg::this_thread_block());
  unsigned base = cg::invoke_one_broadcast(tile, [&]() { return atomicAdd(counter, 32u); });
  out[GID]      = base + tile.thread_rank();
}

extern "C" __global__ void cg_invoke_one_count_tiles(unsigned* counter)
{
  auto tile = cg::tiled_partition<8>(cg::this_thread_block());
  cg::invoke_one(tile, [&]() { atomicAdd(counter, 1u); });
}
