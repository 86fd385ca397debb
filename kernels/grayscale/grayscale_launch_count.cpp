#include "grayscale_launch_count.h"

#include <atomic>

namespace cvz {

namespace {
// Launches come from the GUI thread (a displayed frame) and from workers at once.
std::atomic<std::uint64_t> g_launches{0};
}  // namespace

std::uint64_t grayscale_gpu_launches() { return g_launches.load(std::memory_order_relaxed); }

void count_grayscale_gpu_launch() { g_launches.fetch_add(1, std::memory_order_relaxed); }

}  // namespace cvz
