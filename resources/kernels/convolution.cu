// 2-D convolution of the grayscale (as float) with a square mask of side 2r+1, ghost cells 0:
// out[row][col] = sum over i, j of mask[i][j] * in[row+i-r][col+j-r], i outer, j inner, one fmaf a term.
// Launch cdiv(w, 16) x cdiv(h, 16) blocks of 16 x 16.
__global__ void convolution_k(float* in, float* mask, float* out, int w, int h, int r) {
    int col = blockIdx.x*blockDim.x + threadIdx.x;
    int row = blockIdx.y*blockDim.y + threadIdx.y;
    if (col >= w || row >= h) return;

    int side = 2*r + 1;
    float acc = 0.0f;
    for (int i = 0; i < side; ++i)
        for (int j = 0; j < side; ++j) {
            int y = row + i - r, x = col + j - r;
            float v = (y >= 0 && y < h && x >= 0 && x < w) ? in[y*w + x] : 0.0f;
            acc = fmaf(mask[i*side + j], v, acc);
        }
    out[row*w + col] = acc;
}
