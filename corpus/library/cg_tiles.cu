// Cooperative groups, tiles: static thread_block_tile<N> partitions of the
// block with their shuffles (shfl, shfl_up, shfl_down, shfl_xor), votes
// (any, all, ballot), match_any/match_all, meta-group ranks and tile
// syncs; dynamic tiled_partition(block, n); and a tile of a tile. Each
// thread reads in[gid] and writes out[gid] (gid = global thread index).
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

#define GID (blockIdx.x * blockDim.x + threadIdx.x)

// Rotate values left by one lane within each tile.
template <int N, typename T>
__device__ __forceinline__ void rotate_body(const T* in, T* out)
{
  auto tile = cg::tiled_partition<N>(cg::this_thread_block());
  out[GID]  = tile.shfl(in[GID], (tile.thread_rank() + 1) % N);
}

#define TILE_ROTATE(N, T, SUFFIX)                                                     \
  extern "C" __global__ void cg_tile##N##_rotate_##SUFFIX(const T* in, T* out)     \
  {                                                                                 \
    rotate_body<N>(in, out);                                                        \
  }

TILE_ROTATE(32, int, i32)
TILE_ROTATE(16, float, f32)
TILE_ROTATE(8, double, f64)
TILE_ROTATE(4, unsigned long long, u64)
TILE_ROTATE(2, short, i16)

// Hillis-Steele inclusive sum with shfl_up.
template <int N, typename T>
__device__ __forceinline__ void shfl_up_scan_body(const T* in, T* out)
{
  auto tile = cg::tiled_partition<N>(cg::this_thread_block());
  T value   = in[GID];
  for (int d = 1; d < N; d *= 2)
  {
    T other = tile.shfl_up(value, d);
    if (tile.thread_rank() >= d)
    {
      value += other;
    }
  }
  out[GID] = value;
}

extern "C" __global__ void cg_tile32_shfl_up_scan_i32(const int* in, int* out)
{
  shfl_up_scan_body<32>(in, out);
}

extern "C" __global__ void cg_tile8_shfl_up_scan_f32(const float* in, float* out)
{
  shfl_up_scan_body<8>(in, out);
}

// Tree sum with shfl_down; lane 0 of each tile holds the total.
template <int N, typename T>
__device__ __forceinline__ void shfl_down_sum_body(const T* in, T* out)
{
  auto tile = cg::tiled_partition<N>(cg::this_thread_block());
  T value   = in[GID];
  for (int d = N / 2; d > 0; d /= 2)
  {
    value += tile.shfl_down(value, d);
  }
  out[GID] = value;
}

extern "C" __global__ void cg_tile32_shfl_down_sum_f64(const double* in, double* out)
{
  shfl_down_sum_body<32>(in, out);
}

extern "C" __global__ void cg_tile16_shfl_down_sum_i64(const long long* in, long long* out)
{
  shfl_down_sum_body<16>(in, out);
}

// Butterfly max with shfl_xor: every lane gets the tile maximum.
template <int N>
__device__ __forceinline__ void shfl_xor_max_body(const float* in, float* out)
{
  auto tile   = cg::tiled_partition<N>(cg::this_thread_block());
  float value = in[GID];
  for (int m = N / 2; m > 0; m /= 2)
  {
    value = fmaxf(value, tile.shfl_xor(value, m));
  }
  out[GID] = value;
}

extern "C" __global__ void cg_tile32_shfl_xor_max_f32(const float* in, float* out)
{
  shfl_xor_max_body<32>(in, out);
}

extern "C" __global__ void cg_tile4_shfl_xor_max_f32(const float* in, float* out)
{
  shfl_xor_max_body<4>(in, out);
}

// Votes: out[gid] packs ballot, any and all of (in[gid] is odd).
template <int N>
__device__ __forceinline__ void vote_body(const int* in, unsigned* out)
{
  auto tile       = cg::tiled_partition<N>(cg::this_thread_block());
  const bool odd  = (in[GID] & 1) != 0;
  unsigned ballot = tile.ballot(odd);
  out[GID]        = (ballot << 2) | (unsigned(tile.any(odd)) << 1) | unsigned(tile.all(odd));
}

extern "C" __global__ void cg_tile32_vote(const int* in, unsigned* out)
{
  vote_body<32>(in, out);
}

extern "C" __global__ void cg_tile8_vote(const int* in, unsigned* out)
{
  vote_body<8>(in, out);
}

// match_any on the low 2 bits of the input; match_all on the input itself.
extern "C" __global__ void cg_tile32_match(const int* in, unsigned* out)
{
  auto tile          = cg::tiled_partition<32>(cg::this_thread_block());
  unsigned same_low2 = tile.match_any(in[GID] & 3);
  int all_equal;
  unsigned all = tile.match_all(in[GID], all_equal);
  out[GID]     = same_low2 ^ (all << 1) ^ unsigned(all_equal);
}

extern "C" __global__ void cg_tile16_match_any_u64(const unsigned long long* in, unsigned* out)
{
  auto tile = cg::tiled_partition<16>(cg::this_thread_block());
  out[GID]  = tile.match_any(in[GID] & 7ull);
}

// Tile bookkeeping: meta-group rank/size and thread ranks, packed.
extern "C" __global__ void cg_tile8_ranks(unsigned* out)
{
  auto block = cg::this_thread_block();
  auto tile  = cg::tiled_partition<8>(block);
  out[GID]   = (tile.meta_group_rank() << 24) | (tile.meta_group_size() << 16) | (tile.thread_rank() << 8)
           | block.thread_rank();
}

// Dynamic partition: tile size chosen at run time (a power of two <= 32).
extern "C" __global__ void cg_dynamic_partition_ranks(unsigned* out, int tile_size)
{
  auto block = cg::this_thread_block();
  auto group = cg::tiled_partition(block, tile_size);
  group.sync();
  out[GID] = (group.size() << 16) | group.thread_rank();
}

// A tile of a tile, with a tile-wide sync between shared-memory steps.
extern "C" __global__ void cg_tile_of_tile_exchange(const int* in, int* out)
{
  __shared__ int buffer[256];
  auto block  = cg::this_thread_block();
  auto warp   = cg::tiled_partition<32>(block);
  auto quad   = cg::tiled_partition<4>(warp);
  buffer[block.thread_rank()] = in[GID];
  warp.sync();
  const int partner = (block.thread_rank() & ~3u) | (3 - quad.thread_rank());
  int value         = buffer[partner];
  quad.sync();
  out[GID] = quad.shfl(value, 0) + value;
}

// Whole-block sync and ranks through thread_block.
extern "C" __global__ void cg_block_reverse(const float* in, float* out)
{
  __shared__ float buffer[1024];
  auto block = cg::this_thread_block();
  buffer[block.thread_rank()] = in[GID];
  block.sync();
  out[GID] = buffer[block.size() - 1 - block.thread_rank()];
}
