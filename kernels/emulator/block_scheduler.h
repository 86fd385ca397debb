#pragma once
#include <cstdint>
#include <functional>

namespace cvz {

// Runs run_range(begin, end) over [0, count) split into chunks, on `host_threads` threads
// (0: one per core). Blocks are independent, so any order and any split is a valid schedule.
void for_each_block_parallel(std::uint64_t count, unsigned host_threads,
                             const std::function<void(std::uint64_t, std::uint64_t)>& run_range);

}  // namespace cvz
