#include <cuda_runtime.h>

// Texture and surface queries through inline PTX: CUDA C++ has no
// intrinsic for them, so code that needs a texture's size asks the
// hardware with txq/suq as below.
__device__ int tex_width(cudaTextureObject_t t) {
    int w; asm("txq.width.b32 %0, [%1];" : "=r"(w) : "l"(t)); return w;
}
__device__ int tex_height(cudaTextureObject_t t) {
    int h; asm("txq.height.b32 %0, [%1];" : "=r"(h) : "l"(t)); return h;
}
__device__ int tex_depth(cudaTextureObject_t t) {
    int d; asm("txq.depth.b32 %0, [%1];" : "=r"(d) : "l"(t)); return d;
}
__device__ int surf_width(cudaSurfaceObject_t s) {
    int w; asm("suq.width.b32 %0, [%1];" : "=r"(w) : "l"(s)); return w;
}
__device__ int surf_height(cudaSurfaceObject_t s) {
    int h; asm("suq.height.b32 %0, [%1];" : "=r"(h) : "l"(s)); return h;
}

extern "C" __global__ void query_sizes(cudaTextureObject_t t, cudaSurfaceObject_t s, int *out) {
    out[0] = tex_width(t);
    out[1] = tex_height(t);
    out[2] = tex_depth(t);
    out[3] = surf_width(s);
    out[4] = surf_height(s);
}

extern "C" __global__ void normalize_by_size(cudaTextureObject_t t, float *out) {
    int w = tex_width(t), h = tex_height(t);
    int x = threadIdx.x, y = threadIdx.y;
    out[y * blockDim.x + x] = tex2D<float>(t, (x + 0.5f) / w, (y + 0.5f) / h);
}

extern "C" __global__ void surf_fill_whole(cudaSurfaceObject_t s, int value) {
    int w = surf_width(s) / 4, h = surf_height(s);
    for (int y = threadIdx.y; y < h; y += blockDim.y)
        for (int x = threadIdx.x; x < w; x += blockDim.x)
            surf2Dwrite(value + x + y, s, x * 4, y);
}
