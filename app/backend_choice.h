#pragma once
#include <QString>

#include <optional>

namespace cvz {

enum class BackendChoice { Auto, Cpu, Cuda };

std::optional<BackendChoice> parse_backend_choice(const QString& text);  // "auto" | "cpu" | "cuda"
QString to_string(BackendChoice choice);

// True when a CUDA device is usable now (built with the toolkit and a device found); cached.
bool cuda_device_available();

}  // namespace cvz
