#pragma once
// Guard zones around the buffers a user's kernel gets on the GPU (issue 27). A store a few elements
// past a cudaMalloc'ed buffer lands in the memory the allocation rounds up to, or in a neighbour, and
// the GPU never faults. So cudaviz-gpu-runner allocates each buffer with a zone before and after it,
// fills both with a canary pattern, and compares them after the kernel: a changed zone is a bounds
// fault naming the buffer and the elements written outside it. The thread and the line are not known
// here (the app re-runs the launch on the emulator for those).
//
// Limits: only stores are seen. A load outside the buffer reads the canary and goes unnoticed; a store
// that leaves a zone's byte as it was (the canary's own value) or lands beyond the zone is not seen.
// The pattern varies byte to byte, so a store of one repeated value changes at least some of the bytes.
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
