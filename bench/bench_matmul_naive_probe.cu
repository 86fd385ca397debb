// bench_matmul_naive_probe (issue 27): prints figures, never a pass/fail.
// Why is the built-in matmul_naive 12-15% slower at 4096^3 than the same arithmetic from NVRTC?
// (a) plain, (b) __launch_bounds__(1024) as the built-in, each on cudaMalloc buffers and on buffers
// mapped by cuMemCreate in 2 MiB granules (as the user-kernel runner places them).
#include <cuda.h>
#include <cuda_runtime.h>
#include <cstdio>
#include <vector>
#include <algorithm>
template <int LB>
__global__ void __launch_bounds__(LB) naive_lb(const float* a, const float* b, float* c, unsigned h, unsigned w, unsigned k) {
    unsigned long long r = blockIdx.y * blockDim.y + threadIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= h || col >= w) return;
    float acc = 0.0f;
    for (unsigned i = 0; i < k; ++i) acc = fmaf(a[r * k + i], b[(unsigned long long)i * w + col], acc);
    c[r * w + col] = acc;
}
__global__ void naive_plain(const float* a, const float* b, float* c, unsigned h, unsigned w, unsigned k) {
    unsigned long long r = blockIdx.y * blockDim.y + threadIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= h || col >= w) return;
    float acc = 0.0f;
    for (unsigned i = 0; i < k; ++i) acc = fmaf(a[r * k + i], b[(unsigned long long)i * w + col], acc);
    c[r * w + col] = acc;
}
static float* mapped(size_t bytes) {
    CUmemAllocationProp prop = {};
    prop.type = CU_MEM_ALLOCATION_TYPE_PINNED; prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE; prop.location.id = 0;
    size_t g = 0; cuMemGetAllocationGranularity(&g, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM);
    size_t sz = (bytes + g - 1) / g * g;
    CUdeviceptr p; cuMemAddressReserve(&p, sz + 2 * g, 0, 0, 0);
    CUmemGenericAllocationHandle hdl; cuMemCreate(&hdl, sz, &prop, 0);
    cuMemMap(p + g, sz, 0, hdl, 0);
    CUmemAccessDesc acc = {}; acc.location = prop.location; acc.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
    cuMemSetAccess(p + g, sz, &acc, 1);
    return (float*)(p + g);
}
template <class F> float time_it(F launch) {
    cudaEvent_t s, e; cudaEventCreate(&s); cudaEventCreate(&e);
    for (int i = 0; i < 3; ++i) launch();
    std::vector<float> t;
    for (int i = 0; i < 15; ++i) { cudaEventRecord(s); launch(); cudaEventRecord(e); cudaEventSynchronize(e); float ms; cudaEventElapsedTime(&ms, s, e); t.push_back(ms); }
    std::sort(t.begin(), t.end()); return t[t.size() / 2];
}
int main() {
    cudaFree(0);
    for (unsigned n : {2048u, 4096u}) {
        size_t bytes = size_t(n) * n * 4;
        std::vector<float> host(size_t(n) * n); for (size_t i = 0; i < host.size(); ++i) host[i] = float(i % 97) / 97.f;
        float *a, *b, *c; cudaMalloc(&a, bytes); cudaMalloc(&b, bytes); cudaMalloc(&c, bytes);
        float *ma = mapped(bytes), *mb = mapped(bytes), *mc = mapped(bytes);
        for (float* p : {a, b, ma, mb}) cudaMemcpy(p, host.data(), bytes, cudaMemcpyHostToDevice);
        dim3 blk(16, 16), grid((n + 15) / 16, (n + 15) / 16);
        struct { const char* name; float *a, *b, *c; } bufs[] = {{"cudaMalloc", a, b, c}, {"cuMemCreate 2MiB", ma, mb, mc}};
        for (auto& B : bufs) {
            float tp = time_it([&] { naive_plain<<<grid, blk>>>(B.a, B.b, B.c, n, n, n); });
            float tl = time_it([&] { naive_lb<1024><<<grid, blk>>>(B.a, B.b, B.c, n, n, n); });
            float t256 = time_it([&] { naive_lb<256><<<grid, blk>>>(B.a, B.b, B.c, n, n, n); });
            printf("%u^3 %-17s plain %8.3f ms   launch_bounds(1024) %8.3f ms   launch_bounds(256) %8.3f ms  (%s)\n", n, B.name, tp, tl, t256,
                   cudaGetErrorString(cudaGetLastError()));
        }
        cudaFuncAttributes fa; cudaFuncGetAttributes(&fa, naive_plain); printf("plain regs %d; ", fa.numRegs);
        cudaFuncGetAttributes(&fa, naive_lb<1024>); printf("lb1024 regs %d; ", fa.numRegs);
        cudaFuncGetAttributes(&fa, naive_lb<256>); printf("lb256 regs %d\n", fa.numRegs);
    }
}
