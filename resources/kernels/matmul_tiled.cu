// The shared-memory tiled matrix multiply: each block stages a TW x TW tile of m and of n per phase,
// waits for the whole tile (__syncthreads), multiplies it, and waits again before the next phase.
// The block must be TW x TW threads.
#define TW 16

__global__ void matmul_tiled_k(float* m, float* n, float* out, int h, int w, int k) {
    int tc = threadIdx.x, tr = threadIdx.y;
    int r = blockIdx.y*blockDim.y + tr, c = blockIdx.x*blockDim.x + tc;

    __shared__ float ms[TW][TW];
    __shared__ float ns[TW][TW];

    float p = 0.0f;
    for (int ph = 0; ph < (k+TW-1)/TW; ++ph) {
        int idx = ph*TW;
        ms[tr][tc] = ((r<h) && (idx+tc<k)) ? m[tc+idx + r*k] : 0.0f;
        ns[tr][tc] = ((c<w) && (idx+tr<k)) ? n[(tr+idx)*w + c] : 0.0f;
        __syncthreads();
        for (int i=0; i<TW; ++i) p += ms[tr][i] * ns[i][tc];
        __syncthreads();
    }
    if ((r<h) && (c<w)) out[r*w + c] = p;
}
