#pragma once
#include <QString>

#include <optional>

#include "kernels/core/status.h"

namespace cvz {

enum class BackendChoice { Auto, Cpu, Cuda };

std::optional<BackendChoice> parse_backend_choice(const QString& text);  // "auto" | "cpu" | "cuda"
QString to_string(BackendChoice choice);

// True when a CUDA device is usable now (built with the toolkit and a device found); cached.
bool cuda_device_available();

// Ok when CUDA can run here; else ErrorKind::Unavailable saying why in plain words: built without the
// toolkit, no NVIDIA driver (so no GPU: the runtime's own word for that is "driver version is
// insufficient"), a driver older than the runtime, or no device. Cached like cuda_device_available.
Status cuda_backend_status();

}  // namespace cvz
