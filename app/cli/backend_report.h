#pragma once
#include <QString>

#include "kernels/cuda/cuda_devices.h"

namespace cvz::cli {

// The lines `info` prints, as plain functions of what was found, so they are testable without a GPU.
QString emulator_report(unsigned host_threads);
QString cuda_report(const CudaInventory& inventory);

}  // namespace cvz::cli
