#include <cuda_runtime.h>

extern "C" __global__ void surf1d_copy_f32(cudaSurfaceObject_t src, cudaSurfaceObject_t dst, int n) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    if (x < n) {
        float v = surf1Dread<float>(src, x * 4);
        surf1Dwrite(v * 2.0f, dst, x * 4);
    }
}

extern "C" __global__ void surf2d_copy_u8(cudaSurfaceObject_t src, cudaSurfaceObject_t dst, int w, int h) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    unsigned char v = surf2Dread<unsigned char>(src, x, y, cudaBoundaryModeZero);
    surf2Dwrite<unsigned char>(v + 1, dst, x, y, cudaBoundaryModeZero);
}

extern "C" __global__ void surf2d_float4_clamp(cudaSurfaceObject_t src, cudaSurfaceObject_t dst) {
    int x = threadIdx.x, y = threadIdx.y;
    float4 v = surf2Dread<float4>(src, (x - 2) * 16, y - 1, cudaBoundaryModeClamp);
    surf2Dwrite(make_float4(v.w, v.z, v.y, v.x), dst, x * 16, y, cudaBoundaryModeTrap);
}

extern "C" __global__ void surf2d_short2_trap(cudaSurfaceObject_t src, cudaSurfaceObject_t dst) {
    int x = threadIdx.x, y = threadIdx.y;
    short2 v = surf2Dread<short2>(src, x * 4, y);
    surf2Dwrite(make_short2(v.y, v.x), dst, x * 4, y);
}

extern "C" __global__ void surf3d_int2(cudaSurfaceObject_t src, cudaSurfaceObject_t dst) {
    int x = threadIdx.x, y = threadIdx.y, z = threadIdx.z;
    int2 v = surf3Dread<int2>(src, x * 8, y, z, cudaBoundaryModeZero);
    surf3Dwrite(make_int2(v.x + z, v.y - y), dst, x * 8, y, z, cudaBoundaryModeClamp);
}

extern "C" __global__ void surf1d_longlong2(cudaSurfaceObject_t src, cudaSurfaceObject_t dst) {
    int x = threadIdx.x;
    longlong2 v = surf1Dread<longlong2>(src, x * 16, cudaBoundaryModeClamp);
    surf1Dwrite(make_longlong2(v.y + 1, v.x), dst, x * 16, cudaBoundaryModeZero);
}

extern "C" __global__ void surf1d_u64(cudaSurfaceObject_t src, cudaSurfaceObject_t dst) {
    int x = threadIdx.x;
    unsigned long long v = surf1Dread<unsigned long long>(src, x * 8, cudaBoundaryModeZero);
    surf1Dwrite(v * 3ull, dst, x * 8, cudaBoundaryModeTrap);
}

extern "C" __global__ void surf1d_ushort4(cudaSurfaceObject_t src, cudaSurfaceObject_t dst) {
    int x = threadIdx.x;
    ushort4 v = surf1Dread<ushort4>(src, x * 8);
    surf1Dwrite(make_ushort4(v.w, v.z, v.y, v.x), dst, x * 8);
}

extern "C" __global__ void surf2d_layered_f32(cudaSurfaceObject_t src, cudaSurfaceObject_t dst, int layer) {
    int x = threadIdx.x, y = threadIdx.y;
    float v = surf2DLayeredread<float>(src, x * 4, y, layer);
    surf2DLayeredwrite(v + 1.0f, dst, x * 4, y, layer);
}

extern "C" __global__ void surf1d_layered_u32(cudaSurfaceObject_t src, cudaSurfaceObject_t dst, int layer) {
    int x = threadIdx.x;
    unsigned v = surf1DLayeredread<unsigned>(src, x * 4, layer, cudaBoundaryModeClamp);
    surf1DLayeredwrite(v ^ 0x55u, dst, x * 4, layer, cudaBoundaryModeClamp);
}
