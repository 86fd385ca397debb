#pragma once
// A user kernel's block and grid as the CLI and the launch panel write them ("256", "16x16", "8x4x2"),
// and CUDA's limits on them. A user kernel takes any block and, with --grid, any grid: the built-ins'
// launch rules (app/models/launch_config.h) do not apply.
#include <QString>

#include <optional>

#include "kernels/core/dim3.h"

namespace cvz {

// "256", "16x16", "8x4x2": a block or a grid as the CLI and the launch panel write it. Null and
// *error set when the text is not one.
std::optional<Dim3> parse_dims(const QString& text, QString* error);
QString dims_text(const Dim3& d);
// Empty when `block` is a block CUDA launches (at most 1024 threads, z at most 64), else why not.
QString block_error(const Dim3& block);
// Empty when `grid` is within CUDA's limits (x < 2^31, y and z at most 65535), else why not.
QString grid_error(const Dim3& grid);

}  // namespace cvz
