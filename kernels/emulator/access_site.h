#pragma once
// Where in a kernel body an access is written: the traced context takes it as default arguments of
// load()/store() (`__builtin_LINE()`, `__builtin_FILE()`: the call site, C++17 has no
// std::source_location), so that each lane's k-th execution of one site can be matched with the other
// lanes' even when a lane skips a guarded access (issue 10's "request").
// GCC 12 and nvcc have no __builtin_COLUMN, so two accesses written on one line are one site; every
// lane executes them in the same order, so their executions alternate in the site's occurrences and
// each occurrence is still one warp-wide execution of one access.

namespace cvz {

enum class Access { Load, Store };

struct AccessSite {
    const char* file = "";  // the path the compiler saw (absolute or relative to its working directory)
    unsigned line = 0;
};

}  // namespace cvz
