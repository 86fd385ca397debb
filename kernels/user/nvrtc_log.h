#pragma once
// What NVRTC's program log says, read without NVRTC: its messages as Diagnostics on the user's file,
// and the resource lines `--ptxas-options=-v` adds (registers, barriers, static shared memory: the
// occupancy model's inputs). Pure C++, so that the parsing is tested on every build.
#include <cstddef>
#include <string>
#include <vector>

#include "user_kernel.h"

namespace cvz::user {

// The messages of a log such as
//   kernel.cu(3): error: identifier "y" is undefined
//       if (i < n) out[i] = y;
//                           ^
// one Diagnostic each, in order: the file and line from the header, the column from the caret (NVRTC
// echoes the source line indented by two spaces; a tab in the line counts as one column, as in the
// user's editor), the warning number dropped. Lines the header does not claim (the summary "2 errors
// detected ...", "Remark: ...") are skipped. `file` names every diagnostic whose header names the
// compiled program `program` (the name NVRTC was given); other files (a header) keep their own name.
std::vector<Diagnostic> parse_nvrtc_log(const std::string& log, const std::string& program, const std::string& file);

// One entry function's resources, as ptxas reported them.
struct PtxasResources {
    std::string function;        // the mangled name ("_Z4grayPhS_i")
    int registers = 0;
    int barriers = 0;
    std::size_t shared_bytes = 0;  // static __shared__
    std::size_t stack_bytes = 0;   // stack frame (local memory per thread)
    std::size_t spill_bytes = 0;   // spill stores
};

// Every entry function ptxas compiled, in the log's order.
std::vector<PtxasResources> parse_ptxas_resources(const std::string& log);

}  // namespace cvz::user
