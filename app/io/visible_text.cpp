#include "app/io/visible_text.h"

#include <optional>
#include <utility>

namespace cvz {

namespace {

// One UTF-8 sequence at `i`: its code point and length; nullopt where the bytes are not UTF-8
// (a bad lead or continuation byte, an overlong form, a surrogate, beyond U+10FFFF).
std::optional<std::pair<char32_t, int>> decode_utf8(const QByteArray& b, qsizetype i) {
    const auto at = [&](qsizetype k) { return static_cast<unsigned char>(b[k]); };
    const unsigned char c = at(i);
    const int len = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
    if (len == 0 || i + len > b.size()) return std::nullopt;
    char32_t cp = len == 1 ? c : len == 2 ? (c & 0x1Fu) : len == 3 ? (c & 0x0Fu) : (c & 0x07u);
    for (int k = 1; k < len; ++k) {
        if ((at(i + k) & 0xC0) != 0x80) return std::nullopt;
        cp = (cp << 6) | (at(i + k) & 0x3Fu);
    }
    constexpr char32_t kMin[] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < kMin[len] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return std::nullopt;
    return std::pair{cp, len};
}

bool invisible(char32_t cp) {
    if (cp < 0x20 || cp == 0x7F) return true;
    switch (QChar::category(cp)) {
        case QChar::Other_Control:
        case QChar::Other_Format:  // U+FEFF, U+200B...
        case QChar::Other_NotAssigned:
        case QChar::Other_PrivateUse:
        case QChar::Separator_Line:
        case QChar::Separator_Paragraph: return true;
        case QChar::Separator_Space: return cp != ' ';  // U+00A0 looks like a space and is not one
        default: return false;
    }
}

}  // namespace

QString visible_text(const QByteArray& bytes, int max_chars) {
    QString out;
    int shown = 0;
    for (qsizetype i = 0; i < bytes.size(); ++shown) {
        if (shown == max_chars) {
            out += QChar(0x2026);
            break;
        }
        const unsigned char c = static_cast<unsigned char>(bytes[i]);
        const auto d = decode_utf8(bytes, i);
        if (c == '\t') out += QStringLiteral("\\t");
        else if (c == '\r') out += QStringLiteral("\\r");
        else if (c == '\n') out += QStringLiteral("\\n");
        else if (!d || d->first < 0x80) {
            if (d && !invisible(d->first)) out += QLatin1Char(char(c));
            else out += QStringLiteral("\\x%1").arg(uint(c), 2, 16, QLatin1Char('0'));
        } else if (invisible(d->first)) {
            out += QStringLiteral("U+%1").arg(QString::number(uint(d->first), 16).toUpper().rightJustified(4, QLatin1Char('0')));
        } else {
            const char32_t cp = d->first;
            out += QString::fromUcs4(&cp, 1);
        }
        i += d ? d->second : 1;
    }
    return out;
}

bool is_printable_utf8(const QByteArray& bytes) {
    for (qsizetype i = 0; i < bytes.size();) {
        const auto d = decode_utf8(bytes, i);
        if (!d || invisible(d->first)) return false;
        i += d->second;
    }
    return true;
}

}  // namespace cvz
