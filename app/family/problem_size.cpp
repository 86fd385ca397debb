#include "app/family/problem_size.h"

#include <QStringList>

namespace cvz {

std::vector<std::uint32_t> parse_problem_size(const QString& text, int parts, std::uint32_t most, QString* error) {
    const QStringList fields = text.trimmed().toLower().split(QLatin1Char('x'));
    auto fail = [&](const QString& why) {
        if (error) *error = QStringLiteral("size '%1' %2").arg(text, why);
        return std::vector<std::uint32_t>{};
    };
    if (fields.size() != parts)
        return fail(QStringLiteral("is not %1 numbers joined by 'x'").arg(parts));
    std::vector<std::uint32_t> sizes;
    for (const QString& f : fields) {
        bool ok = false;
        const qulonglong v = f.trimmed().toULongLong(&ok);
        if (!ok || v == 0) return fail(QStringLiteral("has '%1', which is not a positive whole number").arg(f));
        if (v > most) return fail(QStringLiteral("has %1, above the largest accepted (%2)").arg(v).arg(most));
        sizes.push_back(std::uint32_t(v));
    }
    return sizes;
}

}  // namespace cvz
