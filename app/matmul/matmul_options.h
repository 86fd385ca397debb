#pragma once
#include <QString>

#include <functional>
#include <optional>

#include "kernels/core/kernel_variant.h"
#include "kernels/matmul/matmul_launch.h"

namespace cvz::cli {

// --tile as a number. nullopt when the text is not a whole number at all, which is bad usage (exit 2);
// a number the kernel has no instance for (12, 64) parses here and is rejected by tile_error() as an
// input (exit 1), like an invalid --block.
std::optional<qulonglong> parse_tile_number(const QString& text);

// Empty when `kernel` is compiled for this TILE (the catalogue's tiles), else the reason.
QString tile_error(const KernelInfo& kernel, qulonglong tile);

// "8, 16 or 32": the TILEs of the family's kernels, for messages.
QString tile_choices(KernelFamily family);

// A variant's name without its family prefix: "naive" for matmul_naive.
QString short_name(const KernelInfo& kernel);

// "naive" or "tiled or tiled_x2": the short names of the family's variants that `pick` selects.
QString kernels_with(KernelFamily family, const std::function<bool(const KernelInfo&)>& pick);
std::function<bool(const KernelInfo&)> block_rule_is(BlockRule rule);

// Empty when `text` is a block a 2-D matmul kernel can run: a 2-D XxY within CUDA's limits. A 1-D "256"
// is refused with its own sentence, since the matmul grid maps y to rows and x to columns.
QString naive_block_error(const QString& text, unsigned* bx, unsigned* by);

}  // namespace cvz::cli
