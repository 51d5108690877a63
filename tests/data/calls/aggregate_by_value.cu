struct Big { int a[10]; };
struct Pair { double x; long long y; int z; };
__device__ __noinline__ int sum_big(Big b, int k) { int s = k; for (int i = 0; i < 10; i++) s += b.a[i] * (i + 1); return s; }
__device__ __noinline__ Pair make_pair(int v) { Pair p; p.x = v * 0.5; p.y = (long long)v << 33; p.z = v + 7; return p; }
extern "C" __global__ void aggregate_by_value(const int* in, long long* out) {
  int t = threadIdx.x;
  Big b; for (int i = 0; i < 10; i++) b.a[i] = in[t * 10 + i];
  Pair p = make_pair(in[t]);
  out[t * 4 + 0] = sum_big(b, t);
  out[t * 4 + 1] = (long long)p.x;
  out[t * 4 + 2] = p.y;
  out[t * 4 + 3] = p.z;
}
