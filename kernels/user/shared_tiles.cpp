#include "shared_tiles.h"

#include <cctype>
#include <cstdlib>
#include <map>

#include "source_tokens.h"

namespace cvz::user {

namespace {

// An integer literal's value (decimal, with an optional u/U suffix); -1 when `text` is not one.
long long integer(const std::string& text) {
    if (text.empty() || text[0] < '0' || text[0] > '9') return -1;
    char* end = nullptr;
    const long long v = std::strtoll(text.c_str(), &end, 10);
    std::string rest = end;
    for (char& c : rest) c = char(std::tolower(static_cast<unsigned char>(c)));
    return rest.empty() || rest == "u" || rest == "l" || rest == "ul" || rest == "lu" ? v : -1;
}

// Names given an integer by the file: `#define NAME N` and `[static] const[expr] int|unsigned NAME = N;`.
std::map<std::string, long long> integer_names(const std::vector<Token>& t) {
    std::map<std::string, long long> names;
    for (std::size_t k = 0; k < t.size(); ++k) {
        if (t[k].kind == Token::Kind::Directive) {
            const std::vector<Token> d = tokenize(t[k].text.substr(t[k].text.find('#') + 1));
            if (d.size() == 3 && d[0].text == "define" && d[1].kind == Token::Kind::Identifier && integer(d[2].text) >= 0)
                names[d[1].text] = integer(d[2].text);
            continue;
        }
        if (t[k].text != "const" && t[k].text != "constexpr") continue;
        std::size_t j = k + 1;
        while (j < t.size() && (t[j].text == "int" || t[j].text == "unsigned" || t[j].text == "const")) ++j;
        if (j == k + 1 || j + 3 >= t.size()) continue;
        if (t[j].kind == Token::Kind::Identifier && t[j + 1].text == "=" && integer(t[j + 2].text) >= 0 && t[j + 3].text == ";")
            names[t[j].text] = integer(t[j + 2].text);
    }
    return names;
}

}  // namespace

std::vector<SharedArray> static_shared_arrays(const SourceFile& file) {
    const std::vector<Token> t = tokenize(file.text);
    const std::map<std::string, long long> names = integer_names(t);
    std::vector<SharedArray> out;
    for (std::size_t k = 0; k < t.size(); ++k) {
        if (t[k].kind != Token::Kind::Identifier || t[k].text != "__shared__") continue;
        if (k > 0 && t[k - 1].text == "extern") continue;
        // The declarator: the first identifier followed by '[' before the ';'.
        std::size_t j = k + 1;
        while (j + 1 < t.size() && t[j].text != ";" && !(t[j].kind == Token::Kind::Identifier && t[j + 1].text == "[")) ++j;
        if (j + 1 >= t.size() || t[j].text == ";") continue;
        SharedArray a;
        a.name = t[j].text;
        a.line = t[j].line;
        for (j = j + 1; j + 2 < t.size() && t[j].text == "["; j += 3) {
            long long v = -1;
            if (t[j + 1].kind == Token::Kind::Number) v = integer(t[j + 1].text);
            else if (auto it = names.find(t[j + 1].text); it != names.end()) v = it->second;
            if (t[j + 2].text != "]") {  // an expression: its size is not read
                a.dims.push_back(0);
                while (j < t.size() && t[j].text != "]") ++j;
                j -= 2;
                continue;
            }
            a.dims.push_back(v > 0 && v < (1LL << 31) ? unsigned(v) : 0u);
        }
        out.push_back(std::move(a));
    }
    return out;
}

unsigned square_tile_side(const std::vector<SharedArray>& arrays) {
    unsigned side = 0;
    for (const SharedArray& a : arrays) {
        if (a.dims.size() != 2) continue;
        if (a.dims[0] == 0 || a.dims[0] != a.dims[1]) return 0;
        if (side && side != a.dims[0]) return 0;
        side = a.dims[0];
    }
    return side;
}

}  // namespace cvz::user
