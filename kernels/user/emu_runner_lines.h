#pragma once
// The runner's map from a code address of the user's loaded kernel to its source line, read once from
// the object's DWARF line table (libdw): which line, and whether it is a line of the user's file (the
// prelude and the entry point are cudaviz's). Part of cudaviz-kernel-runner only.
#include <cstdint>
#include <string>
#include <vector>

namespace cvz::user {

class LineTable {
public:
    struct Row {
        std::uintptr_t address = 0;
        unsigned line = 0;  // 0: no line (between sequences)
        bool user = false;
    };
    // Reads `object`'s rows, at `bias` (where it was loaded); a row is the user's when its file is
    // `user_file` (as #line named it; the compiler may prefix its directory). Empty on success.
    std::string load(const std::string& object, std::uintptr_t bias, const std::string& user_file);
    // The row that covers `address` (line 0 when none does).
    Row at(std::uintptr_t address) const;

private:
    std::vector<Row> rows_;  // by address
};

}  // namespace cvz::user
