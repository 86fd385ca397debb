#include "app/io/npy_reader.h"

#include <QList>

#include <cctype>
#include <cstring>

#include "app/io/visible_text.h"

namespace cvz {

namespace {

struct NpyHeader {
    char byte_order = '<';  // '<' little, '>' big, '|' not applicable
    char kind = 0;          // 'f' or 'i'
    int item_size = 0;
    bool fortran = false;
    QList<quint64> shape;
    qsizetype data_offset = 0;
};

// The header dict as numpy writes it and as ast.literal_eval would read it, no more:
// {'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }  then spaces and a newline.
// Exactly these three keys, each once; values are literals (strings, True/False/None, integers,
// tuples and lists of them). A name, a call or an expression is not a literal and is refused: a
// header is data, and np.load refuses those too.
class HeaderParser {
public:
    explicit HeaderParser(const QByteArray& text) : s_(text) {}

    bool parse(NpyHeader* h, QString* error) {
        skip_space();
        if (!eat('{')) return fail(error, QStringLiteral("the .npy header is not a dict literal (it must start with '{')"));
        bool have_descr = false, have_fortran = false, have_shape = false;
        skip_space();
        while (!eat('}')) {
            const qsizetype key_at = pos_;
            QByteArray key;
            if (!string_literal(&key)) {
                return fail(error, QStringLiteral("the .npy header has a key that is not a string literal: %1").arg(snippet(key_at)));
            }
            skip_space();
            if (!eat(':')) return fail(error, QStringLiteral("the .npy header has no ':' after the key '%1'").arg(visible_text(key)));
            skip_space();
            const qsizetype value_at = pos_;
            bool* seen = key == "descr" ? &have_descr : key == "fortran_order" ? &have_fortran : key == "shape" ? &have_shape : nullptr;
            if (!seen)
                return fail(error, QStringLiteral("the .npy header has an extra key '%1' (only 'descr', 'fortran_order' and 'shape' are allowed)")
                                       .arg(visible_text(key)));
            if (*seen) return fail(error, QStringLiteral("the .npy header gives the key '%1' twice").arg(visible_text(key)));
            *seen = true;
            if (!literal(0)) {
                const QString found = snippet(value_at);
                if (key == "shape")
                    return fail(error, QStringLiteral("malformed shape %1 (not a Python literal; a tuple of non-negative integers is expected)").arg(found));
                return fail(error, QStringLiteral("the .npy header's '%1' is not a Python literal: %2").arg(visible_text(key), found));
            }
            const QByteArray value = s_.mid(value_at, pos_ - value_at);
            if (key == "descr" && !read_descr(value, h, error)) return false;
            if (key == "fortran_order" && !read_fortran(value, h, error)) return false;
            if (key == "shape" && !read_shape(value, h, error)) return false;
            skip_space();
            if (eat(',')) {
                skip_space();
                continue;
            }
            skip_space();
            if (peek() != '}') return fail(error, QStringLiteral("the .npy header has %1 where ',' or '}' should follow the value of '%2'")
                                                      .arg(snippet(pos_), visible_text(key)));
        }
        // numpy pads with spaces and ends with a newline; anything else after the dict is refused.
        while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\n' || s_[pos_] == '\r' || s_[pos_] == '\t')) ++pos_;
        if (pos_ != s_.size()) return fail(error, QStringLiteral("the .npy header has text after its dict: %1").arg(snippet(pos_)));
        const char* missing = !have_descr ? "descr" : !have_fortran ? "fortran_order" : !have_shape ? "shape" : nullptr;
        if (missing) return fail(error, QStringLiteral("the .npy header lacks the key '%1'").arg(QLatin1String(missing)));
        return true;
    }

private:
    static constexpr int kMaxDepth = 8;  // literals nest no deeper in any dtype we could be given

    char peek() const { return pos_ < s_.size() ? s_[pos_] : '\0'; }
    bool eat(char c) {
        if (peek() != c) return false;
        ++pos_;
        return true;
    }
    void skip_space() {
        while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\t' || s_[pos_] == '\n' || s_[pos_] == '\r')) ++pos_;
    }
    static bool fail(QString* error, const QString& text) {
        *error = text;
        return false;
    }
    // The text from `at` to the end of that value (a ',' or '}' outside brackets), for messages.
    QString snippet(qsizetype at) const {
        qsizetype end = at;
        for (int depth = 0; end < s_.size(); ++end) {
            const char c = s_[end];
            if (c == '(' || c == '[' || c == '{') ++depth;
            else if ((c == ')' || c == ']') && depth > 0) --depth;
            else if (depth == 0 && (c == ',' || c == '}')) break;
        }
        const QByteArray text = s_.mid(at, end - at).trimmed();
        return text.isEmpty() ? QStringLiteral("(nothing)") : visible_text(text, 60);
    }

    // 'text' or "text", without escapes (no dtype string needs one).
    bool string_literal(QByteArray* out) {
        const char quote = peek();
        if (quote != '\'' && quote != '"') return false;
        const qsizetype start = ++pos_;
        while (pos_ < s_.size() && s_[pos_] != quote) {
            if (s_[pos_] == '\\' || s_[pos_] == '\n') return false;
            ++pos_;
        }
        if (pos_ == s_.size()) return false;
        *out = s_.mid(start, pos_ - start);
        ++pos_;
        return true;
    }
    bool word(const char* w) {
        const qsizetype n = qsizetype(std::strlen(w));
        if (s_.mid(pos_, n) != w) return false;
        const char after = pos_ + n < s_.size() ? s_[pos_ + n] : '\0';
        if (std::isalnum(static_cast<unsigned char>(after)) || after == '_') return false;  // "Falsey" is a name
        pos_ += n;
        return true;
    }
    bool integer() {
        const qsizetype start = pos_;
        if (peek() == '-' || peek() == '+') ++pos_;
        const qsizetype digits = pos_;
        while (std::isdigit(static_cast<unsigned char>(peek()))) ++pos_;
        if (pos_ == digits) {
            pos_ = start;
            return false;
        }
        const char after = peek();
        // 2*3, 1.5, 1e3, 0x10, 3j: an expression or not an integer; a letter right after is a name.
        if (std::isalnum(static_cast<unsigned char>(after)) || after == '_' || after == '.') {
            pos_ = start;
            return false;
        }
        return true;
    }
    // ( literal, literal, ... ) or [ ... ]; a trailing comma allowed.
    bool sequence(char open, char close, int depth) {
        if (!eat(open)) return false;
        skip_space();
        while (!eat(close)) {
            if (!literal(depth + 1)) return false;
            skip_space();
            if (eat(',')) {
                skip_space();
                continue;
            }
            skip_space();
            if (peek() != close) return false;
        }
        return true;
    }
    bool literal(int depth) {
        if (depth > kMaxDepth) return false;
        QByteArray ignored;
        const char c = peek();
        if (c == '\'' || c == '"') return string_literal(&ignored);
        if (c == '(') return sequence('(', ')', depth);
        if (c == '[') return sequence('[', ']', depth);
        return word("True") || word("False") || word("None") || integer();
    }

    static bool read_descr(const QByteArray& value, NpyHeader* h, QString* error) {
        // '<f4' and the like; anything else (a structured dtype, None, another string) is a dtype we
        // do not read.
        const QByteArray v = value;
        const bool quoted = v.size() >= 2 && (v.front() == '\'' || v.front() == '"') && v.back() == v.front();
        const QByteArray d = quoted ? v.mid(1, v.size() - 2) : QByteArray();
        bool size_ok = false;
        const int size = d.size() >= 3 && d.size() <= 4 ? d.mid(2).toInt(&size_ok) : 0;
        const bool shape_ok = d.size() >= 3 && QByteArray("<>|=").contains(d[0]) && std::isalpha(static_cast<unsigned char>(d[1])) && size_ok;
        if (shape_ok) {
            h->byte_order = d[0] == '=' ? '<' : d[0];  // '=' is native: little-endian on every host we build for
            h->kind = d[1];
            h->item_size = size;
        }
        const bool supported = shape_ok && (h->kind == 'f' || h->kind == 'i') && (size == 4 || size == 8);
        if (!supported) {
            *error = QStringLiteral("unsupported dtype %1 (float32, float64, int32 and int64 are)").arg(visible_text(value, 60));
            return false;
        }
        return true;
    }
    static bool read_fortran(const QByteArray& value, NpyHeader* h, QString* error) {
        if (value != "True" && value != "False") {
            *error = QStringLiteral("the .npy header's 'fortran_order' must be True or False, not %1").arg(visible_text(value, 40));
            return false;
        }
        h->fortran = value == "True";
        return true;
    }
    static bool read_shape(const QByteArray& value, NpyHeader* h, QString* error) {
        auto malformed = [&] {
            *error = QStringLiteral("malformed shape %1 (a tuple of non-negative integers is expected)").arg(visible_text(value, 60));
            return false;
        };
        if (value.size() < 2 || value.front() != '(' || value.back() != ')') return malformed();
        const QByteArray inner = value.mid(1, value.size() - 2);
        const QList<QByteArray> parts = inner.split(',');
        // Python: "(3)" is the integer 3, not a tuple; "(3,)" is a 1-tuple.
        if (parts.size() == 1 && !inner.trimmed().isEmpty()) return malformed();
        for (qsizetype i = 0; i < parts.size(); ++i) {
            const QByteArray p = parts[i].trimmed();
            if (p.isEmpty() && i == parts.size() - 1 && i > 0) break;  // the trailing comma
            if (p.isEmpty() && parts.size() == 1) break;                // ()
            bool ok = false;
            const quint64 v = p.toULongLong(&ok);
            if (!ok || p.startsWith('+')) return malformed();
            h->shape << v;
        }
        if (h->shape.size() != 2) {
            *error = QStringLiteral("the array is %1-D (shape %2); a matrix must be 2-D").arg(h->shape.size()).arg(visible_text(value, 60));
            return false;
        }
        return true;
    }

    const QByteArray s_;
    qsizetype pos_ = 0;
};

bool parse_header(const QByteArray& bytes, NpyHeader* h, QString* error) {
    static const char magic[] = "\x93NUMPY";
    if (bytes.size() < 10 || std::memcmp(bytes.constData(), magic, 6) != 0) {
        *error = QStringLiteral("not a .npy file (no \\x93NUMPY magic)");
        return false;
    }
    const int major = quint8(bytes[6]);
    qsizetype header_len = 0, start = 0;
    if (major == 1) {
        header_len = quint8(bytes[8]) | (quint8(bytes[9]) << 8);
        start = 10;
    } else if (major == 2 || major == 3) {
        if (bytes.size() < 12) {
            *error = QStringLiteral("truncated .npy header");
            return false;
        }
        header_len = qsizetype(quint32(quint8(bytes[8])) | quint32(quint8(bytes[9])) << 8 |
                               quint32(quint8(bytes[10])) << 16 | quint32(quint8(bytes[11])) << 24);
        start = 12;
    } else {
        *error = QStringLiteral(".npy format version %1 is not supported (1, 2 and 3 are)").arg(major);
        return false;
    }
    if (header_len > bytes.size() - start) {
        *error = QStringLiteral("truncated .npy header (declares %1 bytes, %2 present)").arg(header_len).arg(bytes.size() - start);
        return false;
    }
    h->data_offset = start + header_len;
    return HeaderParser(bytes.mid(start, header_len)).parse(h, error);
}

template <class T>
T read_value(const char* p, bool swap) {
    unsigned char b[sizeof(T)];
    std::memcpy(b, p, sizeof(T));
    if (swap)
        for (std::size_t i = 0; i < sizeof(T) / 2; ++i) std::swap(b[i], b[sizeof(T) - 1 - i]);
    T v;
    std::memcpy(&v, b, sizeof(T));
    return v;
}

float read_element(const char* p, const NpyHeader& h) {
    const bool swap = h.byte_order == '>';  // we build for little-endian hosts only
    if (h.kind == 'f') return h.item_size == 4 ? read_value<float>(p, swap) : float(read_value<double>(p, swap));
    return h.item_size == 4 ? float(read_value<std::int32_t>(p, swap)) : float(read_value<std::int64_t>(p, swap));
}

}  // namespace

Matrix parse_npy_matrix(const QByteArray& bytes, QString* error) {
    NpyHeader h;
    if (!parse_header(bytes, &h, error)) return {};
    const quint64 rows = h.shape[0], cols = h.shape[1];
    if (QString e = check_matrix_dimensions(rows, cols); !e.isEmpty()) {
        *error = e;
        return {};
    }
    const quint64 need = rows * cols * quint64(h.item_size);
    const quint64 have = quint64(bytes.size() - h.data_offset);
    if (have < need) {
        *error = QStringLiteral("truncated data: %1x%2 of %3-byte elements needs %4 bytes, the file has %5")
                     .arg(rows).arg(cols).arg(h.item_size).arg(need).arg(have);
        return {};
    }
    // More bytes than the header declares: another array appended (np.save twice to one file) or a
    // header that understates the shape. Either way the file is not the matrix it says it is.
    if (have > need) {
        *error = QStringLiteral("%1 bytes after the data: %2x%3 of %4-byte elements needs %5 bytes, the file has %6")
                     .arg(have - need).arg(rows).arg(cols).arg(h.item_size).arg(need).arg(have);
        return {};
    }
    Matrix m;
    m.rows = std::uint32_t(rows);
    m.cols = std::uint32_t(cols);
    m.data.resize(rows * cols);
    const char* base = bytes.constData() + h.data_offset;
    for (quint64 r = 0; r < rows; ++r)
        for (quint64 c = 0; c < cols; ++c) {
            const quint64 src = h.fortran ? c * rows + r : r * cols + c;
            m.data[r * cols + c] = read_element(base + src * quint64(h.item_size), h);
        }
    return m;
}

}  // namespace cvz
