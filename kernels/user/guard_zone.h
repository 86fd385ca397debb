#pragma once
// Guard zones around the buffers a user's kernel gets on the GPU (issue 27). A load or store a few
// elements past a cudaMalloc'ed buffer lands in the memory the allocation rounds up to, or in a
// neighbour, and the GPU never faults. So cudaviz-gpu-runner places each buffer with the driver's
// virtual memory API (GuardedLayout below): in a reserved address range, its end at the end of the mapped
// memory (rounded up to kBufferAlignment) and unmapped addresses after it, so that a load or store past
// the end stops the kernel with an illegal address; before it, a front zone of mapped memory. The front
// zone and the few bytes of rounding after the buffer are filled with a canary pattern and compared after
// the kernel: a changed zone is a bounds fault naming the buffer and the elements written outside it.
// The thread and the line are not known here (the app re-runs the launch on the emulator for those,
// for the faults as for the zones).
//
// Limits: a load in the front zone or in the rounding after the end (fewer than kBufferAlignment bytes:
// none when the buffer's size is a multiple of it) reads the canary and goes unnoticed; a store that
// leaves a zone's byte as it was (the canary's own value) is not seen; an access beyond the unmapped
// range may land in another mapping. The pattern varies byte to byte, so a store of one repeated value
// changes at least some of the bytes. Without the virtual memory API the runner falls back to a
// cudaMalloc'ed [zone][buffer][zone], where only stores are seen.
// Host code only: the runner copies the zones in and out; the tests check them on host memory.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace cvz::user {

// Bytes of guard on each side of a buffer of `bytes`: at least 64 KiB, an eighth of the buffer up to
// 8 MiB (a 2-D kernel without a guard overshoots by whole rows), always a multiple of 64 KiB, so a
// buffer placed right after its front zone keeps the alignment of the allocation (cudaMalloc: 256 B+).
std::size_t guard_zone_bytes(std::size_t bytes);

// Where a buffer starts: a multiple of 32 bytes, a sector's size, so that a kernel's memory figures
// (sectors per request) are those of a cudaMalloc'ed buffer and of the emulator's, and every vector type
// (16 bytes at most) is aligned. The buffer's end is rounded up to it, so this is also the most bytes
// after the end that a load may read unseen.
constexpr std::size_t kBufferAlignment = 32;

// A buffer of `bytes` in a reserved range of addresses, offsets from the range's start:
//   [unmapped front][front zone | buffer | back zone][unmapped back]
//                   ^map_offset  ^data_offset        ^map_offset + mapped
// The mapped part is whole granules (the driver's allocation granularity, 2 MiB on the H200), the front
// zone at least guard_zone_bytes(bytes), the back zone the rounding of the end to kBufferAlignment, and
// each unmapped part at least one granule and at least a guard zone.
struct GuardedLayout {
    std::size_t reserved = 0;     // bytes of address range
    std::size_t map_offset = 0;   // where the mapped memory starts
    std::size_t mapped = 0;       // bytes mapped
    std::size_t data_offset = 0;  // where the buffer starts
    std::size_t front_zone = 0;   // canary bytes before the buffer (data_offset - map_offset)
    std::size_t back_zone = 0;    // canary bytes after it, up to the unmapped memory (< kBufferAlignment)
};
// `granularity` a power of two no smaller than kBufferAlignment.
GuardedLayout guarded_layout(std::size_t bytes, std::size_t granularity);

// The canary's byte at position k of a zone.
std::uint8_t canary_byte(std::size_t k);

// Fills `zone` (n bytes) with the canary.
void fill_canary(std::uint8_t* zone, std::size_t n);

// The first and last bytes of a zone that no longer hold the canary.
struct ZoneChange {
    std::size_t first = 0, last = 0;
};
std::optional<ZoneChange> find_zone_change(const std::uint8_t* zone, std::size_t n);

// The message for a buffer of `bytes` (elements of `element_bytes`) whose zones (each `zone_bytes`)
// changed: "out[1572864..1572866] were written, past the end of out (1572864 elements)", with "before
// the start of" and negative offsets for the front zone; both, joined by "; ", when both changed.
// "" when neither did.
std::string guard_zone_message(const std::string& name, std::size_t bytes, std::size_t element_bytes, std::size_t zone_bytes,
                               const std::optional<ZoneChange>& before, const std::optional<ZoneChange>& after);

}  // namespace cvz::user
