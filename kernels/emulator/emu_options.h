#pragma once
#include <cstddef>

namespace cvz {

struct EmuOptions {
    unsigned host_threads = 0;      // blocks run in parallel on this many host threads; 0: one per core
    bool barriers = false;          // the body calls sync(): run the block's threads as fibers
    std::size_t shared_bytes = 0;   // dynamic shared memory per block
    std::size_t fiber_stack_bytes = 64 * 1024;
};

}  // namespace cvz
