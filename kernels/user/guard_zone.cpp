#include "guard_zone.h"

#include <algorithm>

namespace cvz::user {

namespace {

constexpr std::size_t kZoneUnit = 64 * 1024;
constexpr std::size_t kZoneMost = 8 * 1024 * 1024;

// Element index of a byte offset from the buffer's start, rounded down (so -1 for the byte before it).
long long element_of(long long byte_offset, std::size_t element_bytes) {
    const long long e = (long long)std::max<std::size_t>(element_bytes, 1);
    return byte_offset >= 0 ? byte_offset / e : -((-byte_offset + e - 1) / e);
}

std::string range_text(const std::string& name, long long first, long long last) {
    if (first == last) return name + "[" + std::to_string(first) + "] was written";
    return name + "[" + std::to_string(first) + ".." + std::to_string(last) + "] were written";
}

}  // namespace

std::size_t guard_zone_bytes(std::size_t bytes) {
    const std::size_t eighth = std::min(bytes / 8, kZoneMost);
    const std::size_t units = std::max<std::size_t>(1, (eighth + kZoneUnit - 1) / kZoneUnit);
    return units * kZoneUnit;
}

GuardedLayout guarded_layout(std::size_t bytes, std::size_t granularity) {
    const auto round_up = [](std::size_t v, std::size_t unit) { return (v + unit - 1) / unit * unit; };
    const std::size_t g = std::max(granularity, kBufferAlignment);
    const std::size_t zone = guard_zone_bytes(bytes);
    const std::size_t body = round_up(bytes, kBufferAlignment);
    GuardedLayout l;
    l.map_offset = round_up(std::max(zone, g), g);
    l.mapped = round_up(zone + body, g);
    l.data_offset = l.map_offset + l.mapped - body;
    l.front_zone = l.data_offset - l.map_offset;
    l.back_zone = body - bytes;
    l.reserved = l.map_offset + l.mapped + round_up(std::max(zone, g), g);
    return l;
}

std::uint8_t canary_byte(std::size_t k) {
    // Not a constant: a store of 0, 0xFF or any one value changes most of the bytes it covers.
    const std::uint32_t x = std::uint32_t(k) * 2654435761u;
    return std::uint8_t((x >> 24) ^ 0xA5u);
}

void fill_canary(std::uint8_t* zone, std::size_t n) {
    for (std::size_t k = 0; k < n; ++k) zone[k] = canary_byte(k);
}

std::optional<ZoneChange> find_zone_change(const std::uint8_t* zone, std::size_t n) {
    std::size_t first = 0;
    while (first < n && zone[first] == canary_byte(first)) ++first;
    if (first == n) return std::nullopt;
    std::size_t last = n - 1;
    while (last > first && zone[last] == canary_byte(last)) --last;
    return ZoneChange{first, last};
}

std::string guard_zone_message(const std::string& name, std::size_t bytes, std::size_t element_bytes, std::size_t zone_bytes,
                               const std::optional<ZoneChange>& before, const std::optional<ZoneChange>& after) {
    const std::size_t element = std::max<std::size_t>(element_bytes, 1);
    const std::size_t count = bytes / element;
    const std::string size = " (" + std::to_string(count) + (count == 1 ? " element)" : " elements)");
    std::string m;
    if (before) {
        // The front zone's byte k is at byte offset k - zone_bytes from the buffer's start.
        const long long first = element_of((long long)before->first - (long long)zone_bytes, element);
        const long long last = element_of((long long)before->last - (long long)zone_bytes, element);
        m = range_text(name, first, last) + ", before the start of " + name + size;
    }
    if (after) {
        const long long first = element_of((long long)(bytes + after->first), element);
        const long long last = element_of((long long)(bytes + after->last), element);
        m += (m.empty() ? "" : "; ") + range_text(name, first, last) + ", past the end of " + name + size;
    }
    return m;
}

}  // namespace cvz::user
