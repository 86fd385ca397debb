// The shared-memory tiled matrix multiply: out (h x w) = m (h x k) @ n (k x w), row-major float32.
// Each block stages a TW x TW tile of m and of n per phase in shared memory, waits for the whole
// tile, multiplies it, and waits again before the next phase. The block must be TW x TW threads.
#define TW 16

__global__ void matmul_tiled_k(float* m, float* n, float* out, int h, int w, int k) {
    int tc = threadIdx.x, tr = threadIdx.y;
    int r = blockIdx.y*blockDim.y + tr, c = blockIdx.x*blockDim.x + tc;

    __shared__ float ms[TW][TW];
    __shared__ float ns[TW][TW];

    float p = 0.0f;
    for (int ph = 0; ph < (k+TW-1)/TW; ++ph) {
        int idx = ph*TW;
        // TODO: load this thread's element of the tile of m (row r, column idx+tc) into ms[tr][tc]
        // and of the tile of n (row idx+tr, column c) into ns[tr][tc]; 0 outside the matrices.
        __syncthreads();
        for (int i=0; i<TW; ++i) p += ms[tr][i] * ns[i][tc];
        __syncthreads();
    }
    if ((r<h) && (c<w)) out[r*w + c] = p;
}
