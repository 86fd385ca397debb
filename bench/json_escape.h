#pragma once
// A string as the benchmark programs write it inside a JSON string: quotes and backslashes escaped,
// newlines as \n, other control characters as spaces.
#include <string>

namespace bench {

inline std::string json_escape(const std::string& s) {
    std::string o;
    for (char ch : s) {
        if (ch == '"' || ch == '\\') o += '\\', o += ch;
        else if (ch == '\n') o += "\\n";
        else if (static_cast<unsigned char>(ch) < 0x20) o += ' ';
        else o += ch;
    }
    return o;
}

}  // namespace bench
