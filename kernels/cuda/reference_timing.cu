// The ladder's ceilings on the GPU: a device-to-device copy and cuBLAS SGEMM (loaded with dlopen).
#include <dlfcn.h>

#include <string>

#include "cuda_check.h"
#include "cuda_stream.h"
#include "device_buffer.h"
#include "launch_timer.h"
#include "reference_timing.h"

namespace cvz {

namespace {

// The few cuBLAS entry points the reference needs, with their C signatures (cublas_api.h), so that
// nothing here links against cuBLAS: a handle is an opaque pointer, the enums plain ints.
struct CublasApi {
    using Create = int (*)(void** handle);
    using Destroy = int (*)(void* handle);
    using SetStream = int (*)(void* handle, cudaStream_t stream);
    using SetMathMode = int (*)(void* handle, int mode);
    using Sgemm = int (*)(void* handle, int transa, int transb, int m, int n, int k, const float* alpha, const float* a,
                          int lda, const float* b, int ldb, const float* beta, float* c, int ldc);
    Create create = nullptr;
    Destroy destroy = nullptr;
    SetStream set_stream = nullptr;
    SetMathMode set_math_mode = nullptr;
    Sgemm sgemm = nullptr;
    std::string error;  // why it could not be loaded

    static constexpr int kOpN = 0;             // CUBLAS_OP_N
    static constexpr int kDefaultMath = 0;     // CUBLAS_DEFAULT_MATH: fp32, no TF32
};

const CublasApi& cublas_api() {
    static const CublasApi api = [] {
        CublasApi out;
        void* lib = nullptr;
        for (const char* name : {"libcublas.so.13", "libcublas.so.12", "libcublas.so"})
            if ((lib = dlopen(name, RTLD_NOW | RTLD_LOCAL))) break;
        if (!lib) {
            out.error = "cuBLAS (libcublas.so) was not found; the SGEMM reference cannot be timed";
            return out;
        }
        out.create = reinterpret_cast<CublasApi::Create>(dlsym(lib, "cublasCreate_v2"));
        out.destroy = reinterpret_cast<CublasApi::Destroy>(dlsym(lib, "cublasDestroy_v2"));
        out.set_stream = reinterpret_cast<CublasApi::SetStream>(dlsym(lib, "cublasSetStream_v2"));
        out.set_math_mode = reinterpret_cast<CublasApi::SetMathMode>(dlsym(lib, "cublasSetMathMode"));
        out.sgemm = reinterpret_cast<CublasApi::Sgemm>(dlsym(lib, "cublasSgemm_v2"));
        if (!out.create || !out.destroy || !out.set_stream || !out.set_math_mode || !out.sgemm)
            out.error = "the cuBLAS found lacks cublasSgemm_v2 or its helpers";
        return out;
    }();
    return api;
}

// A refusal of this reference alone (no memory, no cuBLAS): recorded on its row, the run goes on.
Status refused(ShapeTiming* out, Status why) {
    out->status = std::move(why);
    return Status::ok();
}

Status cublas_call(int status, const char* what) {
    if (status == 0) return Status::ok();
    return Status::error(ErrorKind::Device, std::string(what) + " failed with cuBLAS status " + std::to_string(status));
}

}  // namespace

Status time_device_copy(std::size_t bytes, const TimingOptions& options, ShapeTiming* out) {
    std::string device_name;
    if (Status s = select_cuda_device(options.device, &device_name); !s) return out->status = s;
    DeviceBuffer<std::uint8_t> src, dst;
    if (Status s = src.allocate(bytes); !s) return refused(out, s);
    if (Status s = dst.allocate(bytes); !s) return refused(out, s);
    if (Status s = cuda_status(cudaMemset(src.get(), 1, bytes), "cudaMemset"); !s) return out->status = s;
    CudaStream stream;
    if (Status s = stream.create(); !s) return out->status = s;
    return time_launch_shape(
        [&] {
            return cuda_status(cudaMemcpyAsync(dst.get(), src.get(), bytes, cudaMemcpyDeviceToDevice, stream.get()),
                               "cudaMemcpyAsync");
        },
        stream.get(), options, out);
}

Status time_cublas_sgemm(std::uint32_t m, std::uint32_t k, std::uint32_t n, const TimingOptions& options,
                         ShapeTiming* out) {
    const CublasApi& api = cublas_api();
    if (!api.error.empty()) return refused(out, Status::error(ErrorKind::Unavailable, api.error));
    std::string device_name;
    if (Status s = select_cuda_device(options.device, &device_name); !s) return out->status = s;
    DeviceBuffer<float> a, b, c;
    if (Status s = a.allocate(std::size_t(m) * k); !s) return refused(out, s);
    if (Status s = b.allocate(std::size_t(k) * n); !s) return refused(out, s);
    if (Status s = c.allocate(std::size_t(m) * n); !s) return refused(out, s);
    if (Status s = cuda_status(cudaMemset(a.get(), 0, a.bytes()), "cudaMemset A"); !s) return out->status = s;
    if (Status s = cuda_status(cudaMemset(b.get(), 0, b.bytes()), "cudaMemset B"); !s) return out->status = s;
    CudaStream stream;
    if (Status s = stream.create(); !s) return out->status = s;
    void* handle = nullptr;
    if (Status s = cublas_call(api.create(&handle), "cublasCreate"); !s) return refused(out, s);
    struct Guard {
        const CublasApi& api;
        void* h;
        ~Guard() { api.destroy(h); }
    } guard{api, handle};
    if (Status s = cublas_call(api.set_stream(handle, stream.get()), "cublasSetStream"); !s) return refused(out, s);
    if (Status s = cublas_call(api.set_math_mode(handle, CublasApi::kDefaultMath), "cublasSetMathMode"); !s)
        return refused(out, s);
    const float alpha = 1.0f, beta = 0.0f;
    // Row-major C = A B is column-major C^T = B^T A^T: no copies, no transposes.
    return time_launch_shape(
        [&] {
            return cublas_call(api.sgemm(handle, CublasApi::kOpN, CublasApi::kOpN, int(n), int(m), int(k), &alpha,
                                         b.get(), int(n), a.get(), int(k), &beta, c.get(), int(n)),
                               "cublasSgemm");
        },
        stream.get(), options, out);
}

}  // namespace cvz
