#pragma once
// Spinning kernels for timing short launches. For code built with the CUDA toolkit.
// - spin_up_clocks: before a sweep, keep every SM busy for a while, so that the GPU leaves its idle
//   clocks (an H200 idles at 345 MHz and boosts to 1980) before the first shape is timed, instead of
//   during the first shapes.
// - hold_stream: before a batch of timed launches, occupy the stream while the host queues them. A
//   launch and an event record cost the host a few microseconds, as long as a small kernel runs; queued
//   one by one behind a running GPU, the launches would reach it late and the events would time the
//   host's pace, not the kernel. Held, the batch runs back to back as the GPU can take it.
#include <cuda_runtime.h>

#include "../core/status.h"

namespace cvz {

// Runs a kernel that spins on the GPU's global timer for `ms` milliseconds on every SM of the current
// device, in slices of a few milliseconds, and waits for it. Nothing is read or written.
Status spin_up_clocks(cudaStream_t stream, double ms);

// Queues (does not wait for) one block that spins for `us` microseconds on `stream`.
Status hold_stream(cudaStream_t stream, double us);

// How long to hold a stream while `launches` launches and their events are queued: 25 us each (the
// host's cost is 5-10 us), plus 100 us, at most 50 ms.
double hold_us_for(int launches);

}  // namespace cvz
