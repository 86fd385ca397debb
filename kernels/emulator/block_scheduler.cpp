#include "block_scheduler.h"

#include <algorithm>
#include <atomic>
#include <thread>
#include <vector>

namespace cvz {

unsigned host_workers(unsigned host_threads) {
    return host_threads ? host_threads : std::max(1u, std::thread::hardware_concurrency());
}

void for_each_block_parallel_on_workers(std::uint64_t count, unsigned host_threads,
                                        const std::function<void(unsigned, std::uint64_t, std::uint64_t)>& run_range) {
    if (count == 0) return;
    unsigned workers = host_workers(host_threads);
    // Chunks small enough to balance load, large enough that the atomic is not the cost.
    const std::uint64_t chunk = std::max<std::uint64_t>(1, count / (std::uint64_t(workers) * 16));
    workers = unsigned(std::min<std::uint64_t>(workers, (count + chunk - 1) / chunk));
    if (workers <= 1) {
        run_range(0, 0, count);
        return;
    }
    std::atomic<std::uint64_t> next{0};
    auto work = [&](unsigned worker) {
        for (;;) {
            const std::uint64_t begin = next.fetch_add(chunk);
            if (begin >= count) return;
            run_range(worker, begin, std::min(count, begin + chunk));
        }
    };
    std::vector<std::thread> pool;
    pool.reserve(workers - 1);
    for (unsigned w = 1; w < workers; ++w) pool.emplace_back(work, w);
    work(0);
    for (auto& t : pool) t.join();
}

void for_each_block_parallel(std::uint64_t count, unsigned host_threads,
                             const std::function<void(std::uint64_t, std::uint64_t)>& run_range) {
    for_each_block_parallel_on_workers(count, host_threads,
                                       [&](unsigned, std::uint64_t begin, std::uint64_t end) { run_range(begin, end); });
}

}  // namespace cvz
