#pragma once
#include "kernels/core/status.h"

namespace cvz::cli {

// cudaviz-cli's exit status, stated in --help. Scripts branch on these, so they never change meaning.
enum class ExitCode {
    Success = 0,
    InputRejected = 1,   // a file or value was refused: unreadable image, bad --block, bad OUT, OUT not writable
    BadUsage = 2,        // the command line itself: unknown command or option, missing arguments, bad choice
    RuntimeFailure = 3,  // the backend or device: no CUDA device, built without CUDA, a CUDA error
};

inline int exit_status(ExitCode code) { return static_cast<int>(code); }

// How a failed run maps onto the exit status.
inline ExitCode exit_code_for(ErrorKind kind) {
    switch (kind) {
        case ErrorKind::None: return ExitCode::Success;
        case ErrorKind::InvalidInput: return ExitCode::InputRejected;
        case ErrorKind::Unavailable:
        case ErrorKind::Device: break;
    }
    return ExitCode::RuntimeFailure;
}

// The paragraph every --help ends with.
inline const char* exit_code_help() {
    return "Exit status:\n"
           "  0  success\n"
           "  1  input rejected: IN is not a readable image, OUT has an extension other than .png or .npy,\n"
           "     OUT cannot be written (a missing directory, say), or --block is not a valid block (for --kernel)\n"
           "  2  bad usage: unknown command or option, missing arguments, unknown --backend, --layout or --kernel\n"
           "     value\n"
           "  3  device or runtime failure: --backend cuda without a CUDA device (or a build without CUDA),\n"
           "     or an error reported by the CUDA runtime";
}

}  // namespace cvz::cli
