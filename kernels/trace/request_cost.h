#pragma once
// The cost of one warp-level request, by the definitions in memory_trace.h.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "memory_trace.h"

namespace cvz {

struct RequestCost {
    std::uint32_t sectors = 0, ideal_sectors = 0;        // global
    std::uint32_t wavefronts = 0, ideal_wavefronts = 0;  // shared, constant
};

// Distinct 32-byte sectors of the lanes' bytes, and ceil(distinct bytes / 32).
RequestCost global_request_cost(const std::vector<LaneAccess>& lanes);
RequestCost global_request_cost(const LaneAccess* lanes, std::size_t count);
// The same for the 32 lanes of a warp that each move `size` bytes at host addresses[lane], all in one
// buffer of `bytes` bytes at host address `base` (offsets are from there); false, with `cost`
// unchanged, when some lane's address is outside it.
bool global_warp_request_cost(const std::uint64_t* addresses, std::uint64_t base, std::uint64_t bytes, std::uint32_t size,
                              RequestCost& cost);

// Wavefronts: per group of lanes served together (the warp for accesses of up to 4 bytes, half-warps
// for 8 bytes, quarter-warps for 16), the most distinct 4-byte words any one bank holds, summed over
// the groups with a lane; ideal: the number of those groups.
RequestCost shared_request_cost(const std::vector<LaneAccess>& lanes);
RequestCost shared_request_cost(const LaneAccess* lanes, std::size_t count);

// Constant memory: wavefronts = the distinct 4-byte words the lanes read (one pass of the constant
// cache each: a broadcast is 1, distinct addresses serialise), ideal 1 for a request with a lane.
RequestCost constant_request_cost(const std::vector<LaneAccess>& lanes);
RequestCost constant_request_cost(const LaneAccess* lanes, std::size_t count);

}  // namespace cvz
