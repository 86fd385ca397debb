#include "nvrtc_cubin.h"

#include <cstdint>
#include <cstring>
#include <vector>

namespace cvz::user {

namespace {

constexpr std::uint8_t kRegCount = 0x2f;
constexpr std::uint8_t kNumBarriers = 0x4c;
constexpr std::uint8_t kFormatSized = 4;  // EIFMT_SVAL: a 16-bit size, then that many bytes

template <class T>
bool read_at(const std::string& bytes, std::uint64_t offset, T* out) {
    if (offset > bytes.size() || bytes.size() - offset < sizeof(T)) return false;
    std::memcpy(out, bytes.data() + offset, sizeof(T));
    return true;
}

struct Section {
    std::string name;
    std::uint32_t type = 0;
    std::uint64_t offset = 0, size = 0;
    std::uint32_t link = 0;
};

// Calls visit(attribute, format, value_offset, value_size) for every attribute of an .nv.info section.
template <class Visit>
void for_each_attribute(const std::string& elf, const Section& s, Visit&& visit) {
    std::uint64_t at = s.offset;
    const std::uint64_t end = s.offset + s.size;
    while (at + 4 <= end) {
        const std::uint8_t format = std::uint8_t(elf[at]), attribute = std::uint8_t(elf[at + 1]);
        std::uint16_t size = 0;
        read_at(elf, at + 2, &size);
        if (format == kFormatSized) {
            if (at + 4 + size > end) return;
            visit(attribute, format, at + 4, std::uint64_t(size));
            at += 4 + size;
        } else {
            visit(attribute, format, at + 2, std::uint64_t(2));
            at += 4;
        }
    }
}

}  // namespace

CubinResources cubin_resources(const std::string& elf, const std::string& function, int sm) {
    CubinResources r;
    // ELF64, little-endian: the only form CUBINs take.
    if (elf.size() < 64 || std::memcmp(elf.data(), "\x7f" "ELF", 4) != 0 || elf[4] != 2 || elf[5] != 1) return r;
    std::uint64_t shoff = 0;
    std::uint16_t shentsize = 0, shnum = 0, shstrndx = 0;
    if (!read_at(elf, 0x28, &shoff) || !read_at(elf, 0x3A, &shentsize) || !read_at(elf, 0x3C, &shnum) ||
        !read_at(elf, 0x3E, &shstrndx) || shentsize < 64 || shstrndx >= shnum)
        return r;
    std::vector<Section> sections(shnum);
    std::vector<std::uint32_t> name_offsets(shnum);
    for (std::uint16_t i = 0; i < shnum; ++i) {
        const std::uint64_t at = shoff + std::uint64_t(i) * shentsize;
        Section& s = sections[i];
        if (!read_at(elf, at + 0x00, &name_offsets[i]) || !read_at(elf, at + 0x04, &s.type) || !read_at(elf, at + 0x18, &s.offset) ||
            !read_at(elf, at + 0x20, &s.size) || !read_at(elf, at + 0x28, &s.link))
            return r;
        // NOBITS sections (.nv.shared.*) occupy no bytes of the file: only PROGBITS-like ones must fit.
        if (s.type != 8 /* SHT_NOBITS */ && (s.offset > elf.size() || elf.size() - s.offset < s.size)) return r;
    }
    const Section& names = sections[shstrndx];
    auto string_at = [&](const Section& table, std::uint64_t offset) -> std::string {
        if (offset >= table.size) return {};
        const char* begin = elf.data() + table.offset + offset;
        return std::string(begin, strnlen(begin, std::size_t(table.size - offset)));
    };
    for (std::uint16_t i = 0; i < shnum; ++i) sections[i].name = string_at(names, name_offsets[i]);

    // The function's symbol index, which .nv.info's per-function attributes name.
    std::int64_t symbol = -1;
    for (const Section& s : sections) {
        if (s.type != 2 /* SHT_SYMTAB */ || s.link >= shnum) continue;
        for (std::uint64_t at = 0; at + 24 <= s.size; at += 24) {
            std::uint32_t name = 0;
            read_at(elf, s.offset + at, &name);
            if (string_at(sections[s.link], name) == function) symbol = std::int64_t(at / 24);
        }
    }
    for (const Section& s : sections) {
        if (s.name == ".text." + function) r.found = true;
        if (s.name == ".nv.shared." + function) {
            const std::uint64_t reserved = sm >= 80 ? 1024 : 0;
            r.shared_bytes = s.size > reserved ? std::size_t(s.size - reserved) : 0;
        }
        if (s.name == ".nv.info" && symbol >= 0)
            for_each_attribute(elf, s, [&](std::uint8_t attribute, std::uint8_t, std::uint64_t at, std::uint64_t size) {
                std::uint32_t index = 0, count = 0;
                if (attribute == kRegCount && size == 8 && read_at(elf, at, &index) && read_at(elf, at + 4, &count) &&
                    index == std::uint64_t(symbol))
                    r.registers = int(count);
            });
        if (s.name == ".nv.info." + function)
            for_each_attribute(elf, s, [&](std::uint8_t attribute, std::uint8_t format, std::uint64_t at, std::uint64_t) {
                std::uint16_t value = 0;
                if (attribute == kNumBarriers && format != kFormatSized && read_at(elf, at, &value)) r.barriers = int(value & 0xFF);
            });
    }
    if (r.registers == 0) r.found = false;  // no REGCOUNT for it: not a CUBIN this reader understands
    return r;
}

}  // namespace cvz::user
