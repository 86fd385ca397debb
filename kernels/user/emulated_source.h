#pragma once
// The translation unit the host compiler builds for the emulated path: a prelude that gives CUDA C's
// names a meaning on the CPU (threadIdx and friends, __syncthreads, min/max, the qualifiers), then the
// user's text with each `__shared__` declaration rewritten into a reference into the block's shared
// arena (the only change; every line keeps its number: `#line` says whose file it is), then an entry
// point that calls the chosen kernel with the launch's arguments.
#include <string>

#include "user_kernel.h"

namespace cvz::user {

// The names the generated unit gives its parts, as they appear in the compiler's messages and in the
// shared object's line table.
extern const char* const kPreludeName;  // "cudaviz-prelude.h"
extern const char* const kEntryName;    // "cudaviz-entry.cpp"
// The entry point: extern "C" void cvz_entry(void* const* args), args[k] the k-th parameter's pointer
// (a buffer's base) or the address of its int.
extern const char* const kEntrySymbol;

struct EmulatedSource {
    std::string text;           // the whole unit
    bool barriers = false;      // the file calls __syncthreads(): its blocks run as fibers
    unsigned shared_slots = 0;  // static __shared__ declarations rewritten
    std::string error;          // set when the kernel cannot be called from the entry (a parameter type)
};

EmulatedSource make_emulated_source(const SourceFile& file, const KernelSignature& kernel);

}  // namespace cvz::user
