#pragma once
// CUDA errors as values: every runtime call is checked where it is made and turned into a Status
// carrying CUDA's own error name and text.
#include <cuda_runtime.h>

#include <string>

#include "../core/status.h"

namespace cvz {

// Which of our kinds a CUDA error is: no usable device is Unavailable (the app falls back to the
// emulator), a refused configuration is InvalidInput (the user's launch), anything else Device.
inline ErrorKind cuda_error_kind(cudaError_t err) {
    switch (err) {
        case cudaSuccess: return ErrorKind::None;
        case cudaErrorNoDevice:
        case cudaErrorInsufficientDriver:
        case cudaErrorInvalidDevice: return ErrorKind::Unavailable;
        case cudaErrorInvalidConfiguration:
        case cudaErrorInvalidValue: return ErrorKind::InvalidInput;
        default: return ErrorKind::Device;
    }
}

// "what: cudaErrorName (CUDA's sentence)", the form every CUDA failure takes in cudaviz.
// The error now travels as the returned value, so the runtime's per-thread "last error" is reset:
// a later launch's cudaGetLastError() must not report this failure a second time. (A sticky error,
// one that broke the context, stays and comes back from every later call, as it should.)
inline Status cuda_status(cudaError_t err, const char* what) {
    if (err == cudaSuccess) return Status::ok();
    (void)cudaGetLastError();
    return Status::error(cuda_error_kind(err),
                         std::string(what) + ": " + cudaGetErrorName(err) + " (" + cudaGetErrorString(err) + ")");
}

}  // namespace cvz

// Returns the Status from the enclosing function when the call fails.
#define CVZ_CUDA_TRY(call)                                           \
    do {                                                             \
        ::cvz::Status cvz_status_ = ::cvz::cuda_status((call), #call); \
        if (!cvz_status_) return cvz_status_;                        \
    } while (0)
