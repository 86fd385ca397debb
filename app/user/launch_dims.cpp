#include "app/user/launch_dims.h"

#include <QRegularExpression>

namespace cvz {

std::optional<Dim3> parse_dims(const QString& text, QString* error) {
    static const QRegularExpression form(QStringLiteral("^\\s*(\\d+)(?:\\s*[xX×]\\s*(\\d+))?(?:\\s*[xX×]\\s*(\\d+))?\\s*$"));
    const QRegularExpressionMatch m = form.match(text);
    if (!m.hasMatch()) {
        *error = QStringLiteral("'%1' is not N, XxY or XxYxZ").arg(text);
        return std::nullopt;
    }
    Dim3 d;
    unsigned* parts[3] = {&d.x, &d.y, &d.z};
    for (int i = 0; i < 3; ++i) {
        if (m.captured(i + 1).isEmpty()) continue;
        bool ok = false;
        const qulonglong v = m.captured(i + 1).toULongLong(&ok);
        if (!ok || v == 0 || v > 0x7fffffffULL) {
            *error = QStringLiteral("'%1': each size must be 1 to 2147483647").arg(text);
            return std::nullopt;
        }
        *parts[i] = unsigned(v);
    }
    return d;
}

QString dims_text(const Dim3& d) {
    if (d.z != 1) return QStringLiteral("%1x%2x%3").arg(d.x).arg(d.y).arg(d.z);
    if (d.y != 1) return QStringLiteral("%1x%2").arg(d.x).arg(d.y);
    return QString::number(d.x);
}

QString block_error(const Dim3& block) {
    if (block.x > 1024 || block.y > 1024 || block.z > 64)
        return QStringLiteral("a block is at most 1024 x 1024 x 64");
    if (block.volume() > 1024)
        return QStringLiteral("%1 has %2 threads: a block has at most 1024").arg(dims_text(block)).arg(block.volume());
    return {};
}

QString grid_error(const Dim3& grid) {
    if (grid.x == 0 || grid.y == 0 || grid.z == 0) return QStringLiteral("the grid is empty");
    if (grid.x > 0x7fffffffU || grid.y > 65535 || grid.z > 65535)
        return QStringLiteral("grid %1 is beyond CUDA's limits (x < 2^31, y and z at most 65535)").arg(dims_text(grid));
    return {};
}

}  // namespace cvz
