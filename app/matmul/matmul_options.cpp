#include "matmul_options.h"

#include <QStringList>

#include <set>

#include "app/models/launch_config.h"
#include "kernels/catalogue/kernel_catalogue.h"
#include "kernels/grayscale/grayscale_launch.h"

namespace cvz::cli {

namespace {

QString or_list(const QStringList& items) {
    if (items.size() <= 1) return items.join(QString());
    return QStringList(items.mid(0, items.size() - 1)).join(QStringLiteral(", ")) + QStringLiteral(" or ") + items.last();
}

}  // namespace

std::optional<qulonglong> parse_tile_number(const QString& text) {
    // Signed, so that "-8" is a number (a tile that does not exist) rather than gibberish.
    bool ok = false;
    const qlonglong v = text.trimmed().toLongLong(&ok);
    if (!ok) return std::nullopt;
    return v < 0 ? qulonglong(0) : qulonglong(v);
}

QString tile_error(const KernelInfo& kernel, qulonglong tile) {
    for (unsigned t : kernel.tiles)
        if (tile == t) return {};
    QStringList tiles;
    for (unsigned t : kernel.tiles) tiles << QString::number(t);
    if (kernel.block != BlockRule::Tile)  // split-K: the slices of K it splits into
        return QStringLiteral("the %1 kernel splits K into %2 slices (0: chosen from the shape)").arg(short_name(kernel), or_list(tiles));
    return QStringLiteral("the %1 kernel is built for TILE = %2 (a TILExTILE block with two TILExTILE float tiles in "
                          "shared memory)")
        .arg(short_name(kernel), or_list(tiles));
}

QString tile_choices(KernelFamily family) {
    std::set<unsigned> all;
    for (const KernelInfo& k : family_catalogue(family)) all.insert(k.tiles.begin(), k.tiles.end());
    QStringList tiles;
    for (unsigned t : all) tiles << QString::number(t);
    return or_list(tiles);
}

QString short_name(const KernelInfo& kernel) {
    const QString name = QString::fromStdString(kernel.name);
    const int cut = name.indexOf(QLatin1Char('_'));
    return cut > 0 ? name.mid(cut + 1) : name;
}

QString kernels_with(KernelFamily family, const std::function<bool(const KernelInfo&)>& pick) {
    QStringList names;
    for (const KernelInfo& k : family_catalogue(family))
        if (pick(k)) names << short_name(k);
    return or_list(names);
}

std::function<bool(const KernelInfo&)> block_rule_is(BlockRule rule) {
    return [rule](const KernelInfo& k) { return k.block == rule; };
}

QString naive_block_error(const QString& text, unsigned* bx, unsigned* by) {
    const LaunchConfigParse parsed = parse_launch_config(text);
    if (!parsed.ok()) return parsed.error;
    if (is_one_d(parsed.shape))
        return QStringLiteral("matmul needs a 2-D block XxY (e.g. 16x16): threads map x to columns and y to rows "
                              "of the output");
    *bx = parsed.shape.block.x;
    *by = parsed.shape.block.y;
    return {};
}

}  // namespace cvz::cli
