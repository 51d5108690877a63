struct Big { int a[10]; };
struct Pair { double x; long long y; int z; };
__device__ __noinline__ Pair walk(Big b, int depth) {
  if (depth <= 0) { Pair p; p.x = b.a[0] * 0.5; p.y = (long long)b.a[9] << 20; p.z = b.a[3]; return p; }
  b.a[depth % 10] += depth * b.a[(depth + 3) % 10];
  Pair q = walk(b, depth - 1);
  q.z = q.z * 3 + b.a[depth % 10];
  q.y ^= (long long)q.z << 7;
  return q;
}
extern "C" __global__ void aggregate_by_value_recursive(const int* in, long long* out) {
  int t = threadIdx.x;
  Big b; for (int i = 0; i < 10; i++) b.a[i] = in[t * 10 + i];
  Pair p = walk(b, t % 5 + 1);
  out[t * 3 + 0] = (long long)p.x;
  out[t * 3 + 1] = p.y;
  out[t * 3 + 2] = p.z;
}
