#pragma once
#include <QString>

#include "app/jobs/backend_choice.h"
#include "app/models/kernel_times.h"
#include "kernels/core/status.h"
#include "kernels/matmul/matmul_launch.h"
#include "app/io/matrix.h"

namespace cvz {

struct MatmulRequest {
    Matrix a;
    Matrix b;
    MatmulLaunch launch;
    BackendChoice backend = BackendChoice::Auto;
    // The emulator's warm time: up to this many repeats after the first run (the CLI asks for some; the
    // app, which runs on every change, for none). CUDA is always timed warm: its repeats cost µs to ms.
    int emulator_repeats = 0;
};

struct MatmulResult {
    Status status;
    Matrix c;
    QString backend;       // "CUDA (NVIDIA H200)" or "CPU emulator (2 threads)"
    QString launch_text;   // "tiled TILE=16 · grid 4x7"
    double kernel_ms = 0;  // warm when measured (times)
    KernelTimes times;     // first launch and warm time, told apart
    double total_ms = 0;
    double gflops() const;  // 2*M*N*K / kernel time
    QString summary() const;
    std::uint32_t k = 0;  // the inner dimension, for gflops()
};

// Runs C = A @ B with the chosen kernel on the chosen backend (Auto: CUDA when a device exists).
// Checks the shapes first. Safe to call from a worker thread.
MatmulResult run_matmul(const MatmulRequest& request);

// The checks every matmul run makes of its request before allocating C: A and B hold rows x cols values
// and fit together (InvalidInput naming the problem) ...
Status check_matmul_operands(const MatmulRequest& request);
// ... and C = A @ B stays within the matrix limits.
Status check_matmul_output(const MatmulRequest& request);

}  // namespace cvz
