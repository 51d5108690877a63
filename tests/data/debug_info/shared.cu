extern "C" __global__ void fill(float *out)
{
    __shared__ double total;
    __shared__ int table[7];
    __shared__ short small[3];
    int t = threadIdx.x;
    small[t % 3] = t;
    table[t % 7] = t;
    if (t == 0) total = 1.5;
    __syncthreads();
    out[t] = total + table[(t + 1) % 7] + small[(t + 1) % 3];
}
