#pragma once
// How each compiled matmul kernel's warps issue instructions (app/models/compiled_issue.h): the table
// Nsight Compute measured on the H200, registered with the family (app_families.cpp).
#include <optional>

#include "app/models/compiled_issue.h"

namespace cvz {

// The figures of a compiled matmul kernel (a tiled kernel by its TILE); none for an unknown variant or
// a TILE the catalogue does not compile.
std::optional<CompiledIssue> matmul_compiled_issue(const KernelRef& ref);

}  // namespace cvz
