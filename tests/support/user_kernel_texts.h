#pragma once
// The CUDA C++ texts that the GPU user-kernel programs (tst_user_kernel_gpu, bench_user_kernel_gpu,
// ncu_compare --user) compile as a learner's: the lecture's kernel files as pasted
// (resources/kernels/*.cu), and user copies of built-ins, whose bytes and figures are set beside the
// built-ins'. Plain C++: the benchmark programs include it too.
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

namespace test {

// A user copy of the built-in gray_2d: interleaved RGB, the built-in's float fused multiply-adds.
// The kernel stands on line 2.
inline const char* const kGray2dCopy = R"(// one thread per pixel, 2-D
__global__ void gray_2d(const unsigned char* rgb, unsigned char* gray, int w, int h) {
    int c = blockIdx.x*blockDim.x + threadIdx.x;
    int r = blockIdx.y*blockDim.y + threadIdx.y;
    if (c >= w || r >= h) return;
    int i = r*w + c;
    float acc = 0.2989f * rgb[3*i];
    acc = fmaf(0.5870f, rgb[3*i+1], acc);
    acc = fmaf(0.1140f, rgb[3*i+2], acc);
    gray[i] = (unsigned char)acc;
}
)";

// A user copy of the built-in matmul_naive (explicit fmaf, as the built-in), on line 1.
inline const char* const kMatmulNaiveCopy = R"(__global__ void matmul_naive(const float* a, const float* b, float* c, int h, int w, int k) {
    int r = blockIdx.y*blockDim.y + threadIdx.y;
    int col = blockIdx.x*blockDim.x + threadIdx.x;
    if (r >= h || col >= w) return;
    float acc = 0.0f;
    for (int i = 0; i < k; ++i) acc = fmaf(a[r*k + i], b[i*w + col], acc);
    c[r*w + col] = acc;
}
)";

// The same copy with the built-in's 64-bit index arithmetic (kernels/matmul/matmul_body.h: row, column
// and the indices of A and B in 64 bits), so that its time on the GPU compares like with like: the
// lecture's `int` indices let the compiler step both pointers, which is faster at 4096^3.
inline const char* const kMatmulNaiveCopyWide = R"(__global__ void matmul_naive(const float* a, const float* b, float* c, int h, int w, int k) {
    unsigned long long r = blockIdx.y*blockDim.y + threadIdx.y;
    unsigned long long col = blockIdx.x*blockDim.x + threadIdx.x;
    if (r >= (unsigned long long)h || col >= (unsigned long long)w) return;
    float acc = 0.0f;
    for (unsigned int i = 0; i < (unsigned int)k; ++i) acc = fmaf(a[r*k + i], b[(unsigned long long)i*w + col], acc);
    c[r*w + col] = acc;
}
)";

// The lecture's kernel files: the source tree's resources/kernels (CUDAVIZ_SOURCE_DIR, defined by the
// program's target), or $CUDAVIZ_KERNELS_DIR where the program runs away from it (the GPU machine).
inline std::string lecture_kernels_dir() {
    const char* env = std::getenv("CUDAVIZ_KERNELS_DIR");
    return env && *env ? std::string(env) : std::string(CUDAVIZ_SOURCE_DIR "/resources/kernels");
}

// The text of the file at `path` (a lecture's kernel: lecture_kernels_dir() + "/grayscale_1d.cu"); false,
// and "cannot read PATH" in *error, when it cannot be read.
inline bool read_kernel_file(const std::string& path, std::string* text, std::string* error) {
    std::ifstream f(path, std::ios::binary);
    std::ostringstream s;
    s << f.rdbuf();
    if (!f) {
        *error = "cannot read " + path;
        return false;
    }
    *text = s.str();
    return true;
}

// The lecture's kernel file `name` (e.g. "matmul.cu") as its text; empty when it cannot be read, which
// the tests' compiles then report.
inline std::string lecture_kernel(const char* name) {
    std::string text, error;
    return read_kernel_file(lecture_kernels_dir() + "/" + name, &text, &error) ? text : std::string();
}

}  // namespace test
