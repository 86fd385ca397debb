#pragma once
// A token pass over the user's CUDA C, enough to find kernels and rewrite `__shared__` declarations
// without a parser: identifiers, numbers and punctuation with their place; comments, string and
// character literals and preprocessor lines are recognised so that nothing inside them is taken for code.
#include <cstddef>
#include <string>
#include <vector>

namespace cvz::user {

struct Token {
    enum class Kind : unsigned char { Identifier, Number, Punct, Literal, Directive } kind = Kind::Punct;
    std::string text;        // a Directive's text is its whole logical line
    std::size_t offset = 0;  // into the source
    std::size_t length = 0;  // in the source (a directive's includes its continuation lines)
    unsigned line = 1;       // 1-based
    unsigned column = 1;     // 1-based, in bytes
};

// Every token of `text` in order, comments left out. Punctuation is one character a token except
// "::" and "->", the two the scanner's callers need whole.
std::vector<Token> tokenize(const std::string& text);

}  // namespace cvz::user
