#pragma once
// CUDA errors as values: every runtime call is checked where it is made and turned into a Status
// carrying CUDA's own error name and text.
#include <cuda_runtime.h>

#include <string>

#include "../core/status.h"

namespace cvz {

inline Status cuda_status(cudaError_t err, const char* what) {
    if (err == cudaSuccess) return Status::ok();
    const ErrorKind kind = (err == cudaErrorNoDevice || err == cudaErrorInsufficientDriver)
                               ? ErrorKind::Unavailable
                               : (err == cudaErrorInvalidConfiguration || err == cudaErrorInvalidValue)
                                     ? ErrorKind::InvalidInput
                                     : ErrorKind::Device;
    return Status::error(kind, std::string(what) + ": " + cudaGetErrorName(err) + " (" + cudaGetErrorString(err) + ")");
}

}  // namespace cvz

// Returns the Status from the enclosing function when the call fails.
#define CVZ_CUDA_TRY(call)                                           \
    do {                                                             \
        ::cvz::Status cvz_status_ = ::cvz::cuda_status((call), #call); \
        if (!cvz_status_) return cvz_status_;                        \
    } while (0)
