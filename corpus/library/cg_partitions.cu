// Cooperative groups, data-dependent groups: coalesced_threads() inside
// divergent branches, labeled_partition and binary_partition of warps
// and tiles, and collectives (shfl, ballot, reduce, scan) over the
// resulting coalesced groups. Each thread reads in[gid] and writes out[gid].
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>

namespace cg = cooperative_groups;

#define GID (blockIdx.x * blockDim.x + threadIdx.x)

// Threads with a positive input form a group; they number themselves and
// learn the group size. Others write -1.
extern "C" __global__ void cg_coalesced_rank_positive(const int* in, int* out)
{
  int result = -1;
  if (in[GID] > 0)
  {
    auto active = cg::coalesced_threads();
    result      = int(active.thread_rank() | (active.num_threads() << 8));
  }
  out[GID] = result;
}

// Warp-aggregated atomic increment: one atomic per coalesced group.
extern "C" __global__ void cg_coalesced_aggregated_increment(const int* in, unsigned* counter, unsigned* out)
{
  unsigned slot = 0xffffffffu;
  if (in[GID] & 1)
  {
    auto active   = cg::coalesced_threads();
    unsigned base = 0;
    if (active.thread_rank() == 0)
    {
      base = atomicAdd(counter, active.num_threads());
    }
    slot = active.shfl(base, 0) + active.thread_rank();
  }
  out[GID] = slot;
}

// Sum over the coalesced group of threads whose input is even.
extern "C" __global__ void cg_coalesced_reduce_even_i32(const int* in, int* out)
{
  int result = 0;
  if ((in[GID] & 1) == 0)
  {
    auto active = cg::coalesced_threads();
    result      = cg::reduce(active, in[GID], cg::plus<int>());
  }
  out[GID] = result;
}

extern "C" __global__ void cg_coalesced_scan_odd_u32(const unsigned* in, unsigned* out)
{
  unsigned result = 0;
  if (in[GID] & 1u)
  {
    auto active = cg::coalesced_threads();
    result      = cg::inclusive_scan(active, in[GID] >> 8, cg::plus<unsigned>());
  }
  out[GID] = result;
}

// Threads with equal labels (input mod 4) form groups.
extern "C" __global__ void cg_labeled_partition_sum_i32(const int* in, int* out)
{
  auto warp  = cg::tiled_partition<32>(cg::this_thread_block());
  auto group = cg::labeled_partition(warp, in[GID] & 3);
  out[GID]   = cg::reduce(group, in[GID], cg::plus<int>());
}

extern "C" __global__ void cg_labeled_partition_ranks_t16(const unsigned* in, unsigned* out)
{
  auto tile  = cg::tiled_partition<16>(cg::this_thread_block());
  auto group = cg::labeled_partition(tile, in[GID] % 5u);
  out[GID]   = (group.num_threads() << 8) | group.thread_rank();
}

extern "C" __global__ void cg_binary_partition_max_f32(const float* in, float* out)
{
  auto warp  = cg::tiled_partition<32>(cg::this_thread_block());
  auto group = cg::binary_partition(warp, in[GID] < 0.0f);
  out[GID]   = cg::reduce(group, in[GID], cg::greater<float>());
}

extern "C" __global__ void cg_binary_partition_ballot_t8(const int* in, unsigned* out)
{
  auto tile  = cg::tiled_partition<8>(cg::this_thread_block());
  auto group = cg::binary_partition(tile, (in[GID] & 16) != 0);
  out[GID]   = group.ballot((in[GID] & 1) != 0) | (group.num_threads() << 16);
}

// Partition a coalesced group again, by label.
extern "C" __global__ void cg_nested_partition_exclusive_scan(const int* in, int* out)
{
  int result = -1;
  if (in[GID] >= 0)
  {
    auto active = cg::coalesced_threads();
    auto group  = cg::labeled_partition(active, in[GID] & 1);
    result      = cg::exclusive_scan(group, in[GID] & 255, cg::plus<int>());
  }
  out[GID] = result;
}
