// The matrix multiply: out (h x w) = m (h x k) @ n (k x w), row-major float32, one thread per output.
// Launched with cdiv(w, 16) x cdiv(h, 16) blocks of 16 x 16. It works on square matrices... only there.
__global__ void matmul_k(float* m, float* n, float* out, int h, int w, int k) {
    int r = blockIdx.x*blockDim.x + threadIdx.x;
    int c = blockIdx.y*blockDim.y + threadIdx.y;

    if (r>=h || c>=w) return;
    float o = 0;
    for (int i = 0; i<k; ++i) o += m[r*k+i] * n[i*w+c];
    out[r*w+c] = o;
}
