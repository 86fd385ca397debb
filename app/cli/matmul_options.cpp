#include "matmul_options.h"

#include "app/launch_config.h"

namespace cvz::cli {

std::optional<MatmulKernel> parse_matmul_kernel(const QString& text) {
    const QString t = text.trimmed().toLower();
    if (t == QLatin1String("naive")) return MatmulKernel::Naive;
    if (t == QLatin1String("tiled")) return MatmulKernel::Tiled;
    return std::nullopt;
}

std::optional<qulonglong> parse_tile_number(const QString& text) {
    // Signed, so that "-8" is a number (a tile that does not exist) rather than gibberish.
    bool ok = false;
    const qlonglong v = text.trimmed().toLongLong(&ok);
    if (!ok) return std::nullopt;
    return v < 0 ? qulonglong(0) : qulonglong(v);
}

QString tile_error(qulonglong tile) {
    if (tile == 8 || tile == 16 || tile == 32) return {};
    return QStringLiteral("the tiled kernel is built for TILE = 8, 16 or 32 (a TILExTILE block with two "
                          "TILExTILE float tiles in shared memory)");
}

QString naive_block_error(const QString& text, unsigned* bx, unsigned* by) {
    const LaunchConfigParse parsed = parse_launch_config(text);
    if (!parsed.ok()) return parsed.error;
    if (parsed.shape.kind != GridKind::TwoD)
        return QStringLiteral("matmul needs a 2-D block XxY (e.g. 16x16): threads map x to columns and y to rows "
                              "of the output");
    *bx = parsed.shape.block.x;
    *by = parsed.shape.block.y;
    return {};
}

}  // namespace cvz::cli
