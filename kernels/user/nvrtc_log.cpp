#include "nvrtc_log.h"

#include <cstdlib>
#include <sstream>

namespace cvz::user {

namespace {

std::vector<std::string> split_lines(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        lines.push_back(line);
    }
    return lines;
}

// "NAME(LINE): error: MESSAGE" or "NAME(LINE): warning #177-D: MESSAGE"; also "NAME: error: ..." with no
// line (the file as a whole). False when the line is not such a header.
bool parse_header(const std::string& line, Diagnostic* d) {
    std::size_t colon = std::string::npos;
    unsigned number = 0;
    std::string name;
    // The kind follows the first ": " after the name, which may itself hold "(" (a path).
    for (std::size_t pos = line.find(": "); pos != std::string::npos; pos = line.find(": ", pos + 1)) {
        const std::string rest = line.substr(pos + 2);
        if (rest.rfind("error", 0) == 0 || rest.rfind("warning", 0) == 0 || rest.rfind("catastrophic error", 0) == 0) {
            colon = pos;
            break;
        }
    }
    if (colon == std::string::npos || colon == 0) return false;
    std::string head = line.substr(0, colon);
    if (head.back() == ')') {
        const std::size_t open = head.rfind('(');
        if (open == std::string::npos) return false;
        const std::string digits = head.substr(open + 1, head.size() - open - 2);
        if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos) return false;
        number = unsigned(std::strtoul(digits.c_str(), nullptr, 10));
        name = head.substr(0, open);
    } else {
        if (head.find(' ') != std::string::npos) return false;  // prose, not a file name
        name = head;
    }
    std::string rest = line.substr(colon + 2);
    d->error = rest.rfind("warning", 0) != 0;
    // Drop the kind and its number: "warning #177-D: text" -> "text".
    const std::size_t text = rest.find(": ");
    d->message = text == std::string::npos ? rest : rest.substr(text + 2);
    d->file = name;
    d->line = number;
    d->column = 0;
    return true;
}

// Spaces, and tabs where the source line had them (NVRTC copies them, so that the caret lines up in a
// terminal), then the caret.
bool is_caret_line(const std::string& line) {
    const std::size_t caret = line.find('^');
    return caret != std::string::npos && line.find_first_not_of(" \t") == caret &&
           line.find_first_not_of(' ', caret + 1) == std::string::npos;
}

std::size_t number_before(const std::string& text, const std::string& word) {
    const std::size_t at = text.find(word);
    if (at == std::string::npos) return 0;
    std::size_t begin = at;
    while (begin > 0 && text[begin - 1] == ' ') --begin;
    std::size_t end = begin;
    while (begin > 0 && text[begin - 1] >= '0' && text[begin - 1] <= '9') --begin;
    return begin == end ? 0 : std::size_t(std::strtoull(text.substr(begin, end - begin).c_str(), nullptr, 10));
}

}  // namespace

std::vector<Diagnostic> parse_nvrtc_log(const std::string& log, const std::string& program, const std::string& file) {
    std::vector<Diagnostic> out;
    const std::vector<std::string> lines = split_lines(log);
    for (std::size_t i = 0; i < lines.size(); ++i) {
        Diagnostic d;
        if (!parse_header(lines[i], &d)) continue;
        if (d.file == program) d.file = file;
        // The echoed source line, then the caret under the column. NVRTC indents the echo by two
        // spaces and the caret with it.
        if (i + 2 < lines.size() && is_caret_line(lines[i + 2])) {
            const std::size_t caret = lines[i + 2].find('^');
            if (caret >= 2) d.column = unsigned(caret - 2 + 1);
            i += 2;
        }
        out.push_back(std::move(d));
    }
    return out;
}

std::vector<PtxasResources> parse_ptxas_resources(const std::string& log) {
    std::vector<PtxasResources> out;
    for (const std::string& line : split_lines(log)) {
        const std::string entry = "Compiling entry function '";
        if (const std::size_t at = line.find(entry); at != std::string::npos) {
            const std::size_t begin = at + entry.size();
            const std::size_t end = line.find('\'', begin);
            PtxasResources r;
            r.function = line.substr(begin, end == std::string::npos ? std::string::npos : end - begin);
            out.push_back(r);
            continue;
        }
        if (out.empty()) continue;
        PtxasResources& r = out.back();
        if (line.find("bytes stack frame") != std::string::npos) {
            r.stack_bytes = number_before(line, "bytes stack frame");
            r.spill_bytes = number_before(line, "bytes spill stores");
        } else if (line.find("Used ") != std::string::npos && line.find("registers") != std::string::npos) {
            r.registers = int(number_before(line, "registers"));
            r.barriers = int(number_before(line, "barriers"));
            r.shared_bytes = number_before(line, "bytes smem");
        }
    }
    return out;
}

}  // namespace cvz::user
