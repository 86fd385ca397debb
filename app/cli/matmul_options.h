#pragma once
#include <QString>

#include <optional>

#include "kernels/matmul/matmul_launch.h"

namespace cvz::cli {

// --kernel: "naive" or "tiled" (case-insensitive).
std::optional<MatmulKernel> parse_matmul_kernel(const QString& text);

// --tile as a number. nullopt when the text is not a whole number at all, which is bad usage (exit 2);
// a number the tiled kernel has no instance for (12, 64) parses here and is rejected by
// tile_error() as an input (exit 1), like an invalid --block.
std::optional<qulonglong> parse_tile_number(const QString& text);

// Empty when the tiled kernel is compiled for this TILE (8, 16 or 32), else the reason.
QString tile_error(qulonglong tile);

// Empty when `text` is a block the naive kernel can run: a 2-D XxY within CUDA's limits. A 1-D "256"
// is refused with its own sentence, since the matmul grid maps y to rows and x to columns.
QString naive_block_error(const QString& text, unsigned* bx, unsigned* by);

}  // namespace cvz::cli
