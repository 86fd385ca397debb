#include "source_scan.h"

#include <cstddef>

#include "source_tokens.h"

namespace cvz::user {

namespace {

using Kind = Token::Kind;

bool is(const Token& t, const char* text) { return t.text == text; }

// Qualifiers that say nothing about what a parameter is.
bool ignorable(const std::string& s) {
    return s == "__restrict__" || s == "__restrict" || s == "restrict" || s == "volatile" || s == "register";
}

// "const unsigned char *" from a parameter's type tokens: const before the pointer kept, const after
// it (the pointer's own) dropped, '*' written against the type.
std::string normalise_type(const std::vector<const Token*>& type) {
    std::string base, stars;
    bool leading_const = false;
    for (const Token* t : type) {
        if (ignorable(t->text)) continue;
        if (t->text == "*" || t->text == "&") {
            stars += t->text;
            continue;
        }
        if (t->text == "const") {
            if (stars.empty()) leading_const = true;  // `char const*` is `const char*`
            continue;
        }
        if (!base.empty() && base.back() != ':' && t->text != "::") base += ' ';
        base += t->text;
    }
    // "signed int", "unsigned int" and plain "int" are the ints the families pass; "unsigned" alone too.
    if (base == "signed int" || base == "signed") base = "int";
    if (base == "unsigned") base = "unsigned int";
    return (leading_const ? "const " : "") + base + stars;
}

KernelParam read_param(const std::vector<const Token*>& tokens) {
    KernelParam p;
    std::vector<const Token*> type = tokens;
    // The name is the last identifier, when something stands before it that is not a qualifier
    // (`int n`; but `int` and `unsigned char*` alone are unnamed).
    if (type.size() >= 2 && type.back()->kind == Kind::Identifier && !ignorable(type.back()->text) &&
        type.back()->text != "const") {
        std::size_t before = 0;
        for (std::size_t k = 0; k + 1 < type.size(); ++k)
            if (!ignorable(type[k]->text) && type[k]->text != "const") ++before;
        static const char* const kTypeWords[] = {"int", "char", "short", "long", "float", "double", "signed", "unsigned", "bool"};
        bool builtin_word = false;
        for (const char* w : kTypeWords) builtin_word |= type.back()->text == w;
        // `unsigned int` has no name; `unsigned char x` has one.
        const bool only_type_words = [&] {
            for (const Token* t : type)
                if (t->kind == Kind::Identifier && !ignorable(t->text) && t->text != "const") {
                    bool w = false;
                    for (const char* k : kTypeWords) w |= t->text == k;
                    if (!w) return false;
                }
            return true;
        }();
        if (before > 0 && !(builtin_word && only_type_words)) {
            p.name = type.back()->text;
            type.pop_back();
        }
    }
    p.type = normalise_type(type);
    p.kind = param_kind(p.type);
    return p;
}

// The index just past the bracket that closes the one at `open`, or tokens.size().
std::size_t matching(const std::vector<Token>& tokens, std::size_t open) {
    const std::string o = tokens[open].text, c = o == "(" ? ")" : o == "[" ? "]" : o == "{" ? "}" : ">";
    int depth = 0;
    for (std::size_t k = open; k < tokens.size(); ++k) {
        if (tokens[k].text == o) ++depth;
        else if (tokens[k].text == c && --depth == 0) return k + 1;
    }
    return tokens.size();
}

}  // namespace

ParamKind param_kind(const std::string& t) {
    if (t == "unsigned char*" || t == "const unsigned char*" || t == "uint8_t*" || t == "const uint8_t*" ||
        t == "std::uint8_t*" || t == "const std::uint8_t*")
        return ParamKind::BytePtr;
    if (t == "float*" || t == "const float*") return ParamKind::FloatPtr;
    if (t == "int" || t == "const int") return ParamKind::Int;
    return ParamKind::Other;
}

std::vector<KernelSignature> find_kernels(const SourceFile& file) {
    const std::vector<Token> tokens = tokenize(file.text);
    std::vector<KernelSignature> out;
    for (std::size_t k = 0; k < tokens.size(); ++k) {
        if (tokens[k].kind != Kind::Identifier || !is(tokens[k], "__global__")) continue;
        // Up to the first '(' that follows an identifier: skip `void`, `static`, `__launch_bounds__(..)`.
        std::size_t j = k + 1;
        while (j < tokens.size()) {
            if (is(tokens[j], "__launch_bounds__") && j + 1 < tokens.size() && is(tokens[j + 1], "(")) {
                j = matching(tokens, j + 1);
                continue;
            }
            if (j + 1 < tokens.size() && tokens[j].kind == Kind::Identifier && is(tokens[j + 1], "(")) break;
            if (is(tokens[j], ";") || is(tokens[j], "{")) break;
            ++j;
        }
        if (j + 1 >= tokens.size() || !is(tokens[j + 1], "(")) continue;
        KernelSignature s;
        s.name = tokens[j].text;
        s.line = tokens[j].line;
        const std::size_t close = matching(tokens, j + 1);  // past ')'
        std::vector<const Token*> param;
        int depth = 0;
        for (std::size_t p = j + 2; p + 1 < close; ++p) {
            const Token& t = tokens[p];
            if (t.text == "(" || t.text == "[" || t.text == "<") ++depth;
            if (t.text == ")" || t.text == "]" || t.text == ">") --depth;
            if (depth == 0 && t.text == ",") {
                s.params.push_back(read_param(param));
                param.clear();
                continue;
            }
            param.push_back(&t);
        }
        // `()` and `(void)` take nothing.
        if (!param.empty() && !(param.size() == 1 && is(*param[0], "void"))) s.params.push_back(read_param(param));
        // A declaration without a body (`__global__ void k(int);`) is not a second kernel.
        if (close < tokens.size() && is(tokens[close], ";")) continue;
        out.push_back(std::move(s));
        k = close > 0 ? close - 1 : k;
    }
    return out;
}

Status select_kernel(const SourceFile& file, const std::vector<KernelSignature>& kernels, const std::string& name,
                     KernelSignature* out) {
    std::string listed;
    for (const KernelSignature& s : kernels) listed += (listed.empty() ? "" : ", ") + s.name;
    if (!name.empty()) {
        for (const KernelSignature& s : kernels)
            if (s.name == name) {
                *out = s;
                return Status::ok();
            }
        return Status::error(ErrorKind::InvalidInput,
                             file.name + ": no __global__ function named " + name +
                                 (kernels.empty() ? " (the file has none)" : " (the file has " + listed + ")"));
    }
    if (kernels.empty())
        return Status::error(ErrorKind::InvalidInput,
                             file.name + ": no __global__ function found (a kernel is written `__global__ void NAME(...)`)");
    if (kernels.size() > 1)
        return Status::error(ErrorKind::InvalidInput,
                             file.name + " has " + std::to_string(kernels.size()) + " __global__ functions (" + listed +
                                 "): choose one with --kernel-name NAME");
    *out = kernels.front();
    return Status::ok();
}

Status select_kernel(const std::vector<KernelSignature>& kernels, const std::string& name, KernelSignature* out) {
    return select_kernel(SourceFile{"the file", {}}, kernels, name, out);
}

std::string KernelSignature::text() const {
    std::string s = name + "(";
    for (std::size_t k = 0; k < params.size(); ++k) {
        if (k) s += ", ";
        s += params[k].type;
        if (!params[k].name.empty()) s += ' ' + params[k].name;
    }
    return s + ")";
}

bool fits(const KernelSignature& s, const CallForm& form) {
    if (s.params.size() != form.params.size()) return false;
    for (std::size_t k = 0; k < form.params.size(); ++k)
        if (s.params[k].kind != form.params[k] || s.params[k].kind == ParamKind::Other) return false;
    return true;
}

std::string format(const Diagnostic& d) {
    std::string s = d.file.empty() ? std::string("<kernel>") : d.file;
    if (d.line) {
        s += ':' + std::to_string(d.line);
        if (d.column) s += ':' + std::to_string(d.column);
    }
    return s + (d.error ? ": error: " : ": warning: ") + d.message;
}

}  // namespace cvz::user
