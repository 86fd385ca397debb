#pragma once
// The sectors of a global request (request_cost.h), inline: request_cost.cpp runs them compiled for the
// CPU path in use, and so does the recorder's reduction of a warp (memory_recorder.cpp), which costs
// most requests of a launch and, itself running on that path, inlines them rather than dispatching
// once per request. Internal to the trace: use request_cost.h.
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>

#include "memory_trace.h"
#include "request_cost.h"

namespace cvz::request_cost_detail {
// A request has at most 32 lanes; short sorts on the stack (lanes mostly arrive in address order,
// where insertion sort is linear).
template <class T, std::size_t N>
inline void insertion_sort(std::array<T, N>& a, std::size_t n) {
    for (std::size_t i = 1; i < n; ++i) {
        const T v = a[i];
        std::size_t j = i;
        for (; j > 0 && v < a[j - 1]; --j) a[j] = a[j - 1];
        a[j] = v;
    }
}

// Byte intervals [begin, end) in nondecreasing order of begin, merged for the distinct bytes and
// walked for the sectors (each interval's sectors start at or after the last one counted).
template <class Interval>
inline RequestCost walk_intervals(std::size_t n, Interval interval) {
    RequestCost c;
    std::uint64_t distinct = 0, last_sector = ~std::uint64_t(0);
    std::uint64_t run_begin = 0, run_end = 0;
    bool open = false;
    for (std::size_t i = 0; i < n; ++i) {
        const auto [b, e] = interval(i);
        if (e <= b) continue;
        if (!open || b > run_end) {
            if (open) distinct += run_end - run_begin;
            run_begin = b, run_end = e, open = true;
        } else {
            run_end = std::max(run_end, e);
        }
        for (std::uint64_t s = b / 32; s <= (e - 1) / 32; ++s)
            if (last_sector == ~std::uint64_t(0) || s > last_sector) {
                ++c.sectors;
                last_sector = s;
            }
    }
    if (open) distinct += run_end - run_begin;
    c.ideal_sectors = std::uint32_t((distinct + 31) / 32);
    return c;
}

// The sectors and distinct offsets of accesses that each cover one aligned power-of-two size of at
// most 32 bytes, in nondecreasing order: no access crosses a sector and two either coincide or are
// disjoint, so both follow from neighbours alone, without branches.
struct NeighbourCounts {
    std::uint32_t sectors = 1, offsets = 1;
    void add(std::uint64_t o, std::uint64_t prev) {
        sectors += std::uint32_t((o ^ prev) >= 32);  // another 32-byte sector than the previous one
        offsets += std::uint32_t(o != prev);
    }
};

// The uniform request's figures once its offsets are known to be aligned to one power-of-two `size` of
// at most 32 bytes: from neighbours, over the offsets sorted when they are not ascending.
inline RequestCost uniform_cost(const std::uint64_t* offsets, std::size_t count, std::uint32_t size, std::uint32_t descending,
                         NeighbourCounts n) {
    if (descending != 0) {  // count again over the sorted offsets
        std::array<std::uint64_t, 64> sorted;
        std::size_t second_run = 0;
        for (std::size_t i = 1; i < count; ++i)
            if (offsets[i] < offsets[i - 1]) second_run = i;
        if (descending == 1)  // two ascending runs, e.g. two rows of 16 lanes: a merge
            std::merge(offsets, offsets + second_run, offsets + second_run, offsets + count, sorted.begin());
        else
            std::sort(sorted.begin(), std::copy(offsets, offsets + count, sorted.begin()));
        n = NeighbourCounts{};
        for (std::size_t i = 1; i < count; ++i) n.add(sorted[i], sorted[i - 1]);
    }
    RequestCost c;
    c.sectors = n.sectors;
    c.ideal_sectors = (n.offsets * size + 31) / 32;
    return c;
}

inline RequestCost global_cost(const LaneAccess* lanes, std::size_t count) {
    count = std::min<std::size_t>(count, 64);  // a warp has 32 lanes
    if (count == 0) return {};
    // The common request: every lane moves the same aligned power-of-two size of at most 32 bytes, in
    // ascending addresses (pixels, rows, a broadcast); one pass tells it and counts it.
    const std::uint32_t size = lanes[0].bytes;
    std::uint32_t other_size = 0, descending = 0;
    std::uint64_t low_bits = lanes[0].offset;  // any offset's bits below `size` make it misaligned
    NeighbourCounts n;
    for (std::size_t i = 1; i < count; ++i) {
        const std::uint64_t o = lanes[i].offset, prev = lanes[i - 1].offset;
        other_size |= lanes[i].bytes ^ size;
        low_bits |= o;
        descending += std::uint32_t(o < prev);  // the ascending runs, less one
        n.add(o, prev);
    }
    const bool uniform =
        size != 0 && size <= 32 && (size & (size - 1)) == 0 && (low_bits & (size - 1)) == 0 && other_size == 0;
    if (uniform) {
        if (descending == 0) return uniform_cost(nullptr, count, size, 0, n);
        std::array<std::uint64_t, 64> o;
        for (std::size_t i = 0; i < count; ++i) o[i] = lanes[i].offset;
        return uniform_cost(o.data(), count, size, descending, n);
    }
    // Mixed sizes or unaligned accesses: byte intervals, walked in order (the order among equal
    // begins changes neither figure).
    if (descending == 0)
        return walk_intervals(count, [&](std::size_t i) {
            return std::pair<std::uint64_t, std::uint64_t>{lanes[i].offset, lanes[i].offset + lanes[i].bytes};
        });
    std::array<std::pair<std::uint64_t, std::uint64_t>, 64> iv;
    for (std::size_t i = 0; i < count; ++i) iv[i] = {lanes[i].offset, lanes[i].offset + lanes[i].bytes};
    insertion_sort(iv, count);
    return walk_intervals(count, [&](std::size_t i) { return iv[i]; });
}

// Which neighbour pairs (lane i + 1, lane i) lie within one run of 16 or of 8 lanes: all-ones masks.
struct RunMasks {
    std::uint64_t within16[kWarpSize - 1], within8[kWarpSize - 1];
    constexpr RunMasks() : within16(), within8() {
        for (std::size_t i = 0; i + 1 < kWarpSize; ++i) {
            within16[i] = (i + 1) % 16 != 0 ? ~std::uint64_t(0) : 0;
            within8[i] = (i + 1) % 8 != 0 ? ~std::uint64_t(0) : 0;
        }
    }
};
inline constexpr RunMasks kRunMasks;

// The longest run length (32, 16 or 8 lanes) within which each lane's address is the previous lane's
// plus d; 0 when none.
inline std::size_t run_at_stride(const std::uint64_t* addresses, std::uint64_t d) {
    std::uint64_t off32 = 0, off16 = 0, off8 = 0;
    for (std::size_t i = 0; i + 1 < kWarpSize; ++i) {
        const std::uint64_t x = (addresses[i + 1] - addresses[i]) ^ d;
        off32 |= x;
        off16 |= x & kRunMasks.within16[i];
        off8 |= x & kRunMasks.within8[i];
    }
    return off32 == 0 ? 32 : off16 == 0 ? 16 : off8 == 0 ? 8 : 0;
}

// A warp over 1, 2 or 4 rows of a block (runs of 32, 16 or 8 lanes), each run at one stride d >= 0
// from its first lane, the runs one after another in ascending order: the neighbour counts that
// uniform_cost starts from, without a pass. Within a run, d = 0 is one sector and one offset, 0 < d <=
// 32 ascending sectors that step by at most one (from the run's first lane's to its last's), d > 32 a
// sector per lane, and d > 0 a new offset per lane; between runs, the two neighbours as any. In the
// buffer when the first and the last lane are (all are ascending); aligned when every run's first
// offset and d are. Runs that all repeat the first count as that one. False when the lanes are not so.
inline bool strided_cost(const std::uint64_t* addresses, std::uint64_t base, std::uint64_t bytes, std::uint32_t size,
                  bool& inside, RequestCost& c) {
    if (!(size != 0 && size <= 32 && (size & (size - 1)) == 0)) return false;
    const std::uint64_t d = addresses[1] - addresses[0];
    if (d > (std::uint64_t(1) << 40)) return false;
    const std::size_t run = run_at_stride(addresses, d);
    if (run == 0) return false;
    std::uint64_t low_bits = d;
    NeighbourCounts n;
    // Runs that all repeat the first (a warp over rows reading the same row, e.g. B in the naive
    // matmul): sorted, every offset comes `run` times over, which adds neither a sector nor an offset.
    bool repeated = run < kWarpSize;
    for (std::size_t j = run; j < kWarpSize && repeated; j += run) repeated = addresses[j] == addresses[0];
    const std::size_t end = repeated ? run : kWarpSize;
    for (std::size_t j = 0; j < end; j += run) {
        const std::uint64_t first = addresses[j] - base, last = addresses[j + run - 1] - base;
        if (j > 0) {
            const std::uint64_t prev = addresses[j - 1] - base;
            if (first < prev) return false;  // runs not in ascending order
            n.add(first, prev);
        }
        low_bits |= first;
        if (d != 0) {
            n.sectors += d <= 32 ? std::uint32_t((last >> 5) - (first >> 5)) : std::uint32_t(run - 1);
            n.offsets += std::uint32_t(run - 1);
        }
    }
    if ((low_bits & (size - 1)) != 0) return false;
    inside = addresses[0] - base < bytes && addresses[end - 1] - base < bytes;
    if (inside) c = uniform_cost(nullptr, kWarpSize, size, 0, n);
    return true;
}

// A full warp's request from its lanes' host addresses.
inline bool warp_cost(const std::uint64_t* addresses, std::uint64_t base, std::uint64_t bytes, std::uint32_t size,
               RequestCost& c) {
    bool inside = false;
    if (strided_cost(addresses, base, bytes, size, inside, c)) return inside;
    const bool power_of_two = size != 0 && size <= 32 && (size & (size - 1)) == 0;
    // Otherwise one pass of 32 neighbour pairs (the first pair is lane 0 with itself, which counts
    // nothing), written so that it vectorises: 64-bit counters, and the unsigned order as a signed
    // one with the top bits flipped.
    std::uint64_t pairs[kWarpSize + 1];
    pairs[0] = addresses[0];
    std::copy(addresses, addresses + kWarpSize, pairs + 1);
    constexpr std::uint64_t top = std::uint64_t(1) << 63;
    std::uint64_t outside = 0, low_bits = 0, down = 0, sectors = 0, distinct = 0;
    for (std::size_t i = 0; i < kWarpSize; ++i) {
        const std::uint64_t o = pairs[i + 1] - base, prev = pairs[i] - base;
        outside |= std::uint64_t(std::int64_t(o ^ top) >= std::int64_t(bytes ^ top));
        low_bits |= o;
        down += std::uint64_t(std::int64_t(o ^ top) < std::int64_t(prev ^ top));
        sectors += std::uint64_t((o ^ prev) >> 5 != 0);
        distinct += std::uint64_t(o != prev);
    }
    if (outside != 0) return false;
    NeighbourCounts n;
    n.sectors += std::uint32_t(sectors);
    n.offsets += std::uint32_t(distinct);
    const bool uniform = power_of_two && (low_bits & (size - 1)) == 0;
    std::uint64_t offsets[kWarpSize];
    if (down != 0 || !uniform)
        for (std::size_t i = 0; i < kWarpSize; ++i) offsets[i] = addresses[i] - base;
    if (uniform) {
        c = uniform_cost(offsets, kWarpSize, size, std::uint32_t(down), n);
        return true;
    }
    std::array<LaneAccess, kWarpSize> lanes;
    for (std::size_t i = 0; i < kWarpSize; ++i) lanes[i] = LaneAccess{std::uint32_t(i), size, offsets[i]};
    c = global_cost(lanes.data(), kWarpSize);
    return true;
}

}  // namespace cvz::request_cost_detail
