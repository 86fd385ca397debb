#pragma once
#include <QLocale>
#include <QString>

namespace cvz {

// "1 wave", "7 waves", "1,024 threads": a count with its noun in the right number. Qt's "%n wave(s)"
// needs a translation file to say "1 wave" in English, and the app ships none.
inline QString counted(qulonglong n, const QString& one, const QString& many) {
    return QLocale(QLocale::English).toString(n) + QLatin1Char(' ') + (n == 1 ? one : many);
}

}  // namespace cvz
