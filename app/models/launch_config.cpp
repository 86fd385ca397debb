#include "app/models/launch_config.h"

#include <QRegularExpression>

#include "kernels/core/launch_limits.h"
#include "kernels/grayscale/grayscale_launch.h"

namespace cvz {

namespace {

// A positive decimal that fits the block limits' range check without overflowing.
bool parse_dim(const QString& text, unsigned* out) {
    bool ok = false;
    const qulonglong v = text.toULongLong(&ok);
    if (!ok || v > 0xFFFFFFFFull) return false;
    *out = unsigned(v);
    return true;
}

}  // namespace

LaunchConfigParse parse_launch_config(const QString& text) {
    LaunchConfigParse r;
    static const QRegularExpression one_d(QStringLiteral("^\\s*(\\d+)\\s*$"));
    static const QRegularExpression two_d(QStringLiteral("^\\s*(\\d+)\\s*[xX×]\\s*(\\d+)\\s*$"));
    unsigned x = 0, y = 0;
    if (const auto m = one_d.match(text); m.hasMatch()) {
        if (!parse_dim(m.captured(1), &x)) {
            r.error = QStringLiteral("\"%1\" is too large for a block dimension").arg(text.trimmed());
            return r;
        }
        r.shape = LaunchShape::one_d(x);
    } else if (const auto m2 = two_d.match(text); m2.hasMatch()) {
        if (!parse_dim(m2.captured(1), &x) || !parse_dim(m2.captured(2), &y)) {
            r.error = QStringLiteral("\"%1\" is too large for a block dimension").arg(text.trimmed());
            return r;
        }
        r.shape = LaunchShape::two_d(x, y);
    } else {
        r.error = QStringLiteral("\"%1\" is not a block shape: give N threads per block (1-D, e.g. 256) "
                                 "or XxY (2-D, e.g. 16x16)")
                      .arg(text);
        return r;
    }
    r.error = validate_launch_config(r.shape);
    return r;
}

QString validate_launch_config(const LaunchShape& shape) {
    if (is_one_d(shape) && (shape.block.y != 1 || shape.block.z != 1))
        return QStringLiteral("a 1-D launch has blockDim.y = blockDim.z = 1");
    return QString::fromStdString(validate_block(shape.block));
}

}  // namespace cvz
