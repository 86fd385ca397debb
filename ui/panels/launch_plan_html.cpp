#include "ui/panels/launch_plan_html.h"

#include <QCoreApplication>
#include <QLocale>

namespace cvz {

namespace {

QString number(std::uint64_t v) { return QLocale().toString(qulonglong(v)); }

QString tr(const char* text) { return QCoreApplication::translate("LaunchPanel", text); }

}  // namespace

QString launch_plan_html(const LaunchPlan& p) {
    const QString grid = p.one_d ? QStringLiteral("%1").arg(number(p.grid.x))
                                 : QStringLiteral("%1 × %2").arg(number(p.grid.x), number(p.grid.y));
    QString text = tr("<table>"
                      "<tr><td>Grid</td><td align=right><b>%1</b> blocks%2</td></tr>"
                      "<tr><td>Threads</td><td align=right>%3</td></tr>"
                      "<tr><td>Idle threads</td><td align=right><b>%4</b> (%5%)</td></tr>"
                      "<tr><td>Warps</td><td align=right>%6 (%7 per block)</td></tr>"
                      "<tr><td>Partial warps</td><td align=right>%8</td></tr>"
                      "<tr><td>Warps with idle threads</td><td align=right>%9 divergent, %10 all idle</td></tr>")
                       .arg(grid, p.blocks != p.grid.x ? QStringLiteral(" = %1").arg(number(p.blocks)) : QString(),
                            number(p.total_threads), number(p.idle_threads),
                            QString::number(100.0 * p.idle_fraction(), 'f', 1), number(p.total_warps),
                            number(p.warps_per_block), number(p.partial_warps), number(p.divergent_warps))
                       .arg(number(p.idle_warps));
    if (p.items_per_thread > 1)
        text += tr("<tr><td>Pixels per thread</td><td align=right>%1</td></tr>").arg(p.items_per_thread);
    if (p.passes > 1)
        text += tr("<tr><td>Grid-stride passes</td><td align=right>%1 (gridDim.y capped at 65535)</td></tr>").arg(p.passes);
    text += QStringLiteral("</table>");
    return text;
}

}  // namespace cvz
