#include "block_schedule.h"

#include <algorithm>
#include <limits>

namespace cvz {

namespace {

std::string block_text(Dim3 b) {
    return "[" + std::to_string(b.x) + ", " + std::to_string(b.y) + ", " + std::to_string(b.z) + "]";
}

Dim3 block_at(std::uint64_t linear, Dim3 grid) {
    const std::uint64_t plane = std::uint64_t(grid.x) * grid.y;
    return Dim3{unsigned(linear % grid.x), unsigned((linear / grid.x) % grid.y), unsigned(linear / plane)};
}

}  // namespace

std::string make_block_schedule(Dim3 grid, const std::vector<BlockTiming>& raw, BlockSchedule* out) {
    if (raw.size() != grid.volume())
        return "the recording holds " + std::to_string(raw.size()) + " blocks, the grid has " +
               std::to_string(grid.volume());
    std::uint64_t earliest = std::numeric_limits<std::uint64_t>::max();
    for (std::size_t i = 0; i < raw.size(); ++i) {
        const BlockTiming& t = raw[i];
        if (t.sm < 0) return "block " + block_text(block_at(i, grid)) + " was never recorded";
        if (t.end_ns < t.start_ns) return "block " + block_text(block_at(i, grid)) + " ends before it starts";
        earliest = std::min(earliest, t.start_ns);
    }
    out->blocks.clear();
    out->blocks.reserve(raw.size());
    for (std::size_t i = 0; i < raw.size(); ++i)
        out->blocks.push_back(BlockRecord{block_at(i, grid), raw[i].sm, raw[i].start_ns - earliest, raw[i].end_ns - earliest});
    return check_block_schedule(*out);
}

std::string check_block_schedule(const BlockSchedule& s, Dim3* grid) {
    if (s.sms <= 0) return "the SM count must be at least 1, not " + std::to_string(s.sms);
    if (s.blocks.empty()) return "there are no blocks";
    Dim3 g{0, 0, 0};
    std::uint64_t earliest = std::numeric_limits<std::uint64_t>::max();
    for (const BlockRecord& b : s.blocks) {
        if (b.block.x == std::numeric_limits<unsigned>::max() || b.block.y == std::numeric_limits<unsigned>::max() ||
            b.block.z == std::numeric_limits<unsigned>::max())
            return "block " + block_text(b.block) + " is out of range";
        g = Dim3{std::max(g.x, b.block.x + 1), std::max(g.y, b.block.y + 1), std::max(g.z, b.block.z + 1)};
        if (b.sm < 0 || b.sm >= s.sms)
            return "block " + block_text(b.block) + " ran on SM " + std::to_string(b.sm) + ", outside 0.." +
                   std::to_string(s.sms - 1);
        if (b.end_ns < b.start_ns) return "block " + block_text(b.block) + " ends before it starts";
        earliest = std::min(earliest, b.start_ns);
    }
    // Compared factor by factor: the product of three indices from a file could overflow 64 bits.
    const std::uint64_t n = s.blocks.size();
    const bool spans = g.x <= n && g.y <= n && g.z <= n && std::uint64_t(g.x) * g.y <= n && g.volume() == n;
    if (!spans)
        return "the blocks span a grid of " + std::to_string(g.x) + "x" + std::to_string(g.y) + "x" +
               std::to_string(g.z) + " = " + std::to_string(g.volume()) + " blocks but " +
               std::to_string(s.blocks.size()) + " are listed";
    std::vector<bool> seen(s.blocks.size(), false);
    for (const BlockRecord& b : s.blocks) {
        const std::uint64_t i = linear_block_id(b.block, g);
        if (seen[i]) return "block " + block_text(b.block) + " is listed twice";
        seen[i] = true;
    }
    if (earliest != 0) return "the earliest start is " + std::to_string(earliest) + " ns, not 0";
    if (grid) *grid = g;
    return {};
}

}  // namespace cvz
