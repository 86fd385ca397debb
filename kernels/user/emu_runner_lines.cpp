#include "emu_runner_lines.h"

#include <elfutils/libdw.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>

namespace cvz::user {

namespace {

bool ends_with(const std::string& s, const std::string& tail) {
    return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

}  // namespace

std::string LineTable::load(const std::string& object, std::uintptr_t bias, const std::string& user_file) {
    rows_.clear();
    const int fd = ::open(object.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return "cannot open " + object;
    Dwarf* dw = dwarf_begin(fd, DWARF_C_READ);
    if (!dw) {
        ::close(fd);
        return object + " has no debugging information";
    }
    Dwarf_Off offset = 0, next = 0;
    std::size_t header = 0;
    while (dwarf_nextcu(dw, offset, &next, &header, nullptr, nullptr, nullptr) == 0) {
        Dwarf_Die cu;
        Dwarf_Lines* lines = nullptr;
        std::size_t count = 0;
        if (dwarf_offdie(dw, offset + header, &cu) && dwarf_getsrclines(&cu, &lines, &count) == 0) {
            for (std::size_t k = 0; k < count; ++k) {
                Dwarf_Line* l = dwarf_onesrcline(lines, k);
                Dwarf_Addr address = 0;
                int line = 0;
                bool end = false;
                dwarf_lineaddr(l, &address);
                dwarf_lineno(l, &line);
                dwarf_lineendsequence(l, &end);
                const char* src = dwarf_linesrc(l, nullptr, nullptr);
                const std::string file = src ? src : "";
                Row row;
                row.address = bias + std::uintptr_t(address);
                row.line = end ? 0 : unsigned(line);
                row.user = !end && (file == user_file || ends_with(file, "/" + user_file));
                rows_.push_back(row);
            }
        }
        offset = next;
    }
    dwarf_end(dw);
    ::close(fd);
    std::stable_sort(rows_.begin(), rows_.end(), [](const Row& a, const Row& b) { return a.address < b.address; });
    return {};
}

LineTable::Row LineTable::at(std::uintptr_t address) const {
    auto it = std::upper_bound(rows_.begin(), rows_.end(), address,
                               [](std::uintptr_t a, const Row& r) { return a < r.address; });
    if (it == rows_.begin()) return {};
    return *--it;
}

}  // namespace cvz::user
