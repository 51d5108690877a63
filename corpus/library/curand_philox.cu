// cuRAND device API, Philox4_32_10 generator (curandStatePhilox4_32_10_t): state set-up with
// subsequences and offsets, skip-ahead, and every distribution the
// generator offers (bits, uniform, normal, log-normal, Poisson, in single
// and double precision). Generating kernels initialise their own state
// with curand_init(seed, global thread index, 0) and write per_thread
// results each to out[gid * per_thread + i] (pairs: 2 * per_thread).
#include <curand_kernel.h>

#define GID (blockIdx.x * blockDim.x + threadIdx.x)

extern "C" __global__ void philox_init_states(curandStatePhilox4_32_10_t* states, unsigned long long seed, unsigned long long offset)
{
  curand_init(seed, GID, offset, &states[GID]);
}

#define PHILOX_DRAW(NAME, T, EXPR)                                                        \
  extern "C" __global__ void NAME(T* out, unsigned long long seed, int per_thread)        \
  {                                                                                       \
    curandStatePhilox4_32_10_t state;                                                                    \
    curand_init(seed, GID, 0, &state);                                                    \
    for (int i = 0; i < per_thread; ++i)                                                  \
    {                                                                                     \
      out[GID * per_thread + i] = EXPR;                                                   \
    }                                                                                     \
  }

PHILOX_DRAW(philox_bits, unsigned, curand(&state))
PHILOX_DRAW(philox_uniform, float, curand_uniform(&state))
PHILOX_DRAW(philox_uniform_double, double, curand_uniform_double(&state))
PHILOX_DRAW(philox_normal, float, curand_normal(&state))
PHILOX_DRAW(philox_normal_double, double, curand_normal_double(&state))

extern "C" __global__ void philox_normal2(float* out, unsigned long long seed, int per_thread)
{
  curandStatePhilox4_32_10_t state;
  curand_init(seed, GID, 0, &state);
  for (int i = 0; i < per_thread; ++i)
  {
    float2 v                            = curand_normal2(&state);
    out[2 * (GID * per_thread + i)]     = v.x;
    out[2 * (GID * per_thread + i) + 1] = v.y;
  }
}

extern "C" __global__ void philox_normal2_double(double* out, unsigned long long seed, int per_thread)
{
  curandStatePhilox4_32_10_t state;
  curand_init(seed, GID, 0, &state);
  for (int i = 0; i < per_thread; ++i)
  {
    double2 v                           = curand_normal2_double(&state);
    out[2 * (GID * per_thread + i)]     = v.x;
    out[2 * (GID * per_thread + i) + 1] = v.y;
  }
}

extern "C" __global__ void philox_log_normal(float* out, unsigned long long seed, int per_thread, float mean, float stddev)
{
  curandStatePhilox4_32_10_t state;
  curand_init(seed, GID, 0, &state);
  for (int i = 0; i < per_thread; ++i)
  {
    out[GID * per_thread + i] = curand_log_normal(&state, mean, stddev);
  }
}

extern "C" __global__ void philox_log_normal_double(double* out, unsigned long long seed, int per_thread, double mean, double stddev)
{
  curandStatePhilox4_32_10_t state;
  curand_init(seed, GID, 0, &state);
  for (int i = 0; i < per_thread; ++i)
  {
    out[GID * per_thread + i] = curand_log_normal_double(&state, mean, stddev);
  }
}

extern "C" __global__ void philox_poisson(unsigned* out, unsigned long long seed, int per_thread, double lambda)
{
  curandStatePhilox4_32_10_t state;
  curand_init(seed, GID, 0, &state);
  for (int i = 0; i < per_thread; ++i)
  {
    out[GID * per_thread + i] = curand_poisson(&state, lambda);
  }
}

// The cheap set-up many programs use: a seed per thread, no subsequence.
extern "C" __global__ void philox_seed_per_thread_uniform(float* out, unsigned long long seed, int per_thread)
{
  curandStatePhilox4_32_10_t state;
  curand_init(seed + GID, 0, 0, &state);
  for (int i = 0; i < per_thread; ++i)
  {
    out[GID * per_thread + i] = curand_uniform(&state);
  }
}

// Skip `skip` draws, then `sequences` whole subsequences, before drawing.
extern "C" __global__ void philox_skipahead_uniform(float* out, unsigned long long seed, unsigned long long skip, unsigned long long sequences, int per_thread)
{
  curandStatePhilox4_32_10_t state;
  curand_init(seed, GID, 0, &state);
  skipahead(skip, &state);
  skipahead_sequence(sequences, &state);
  for (int i = 0; i < per_thread; ++i)
  {
    out[GID * per_thread + i] = curand_uniform(&state);
  }
}

// The usual two-kernel pattern: states live in global memory between launches.
extern "C" __global__ void philox_normal_from_states(curandStatePhilox4_32_10_t* states, float* out, int per_thread)
{
  curandStatePhilox4_32_10_t state = states[GID];
  for (int i = 0; i < per_thread; ++i)
  {
    out[GID * per_thread + i] = curand_normal(&state);
  }
  states[GID] = state;
}

// Philox produces four values per call: the vector forms.
extern "C" __global__ void philox_bits4(uint4* out, unsigned long long seed, int per_thread)
{
  curandStatePhilox4_32_10_t state;
  curand_init(seed, GID, 0, &state);
  for (int i = 0; i < per_thread; ++i)
  {
    out[GID * per_thread + i] = curand4(&state);
  }
}

extern "C" __global__ void philox_uniform4(float4* out, unsigned long long seed, int per_thread)
{
  curandStatePhilox4_32_10_t state;
  curand_init(seed, GID, 0, &state);
  for (int i = 0; i < per_thread; ++i)
  {
    out[GID * per_thread + i] = curand_uniform4(&state);
  }
}

extern "C" __global__ void philox_normal4(float4* out, unsigned long long seed, int per_thread)
{
  curandStatePhilox4_32_10_t state;
  curand_init(seed, GID, 0, &state);
  for (int i = 0; i < per_thread; ++i)
  {
    out[GID * per_thread + i] = curand_normal4(&state);
  }
}

extern "C" __global__ void philox_uniform2_double(double2* out, unsigned long long seed, int per_thread)
{
  curandStatePhilox4_32_10_t state;
  curand_init(seed, GID, 0, &state);
  for (int i = 0; i < per_thread; ++i)
  {
    out[GID * per_thread + i] = curand_uniform2_double(&state);
  }
}

extern "C" __global__ void philox_log_normal4(float4* out, unsigned long long seed, int per_thread, float mean, float stddev)
{
  curandStatePhilox4_32_10_t state;
  curand_init(seed, GID, 0, &state);
  for (int i = 0; i < per_thread; ++i)
  {
    out[GID * per_thread + i] = curand_log_normal4(&state, mean, stddev);
  }
}

extern "C" __global__ void philox_poisson4(uint4* out, unsigned long long seed, int per_thread, double lambda)
{
  curandStatePhilox4_32_10_t state;
  curand_init(seed, GID, 0, &state);
  for (int i = 0; i < per_thread; ++i)
  {
    out[GID * per_thread + i] = curand_poisson4(&state, lambda);
  }
}
