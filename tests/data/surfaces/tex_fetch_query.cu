#include <cuda_runtime.h>

extern "C" __global__ void tex1dfetch_f32(cudaTextureObject_t t, float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex1Dfetch<float>(t, i) + 1.0f;
}

extern "C" __global__ void tex1dfetch_int4(cudaTextureObject_t t, int4 *out) {
    int i = threadIdx.x;
    out[i] = tex1Dfetch<int4>(t, i);
}

extern "C" __global__ void tex2d_sum(cudaTextureObject_t t, float *out, int w, int h) {
    float s = 0.0f;
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
            s += tex2D<float>(t, x + 0.5f, y + 0.5f);
    out[threadIdx.x] = s;
}
