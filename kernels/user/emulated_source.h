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
// The direct unit's entry point (see EmulatedSource::direct_text): extern "C" void cvz_entry_block(void*
// const* args, const uintptr_t* bytes, unsigned* thread) runs every thread of the block whose indices
// the runner has set, bytes[k] the k-th buffer's size; before each thread it stores the thread's linear
// index at `thread` (the runner's messages name it).
extern const char* const kEntryBlockSymbol;
// The runner's answer when the direct object met a fault: run the launch again on the instrumented
// object, which names it exactly (runs are deterministic; the buffers are copied in afresh).
extern const char* const kRunnerRetry;

struct EmulatedSource {
    std::string text;           // the whole unit
    bool barriers = false;      // the file calls __syncthreads(): its blocks run as fibers
    unsigned shared_slots = 0;  // static __shared__ declarations rewritten
    std::string error;          // set when the kernel cannot be called from the entry (a parameter type)
    // The direct unit (its parameters' accesses made directly, each checked inline, not through the
    // runner's hooks), for untraced runs of a kernel without barriers or __shared__ (empty when the file
    // does not qualify): the same text, but each pointer parameter a checked pointer (cvz_ptr in the
    // prelude: an inline range check against its buffer, then a load or store the instrumentation does
    // not see), threadIdx a parameter, and the block's thread loop in the unit with the kernel inlined
    // into it. Every other load and store is instrumented as in `text`, so an access the checked
    // pointers do not cover is still checked by the runner. What the checked pointers cannot stand in
    // for (a pointer parameter converted to a plain pointer, an element's address, a varargs call)
    // fails to compile, and the kernel then runs on `text` only; constructs that would compile with a
    // different meaning (auto, templates, sizeof, printf, varargs) keep a file off the direct unit.
    std::string direct_text;
};

EmulatedSource make_emulated_source(const SourceFile& file, const KernelSignature& kernel);

}  // namespace cvz::user
