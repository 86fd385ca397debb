// RGB to grayscale over the flattened image, one thread per pixel (the lecture's first kernel).
// x is planar C x H x W: pixel i reads x[i], x[i+n], x[i+2n]. Launched with cdiv(n, 256) blocks of 256.
// Something is missing: the last block reaches past the end of the image.
__global__ void rgb_to_grayscale_kernel(unsigned char* x, unsigned char* out, int n) {
    int i = blockIdx.x*blockDim.x + threadIdx.x;
    out[i] = 0.2989*x[i] + 0.5870*x[i+n] + 0.1140*x[i+2*n];
}
