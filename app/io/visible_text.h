#pragma once
#include <QByteArray>
#include <QString>

namespace cvz {

// `bytes` as a message can show them: invisible characters escaped, so that a user sees what is in
// the file. Tab, CR, LF as \t \r \n; other ASCII controls (NUL...) and bytes that are not UTF-8 as
// \xNN; invisible Unicode (byte-order mark, zero-width space, no-break space...) as U+XXXX; the rest
// as it is. At most `max_chars` characters, then "…".
QString visible_text(const QByteArray& bytes, int max_chars = 40);

// Whether `bytes` is printable UTF-8 text: valid UTF-8, no control or invisible format characters.
bool is_printable_utf8(const QByteArray& bytes);

}  // namespace cvz
