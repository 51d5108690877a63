// Calls through function pointers, with scalars and with structs by value.
struct Big { int a[10]; };
struct Pair { double x; long long y; int z; };
typedef int (*op_t)(int, int);
typedef Pair (*fold_t)(Big, int);
__device__ __noinline__ int add_op(int a, int b) { return a + b; }
__device__ __noinline__ int mul_op(int a, int b) { return a * b + 1; }
__device__ __noinline__ Pair fold_sum(Big b, int k) { Pair p; p.x = 0.25 * k; p.y = 0; p.z = k; for (int i = 0; i < 10; i++) { p.y += (long long)b.a[i] << i; p.z ^= b.a[i]; } return p; }
__device__ __noinline__ Pair fold_max(Big b, int k) { Pair p; p.x = -1.5 * k; p.y = b.a[0]; p.z = k; for (int i = 1; i < 10; i++) { if (b.a[i] > p.y) p.y = b.a[i]; p.z += b.a[i] * i; } return p; }
extern "C" __global__ void function_pointer(const int* in, long long* out) {
  int t = threadIdx.x;
  op_t f = (in[t] & 1) ? add_op : mul_op;
  fold_t g = (in[t] & 2) ? fold_sum : fold_max;
  Big b; for (int i = 0; i < 10; i++) b.a[i] = in[(t * 10 + i) % 320];
  Pair p = g(b, t);
  out[t * 4 + 0] = f(in[t], t);
  out[t * 4 + 1] = (long long)(p.x * 4.0);
  out[t * 4 + 2] = p.y;
  out[t * 4 + 3] = p.z;
}
