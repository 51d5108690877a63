// CUB DeviceScan: inclusive and exclusive prefix sums and scans under
// other operators, scans with an initial value, in-place scans, and scans
// by key. Host functions call the device-wide dispatch so that nvcc emits
// the tile-state initialisation and decoupled look-back scan kernels for
// each instantiation; nothing calls them.
#include <cub/device/device_scan.cuh>
#include <cuda/functional>

#define SCAN_SUM(NAME, T, CALL)                                                           \
  cudaError_t NAME(void* temp, size_t& bytes, const T* in, T* out, int n, cudaStream_t s) \
  {                                                                                       \
    return cub::DeviceScan::CALL(temp, bytes, in, out, n, s);                             \
  }

SCAN_SUM(exclusive_sum_i32, int, ExclusiveSum)
SCAN_SUM(exclusive_sum_u64, unsigned long long, ExclusiveSum)
SCAN_SUM(exclusive_sum_f64, double, ExclusiveSum)
SCAN_SUM(inclusive_sum_i32, int, InclusiveSum)
SCAN_SUM(inclusive_sum_f32, float, InclusiveSum)
SCAN_SUM(inclusive_sum_u8, unsigned char, InclusiveSum)

// Counting bytes into 32-bit totals: the output type is wider than the input.
cudaError_t inclusive_sum_u8_to_u32(void* temp, size_t& bytes, const unsigned char* in, unsigned* out, int n, cudaStream_t s)
{
  return cub::DeviceScan::InclusiveSum(temp, bytes, in, out, n, s);
}

cudaError_t inclusive_sum_in_place_i64(void* temp, size_t& bytes, long long* data, long long n, cudaStream_t s)
{
  return cub::DeviceScan::InclusiveSum(temp, bytes, data, n, s);
}

cudaError_t exclusive_scan_max_i32(void* temp, size_t& bytes, const int* in, int* out, int n, cudaStream_t s)
{
  return cub::DeviceScan::ExclusiveScan(temp, bytes, in, out, cuda::maximum<>{}, -2147483647 - 1, n, s);
}

cudaError_t exclusive_scan_mul_f64(void* temp, size_t& bytes, const double* in, double* out, int n, cudaStream_t s)
{
  return cub::DeviceScan::ExclusiveScan(temp, bytes, in, out, cuda::std::multiplies<>{}, 1.0, n, s);
}

cudaError_t inclusive_scan_min_f32(void* temp, size_t& bytes, const float* in, float* out, int n, cudaStream_t s)
{
  return cub::DeviceScan::InclusiveScan(temp, bytes, in, out, cuda::minimum<>{}, n, s);
}

cudaError_t inclusive_scan_init_xor_u32(void* temp, size_t& bytes, const unsigned* in, unsigned* out, int n, cudaStream_t s)
{
  return cub::DeviceScan::InclusiveScanInit(temp, bytes, in, out, cuda::std::bit_xor<>{}, 0x5a5a5a5au, n, s);
}

// A scan with a user-defined associative operator on a pair type:
// running (count, sum) pairs.
struct CountSum
{
  int count;
  float sum;
};

struct AddCountSum
{
  __host__ __device__ CountSum operator()(const CountSum& a, const CountSum& b) const
  {
    return CountSum{a.count + b.count, a.sum + b.sum};
  }
};

cudaError_t inclusive_scan_count_sum(void* temp, size_t& bytes, const CountSum* in, CountSum* out, int n, cudaStream_t s)
{
  return cub::DeviceScan::InclusiveScan(temp, bytes, in, out, AddCountSum{}, n, s);
}

cudaError_t inclusive_sum_by_key_i32(
  void* temp, size_t& bytes, const int* keys, const int* in, int* out, int n, cudaStream_t s)
{
  return cub::DeviceScan::InclusiveSumByKey(temp, bytes, keys, in, out, n, cuda::std::equal_to<>{}, s);
}

cudaError_t exclusive_sum_by_key_u64_f32(
  void* temp, size_t& bytes, const unsigned long long* keys, const float* in, float* out, int n, cudaStream_t s)
{
  return cub::DeviceScan::ExclusiveSumByKey(temp, bytes, keys, in, out, n, cuda::std::equal_to<>{}, s);
}

cudaError_t exclusive_scan_by_key_max_i32(
  void* temp, size_t& bytes, const unsigned* keys, const int* in, int* out, int n, cudaStream_t s)
{
  return cub::DeviceScan::ExclusiveScanByKey(temp, bytes, keys, in, out, cuda::maximum<>{}, 0, n, cuda::std::equal_to<>{}, s);
}
