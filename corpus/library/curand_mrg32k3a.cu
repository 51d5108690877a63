// cuRAND device API, MRG32k3a generator (curandStateMRG32k3a_t): state set-up with
// subsequences and offsets, skip-ahead, and every distribution the
// generator offers (bits, uniform, normal, log-normal, Poisson, in single
// and double precision). Generating kernels initialise their own state
// with curand_init(seed, global thread index, 0) and write per_thread
// results each to out[gid * per_thread + i] (pairs: 2 * per_thread).
#include <curand_kernel.h>

#define GID (blockIdx.x * blockDim.x + threadIdx.x)

extern "C" __global__ void mrg32k3a_init_states(curandStateMRG32k3a_t* states, unsigned long long seed, unsigned long long offset)
{
  curand_init(seed, GID, offset, &states[GID]);
}

#define MRG32K3A_DRAW(NAME, T, EXPR)                                                        \
  extern "C" __global__ void NAME(T* out, unsigned long long seed, int per_thread)        \
  {                                                                                       \
    curandStateMRG32k3a_t state;                                                                    \
    curand_init(seed, GID, 0, &state);                                                    \
    for (int i = 0; i < per_thread; ++i)                                                  \
    {                                                                                     \
      out[GID * per_thread + i] = EXPR;                                                   \
    }                                                                                     \
  }

MRG32K3A_DRAW(mrg32k3a_bits, unsigned, curand(&state))
MRG32K3A_DRAW(mrg32k3a_uniform, float, curand_uniform(&state))
MRG32K3A_DRAW(mrg32k3a_uniform_double, double, curand_uniform_double(&state))
MRG32K3A_DRAW(mrg32k3a_normal, float, curand_normal(&state))
MRG32K3A_DRAW(mrg32k3a_normal_double, double, curand_normal_double(&state))

extern "C" __global__ void mrg32k3a_normal2(float* out, unsigned long long seed, int per_thread)
{
  curandStateMRG32k3a_t state;
  curand_init(seed, GID, 0, &state);
  for (int i = 0; i < per_thread; ++i)
  {
    float2 v                            = curand_normal2(&state);
    out[2 * (GID * per_thread + i)]     = v.x;
    out[2 * (GID * per_thread + i) + 1] = v.y;
  }
}

extern "C" __global__ void mrg32k3a_normal2_double(double* out, unsigned long long seed, int per_thread)
{
  curandStateMRG32k3a_t state;
  curand_init(seed, GID, 0, &state);
  for (int i = 0; i < per_thread; ++i)
  {
    double2 v                           = curand_normal2_double(&state);
    out[2 * (GID * per_thread + i)]     = v.x;
    out[2 * (GID * per_thread + i) + 1] = v.y;
  }
}

extern "C" __global__ void mrg32k3a_log_normal(float* out, unsigned long long seed, int per_thread, float mean, float stddev)
{
  curandStateMRG32k3a_t state;
  curand_init(seed, GID, 0, &state);
  for (int i = 0; i < per_thread; ++i)
  {
    out[GID * per_thread + i] = curand_log_normal(&state, mean, stddev);
  }
}

extern "C" __global__ void mrg32k3a_log_normal_double(double* out, unsigned long long seed, int per_thread, double mean, double stddev)
{
  curandStateMRG32k3a_t state;
  curand_init(seed, GID, 0, &state);
  for (int i = 0; i < per_thread; ++i)
  {
    out[GID * per_thread + i] = curand_log_normal_double(&state, mean, stddev);
  }
}

extern "C" __global__ void mrg32k3a_poisson(unsigned* out, unsigned long long seed, int per_thread, double lambda)
{
  curandStateMRG32k3a_t state;
  curand_init(seed, GID, 0, &state);
  for (int i = 0; i < per_thread; ++i)
  {
    out[GID * per_thread + i] = curand_poisson(&state, lambda);
  }
}

// The cheap set-up many programs use: a seed per thread, no subsequence.
extern "C" __global__ void mrg32k3a_seed_per_thread_uniform(float* out, unsigned long long seed, int per_thread)
{
  curandStateMRG32k3a_t state;
  curand_init(seed + GID, 0, 0, &state);
  for (int i = 0; i < per_thread; ++i)
  {
    out[GID * per_thread + i] = curand_uniform(&state);
  }
}

// Skip `skip` draws, then `sequences` whole subsequences, before drawing.
extern "C" __global__ void mrg32k3a_skipahead_uniform(float* out, unsigned long long seed, unsigned long long skip, unsigned long long sequences, int per_thread)
{
  curandStateMRG32k3a_t state;
  curand_init(seed, GID, 0, &state);
  skipahead(skip, &state);
  skipahead_sequence(sequences, &state);
  for (int i = 0; i < per_thread; ++i)
  {
    out[GID * per_thread + i] = curand_uniform(&state);
  }
}

// The usual two-kernel pattern: states live in global memory between launches.
extern "C" __global__ void mrg32k3a_normal_from_states(curandStateMRG32k3a_t* states, float* out, int per_thread)
{
  curandStateMRG32k3a_t state = states[GID];
  for (int i = 0; i < per_thread; ++i)
  {
    out[GID * per_thread + i] = curand_normal(&state);
  }
  states[GID] = state;
}
