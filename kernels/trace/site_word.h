#pragma once
// What the memory recorder logs about an access besides its address, in one word: its site (file
// pointer, line, load or store) and its size. Packed, with no lookup, when it fits: the file pointer
// in the low 48 bits (a user-space address: see kFilesFit) and above it (line * 2 + access) << 4 | (bytes - 1)
// for lines below 2047 and sizes of 1 to 16 bytes, so that for a body's accesses, whose line, access
// and size are constants once inlined, the word costs an `or` of two constants. Anything else is
// interned by the host thread's recorder (its word: kInterned | index), which only that thread reads.
// A barrier is the word 0 (a site's file pointer is never null).
#include <cstddef>
#include <cstdint>

namespace cvz::site_word {

constexpr unsigned kFileBits = 48;
constexpr std::uint64_t kFileMask = (std::uint64_t(1) << kFileBits) - 1;
// The top 16 bits of an interned word; packed codes stay below it (line * 2 + access < 4095).
constexpr std::uint64_t kInterned = std::uint64_t(0xFFFF) << kFileBits;
constexpr std::uint64_t kBarrier = 0;

// The code of a packable (key = line * 2 + access, bytes); packable() must hold.
constexpr bool packable_code(std::uint64_t key, std::size_t bytes) { return key < 4095 && bytes - 1 < 16; }
constexpr std::uint64_t code(std::uint64_t key, std::size_t bytes) { return key << 4 | (bytes - 1); }

// Whether every file pointer leaves the top 16 bits free, so that it need not be checked: x86-64 user
// space lies below 2^47 (5-level paging maps above it only where a mapping asks to be, which no loader
// does for a binary's string literals, and no pointer to one carries a tag). Elsewhere (e.g. AArch64,
// where pointers may carry tags in their top byte) each is checked.
#if defined(__x86_64__)
constexpr bool kFilesFit = true;
#else
constexpr bool kFilesFit = false;
#endif
inline bool packable_file(const char* file) {
    return kFilesFit || (reinterpret_cast<std::uintptr_t>(file) >> kFileBits) == 0;
}
inline std::uint64_t pack(const char* file, std::uint64_t key, std::size_t bytes) {
    return reinterpret_cast<std::uintptr_t>(file) | code(key, bytes) << kFileBits;
}

inline bool interned(std::uint64_t word) { return (word & kInterned) == kInterned; }
inline std::uint32_t interned_index(std::uint64_t word) { return std::uint32_t(word & kFileMask); }
// Of a packed word.
inline const char* file(std::uint64_t word) { return reinterpret_cast<const char*>(word & kFileMask); }
inline std::uint32_t key(std::uint64_t word) { return std::uint32_t(word >> (kFileBits + 4)); }
inline std::uint32_t bytes(std::uint64_t word) { return std::uint32_t((word >> kFileBits) & 15) + 1; }

}  // namespace cvz::site_word
