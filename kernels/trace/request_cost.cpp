#include "request_cost.h"

#include <algorithm>
#include <array>

#include "../core/cpu_dispatch.h"
#include "global_request_cost.h"

namespace cvz {

using request_cost_detail::global_cost;
using request_cost_detail::insertion_sort;
using request_cost_detail::warp_cost;

RequestCost global_request_cost(const LaneAccess* lanes, std::size_t count) {
    // Compiled for the CPU path in use: with 256-bit vectors the uniform request's pass vectorises
    // (the recorder costs every request of a launch through here).
    RequestCost c;
    on_cpu_path([&] { c = global_cost(lanes, count); });
    return c;
}

bool global_warp_request_cost(const std::uint64_t* addresses, std::uint64_t base, std::uint64_t bytes, std::uint32_t size,
                              RequestCost& cost) {
    bool in = false;
    on_cpu_path([&] { in = warp_cost(addresses, base, bytes, size, cost); });
    return in;
}

RequestCost global_request_cost(const std::vector<LaneAccess>& lanes) {
    return global_request_cost(lanes.data(), lanes.size());
}

namespace {

// The common shared request, conflict-free: within each group of lanes served together, no bank
// holds two distinct words (lanes reading one word is a broadcast). Then every group with a lane is
// one wavefront. False when some group has a conflict (or a lane number is out of range).
bool conflict_free(const LaneAccess* lanes, std::size_t count, std::uint32_t group, RequestCost& c) {
    std::uint32_t banks[4] = {};  // per group of lanes: bit b set when bank b holds word[g][b]
    std::uint64_t word[4][32];
    for (std::size_t i = 0; i < count; ++i) {
        const LaneAccess& l = lanes[i];
        if (l.bytes == 0) continue;
        if (l.lane >= 32) return false;
        const std::uint32_t g = l.lane / group;
        for (std::uint64_t w = l.offset / 4; w <= (l.offset + l.bytes - 1) / 4; ++w) {
            const std::uint32_t bit = 1u << (w % 32);
            if (!(banks[g] & bit)) {
                banks[g] |= bit;
                word[g][w % 32] = w;
            } else if (word[g][w % 32] != w) {
                return false;
            }
        }
    }
    for (const std::uint32_t b : banks) c.wavefronts += b != 0;
    c.ideal_wavefronts = c.wavefronts;
    return true;
}

}  // namespace

RequestCost shared_request_cost(const LaneAccess* lanes, std::size_t count) {
    RequestCost c;
    std::uint32_t widest = 0;
    for (std::size_t i = 0; i < count; ++i) widest = std::max(widest, lanes[i].bytes);
    const std::uint32_t group = widest > 8 ? 8 : widest > 4 ? 16 : 32;
    if (conflict_free(lanes, count, group, c)) return c;
    for (std::uint32_t g0 = 0; g0 < 32; g0 += group) {
        // (bank, word) of every word the group's lanes address, then the most words of one bank.
        std::array<std::uint64_t, 32 * 5> words;
        std::size_t n = 0;
        for (std::size_t i = 0; i < count; ++i) {
            const LaneAccess& l = lanes[i];
            if (l.lane < g0 || l.lane >= g0 + group || l.bytes == 0) continue;
            for (std::uint64_t w = l.offset / 4; w <= (l.offset + l.bytes - 1) / 4 && n < words.size(); ++w)
                words[n++] = ((w % 32) << 48) | w;
        }
        if (n == 0) continue;
        insertion_sort(words, n);
        std::uint32_t most = 0, in_bank = 0;
        for (std::size_t i = 0; i < n; ++i) {
            if (i > 0 && words[i] == words[i - 1]) continue;  // a broadcast: one word, many lanes
            if (i > 0 && (words[i] >> 48) == (words[i - 1] >> 48)) ++in_bank;
            else in_bank = 1;
            most = std::max(most, in_bank);
        }
        c.wavefronts += most;
        ++c.ideal_wavefronts;
    }
    return c;
}

RequestCost shared_request_cost(const std::vector<LaneAccess>& lanes) {
    return shared_request_cost(lanes.data(), lanes.size());
}

RequestCost constant_request_cost(const LaneAccess* lanes, std::size_t count) {
    // At most 32 lanes of up to 16 bytes: the distinct words in a small array, no allocation.
    constexpr std::size_t kMaxWords = 4 * kWarpSize;
    std::uint64_t words[kMaxWords];
    std::size_t n = 0;
    for (std::size_t i = 0; i < count; ++i) {
        const std::uint64_t first = lanes[i].offset / 4;
        const std::uint64_t last = (lanes[i].offset + std::max<std::uint32_t>(1, lanes[i].bytes) - 1) / 4;
        for (std::uint64_t w = first; w <= last && n < kMaxWords; ++w)
            if (std::find(words, words + n, w) == words + n) words[n++] = w;
    }
    RequestCost cost;
    cost.wavefronts = std::uint32_t(n);
    cost.ideal_wavefronts = count ? 1 : 0;
    return cost;
}

RequestCost constant_request_cost(const std::vector<LaneAccess>& lanes) {
    return constant_request_cost(lanes.data(), lanes.size());
}

}  // namespace cvz
