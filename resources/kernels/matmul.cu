// The lecture's matrix multiply: out (h x w) = m (h x k) @ n (k x w), row-major float32.
// One thread per output: row r from y, column c from x; launch cdiv(w, 16) x cdiv(h, 16) blocks of 16 x 16.
__global__ void matmul_k(float* m, float* n, float* out, int h, int w, int k) {
    int r = blockIdx.y*blockDim.y + threadIdx.y;
    int c = blockIdx.x*blockDim.x + threadIdx.x;

    if (r>=h || c>=w) return;
    float o = 0;
    for (int i = 0; i<k; ++i) o += m[r*k+i] * n[i*w+c];
    out[r*w+c] = o;
}
