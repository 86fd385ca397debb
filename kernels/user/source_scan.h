#pragma once
// Finding the user's kernels in their file: each `__global__ void NAME(PARAMS)` with its parameters'
// types (normalised) and kinds, and choosing the one to run. A token pass (source_tokens.h), no parser:
// the compiler, run afterwards, is what judges the code.
#include <string>
#include <vector>

#include "user_kernel.h"

namespace cvz::user {

// Every __global__ function of the file, in order. Parameters are read as written: pointer const,
// restrict and names are free; a parameter the kinds do not know is ParamKind::Other.
std::vector<KernelSignature> find_kernels(const SourceFile& file);

// The kernel to run: the one named `name`, or when `name` is empty the file's only kernel. Otherwise an
// InvalidInput status whose message names the file and lists its kernels.
Status select_kernel(const SourceFile& file, const std::vector<KernelSignature>& kernels, const std::string& name,
                     KernelSignature* out);
// The same, the message saying "the file" where it would name it.
Status select_kernel(const std::vector<KernelSignature>& kernels, const std::string& name, KernelSignature* out);

// The kind of a normalised parameter type ("const unsigned char*" is BytePtr).
ParamKind param_kind(const std::string& normalised_type);

}  // namespace cvz::user
