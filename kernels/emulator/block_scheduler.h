#pragma once
#include <cstdint>
#include <functional>

namespace cvz {

// The number of host threads a launch uses when asked for `host_threads` (0: one per core).
unsigned host_workers(unsigned host_threads);

// Runs run_range(begin, end) over [0, count) split into chunks, on `host_threads` threads
// (0: one per core). Blocks are independent, so any order and any split is a valid schedule.
void for_each_block_parallel(std::uint64_t count, unsigned host_threads,
                             const std::function<void(std::uint64_t, std::uint64_t)>& run_range);

// The same, telling each call which host thread runs it (0 <= worker < host_workers(host_threads)), so
// that state made for one host thread can be reused by every range it runs.
void for_each_block_parallel_on_workers(std::uint64_t count, unsigned host_threads,
                                        const std::function<void(unsigned, std::uint64_t, std::uint64_t)>& run_range);

}  // namespace cvz
