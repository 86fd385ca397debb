#pragma once
#include <cstddef>
#include <vector>

#include "../core/block_schedule.h"

namespace cvz {

struct EmuOptions {
    unsigned host_threads = 0;      // blocks run in parallel on this many host threads; 0: one per core
    bool barriers = false;          // the body calls sync(): run the block's threads as fibers
    std::size_t shared_bytes = 0;   // dynamic shared memory per block
    std::size_t fiber_stack_bytes = 64 * 1024;
    // When set, the launch records its schedule here: one entry per linear block id, the host worker
    // that ran the block as its "SM" and a steady clock read before its first thread and after its last.
    std::vector<BlockTiming>* schedule = nullptr;
};

}  // namespace cvz
