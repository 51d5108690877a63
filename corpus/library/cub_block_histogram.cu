// CUB BlockHistogram: sort-based and atomic-based block histograms over
// 8-, 16- and 32-bit samples, for several bin counts. Samples are reduced
// mod BINS: any unsigned input is valid, signed ones must be nonnegative
// (C++'s % of a negative sample is negative; the launch specs give such). Each block bins its tile of
// THREADS * ITEMS samples and writes BINS counters to out[blockIdx.x * BINS].
#include <cub/block/block_histogram.cuh>

template <typename S, int THREADS, int ITEMS, int BINS, cub::BlockHistogramAlgorithm ALG>
__device__ __forceinline__ void block_histogram_body(const S* samples, unsigned* out)
{
  using Histogram = cub::BlockHistogram<S, THREADS, ITEMS, BINS, ALG>;
  __shared__ typename Histogram::TempStorage storage;
  __shared__ unsigned bins[BINS];
  S items[ITEMS];
  const int base = blockIdx.x * THREADS * ITEMS + threadIdx.x * ITEMS;
  for (int i = 0; i < ITEMS; ++i)
  {
    items[i] = static_cast<S>(samples[base + i] % BINS);
  }
  Histogram(storage).Histogram(items, bins);
  __syncthreads();
  for (int b = threadIdx.x; b < BINS; b += THREADS)
  {
    out[blockIdx.x * BINS + b] = bins[b];
  }
}

#define BLOCK_HISTOGRAM(NAME, S, THREADS, ITEMS, BINS)                                              \
  extern "C" __global__ void __launch_bounds__(THREADS) NAME##_sort(const S* samples, unsigned* out) \
  {                                                                                                 \
    block_histogram_body<S, THREADS, ITEMS, BINS, cub::BLOCK_HISTO_SORT>(samples, out);             \
  }                                                                                                 \
  extern "C" __global__ void __launch_bounds__(THREADS) NAME##_atomic(const S* samples, unsigned* out) \
  {                                                                                                 \
    block_histogram_body<S, THREADS, ITEMS, BINS, cub::BLOCK_HISTO_ATOMIC>(samples, out);           \
  }

BLOCK_HISTOGRAM(block_histogram_u8_256bins_128x4, unsigned char, 128, 4, 256)
BLOCK_HISTOGRAM(block_histogram_u8_64bins_256x2, unsigned char, 256, 2, 64)
BLOCK_HISTOGRAM(block_histogram_u16_512bins_128x8, unsigned short, 128, 8, 512)
BLOCK_HISTOGRAM(block_histogram_u32_32bins_64x4, unsigned, 64, 4, 32)
BLOCK_HISTOGRAM(block_histogram_i32_100bins_96x1, int, 96, 1, 100)

// Two calls composite into the same counters: the block bins two tiles.
extern "C" __global__ void block_histogram_composite_u8_256bins_128x2(const unsigned char* samples, unsigned* out)
{
  using Histogram = cub::BlockHistogram<unsigned char, 128, 2, 256>;
  __shared__ Histogram::TempStorage storage;
  __shared__ unsigned bins[256];
  Histogram histogram(storage);
  histogram.InitHistogram(bins);
  __syncthreads();
  for (int tile = 0; tile < 2; ++tile)
  {
    unsigned char items[2];
    const int base = (blockIdx.x * 2 + tile) * 256 + threadIdx.x * 2;
    items[0] = samples[base];
    items[1] = samples[base + 1];
    histogram.Composite(items, bins);
    __syncthreads();
  }
  for (int b = threadIdx.x; b < 256; b += 128)
  {
    out[blockIdx.x * 256 + b] = bins[b];
  }
}
