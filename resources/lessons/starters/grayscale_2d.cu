// RGB to grayscale on a 2-D grid: one thread per pixel, column from x, row from y, guarded on both.
// x is planar C x H x W; launched with cdiv(w, 16) x cdiv(h, 16) blocks of 16 x 16.
__global__ void rgb_to_grayscale_2d(unsigned char* x, unsigned char* out, int w, int h) {
    int c = threadIdx.x;  // TODO: the column over the whole image, not within the block
    int r = threadIdx.y;  // TODO: the row likewise
    if (c<w && r<h) {
        int i = r*w + c;
        int n = w*h;
        out[i] = 0.2989*x[i] + 0.5870*x[i+n] + 0.1140*x[i+2*n];
    }
}
