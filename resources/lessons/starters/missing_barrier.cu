// The tiled matrix multiply, but one barrier is missing: a fast thread starts loading the next tile
// while its neighbours still multiply the current one.
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
    }
    if ((r<h) && (c<w)) out[r*w + c] = p;
}
