#include "source_tokens.h"

#include <cctype>

namespace cvz::user {

namespace {

bool ident_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

class Lexer {
public:
    explicit Lexer(const std::string& s) : s_(s) {}

    std::vector<Token> run() {
        std::vector<Token> out;
        bool line_start = true;  // only blanks since the last newline: a '#' there starts a directive
        while (i_ < s_.size()) {
            const char c = s_[i_];
            if (c == '\n') {
                advance(1);
                line_start = true;
                continue;
            }
            if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
                advance(1);
                continue;
            }
            if (c == '\\' && i_ + 1 < s_.size() && s_[i_ + 1] == '\n') {  // a continued line
                advance(2);
                continue;
            }
            if (c == '/' && peek(1) == '/') {
                while (i_ < s_.size() && s_[i_] != '\n') advance(1);
                continue;
            }
            if (c == '/' && peek(1) == '*') {
                advance(2);
                while (i_ < s_.size() && !(s_[i_] == '*' && peek(1) == '/')) advance(1);
                advance(i_ < s_.size() ? 2 : 0);
                continue;
            }
            Token t;
            t.offset = i_;
            t.line = line_;
            t.column = column_;
            if (c == '#' && line_start) {
                t.kind = Token::Kind::Directive;
                // To the end of the logical line; a comment inside it is kept (nothing reads it).
                while (i_ < s_.size() && s_[i_] != '\n') advance(s_[i_] == '\\' && peek(1) == '\n' ? 2 : 1);
            } else if (ident_start(c)) {
                t.kind = Token::Kind::Identifier;
                while (i_ < s_.size() && ident_char(s_[i_])) advance(1);
                // A prefixed literal (u8"..", L'x', R"(..)") is one literal token.
                if (i_ < s_.size() && (s_[i_] == '"' || s_[i_] == '\'')) {
                    const std::string prefix = s_.substr(t.offset, i_ - t.offset);
                    if (prefix == "u8" || prefix == "u" || prefix == "U" || prefix == "L" || prefix == "R" ||
                        prefix == "u8R" || prefix == "uR" || prefix == "UR" || prefix == "LR") {
                        t.kind = Token::Kind::Literal;
                        if (prefix.back() == 'R' && s_[i_] == '"') raw_string();
                        else quoted(s_[i_]);
                    }
                }
            } else if (std::isdigit(static_cast<unsigned char>(c)) ||
                       (c == '.' && std::isdigit(static_cast<unsigned char>(peek(1))))) {
                t.kind = Token::Kind::Number;
                // pp-number: digits, letters, '.', '\'' separators and exponent signs.
                while (i_ < s_.size()) {
                    const char d = s_[i_];
                    if ((d == '+' || d == '-') && (std::tolower(static_cast<unsigned char>(s_[i_ - 1])) == 'e' ||
                                                   std::tolower(static_cast<unsigned char>(s_[i_ - 1])) == 'p')) {
                        advance(1);
                    } else if (ident_char(d) || d == '.' || d == '\'') {
                        advance(1);
                    } else {
                        break;
                    }
                }
            } else if (c == '"' || c == '\'') {
                t.kind = Token::Kind::Literal;
                quoted(c);
            } else {
                t.kind = Token::Kind::Punct;
                const bool two = (c == ':' && peek(1) == ':') || (c == '-' && peek(1) == '>');
                advance(two ? 2 : 1);
            }
            t.length = i_ - t.offset;
            t.text = s_.substr(t.offset, t.length);
            line_start = false;
            out.push_back(std::move(t));
        }
        return out;
    }

private:
    char peek(std::size_t k) const { return i_ + k < s_.size() ? s_[i_ + k] : '\0'; }
    void advance(std::size_t n) {
        for (std::size_t k = 0; k < n && i_ < s_.size(); ++k, ++i_) {
            if (s_[i_] == '\n') {
                ++line_;
                column_ = 1;
            } else {
                ++column_;
            }
        }
    }
    // From the opening quote to the closing one, escapes skipped; an unterminated literal ends at
    // the line's end (the compiler will say so).
    void quoted(char q) {
        advance(1);
        while (i_ < s_.size() && s_[i_] != q && s_[i_] != '\n') advance(s_[i_] == '\\' ? 2 : 1);
        if (i_ < s_.size() && s_[i_] == q) advance(1);
    }
    void raw_string() {
        const std::size_t open = s_.find('(', i_);
        if (open == std::string::npos) {
            quoted('"');
            return;
        }
        const std::string close = ")" + s_.substr(i_ + 1, open - i_ - 1) + "\"";
        const std::size_t end = s_.find(close, open);
        advance((end == std::string::npos ? s_.size() : end + close.size()) - i_);
    }

    const std::string& s_;
    std::size_t i_ = 0;
    unsigned line_ = 1, column_ = 1;
};

}  // namespace

std::vector<Token> tokenize(const std::string& text) { return Lexer(text).run(); }

}  // namespace cvz::user
