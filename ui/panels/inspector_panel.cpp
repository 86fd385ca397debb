#include "ui/panels/inspector_panel.h"

#include <algorithm>

#include <QLabel>
#include <QScrollArea>
#include <QTextDocument>
#include <QVBoxLayout>

#include "kernels/core/index_math.h"

namespace cvz {

namespace {

QString num(std::uint64_t v) { return QString::number(qulonglong(v)); }

QString row(const QString& name, const QString& value) {
    return QStringLiteral("<tr><td style='padding-right:8px'>%1</td><td>%2</td></tr>").arg(name, value);
}

QString code(const QString& text) { return QStringLiteral("<code>%1</code>").arg(text.toHtmlEscaped()); }

}  // namespace

InspectorPanel::InspectorPanel(QWidget* parent) : QWidget(parent) {
    auto* v = new QVBoxLayout(this);
    v->setContentsMargins(4, 4, 4, 4);
    auto* scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setFrameShape(QFrame::NoFrame);
    text_ = new QLabel(scroll);
    text_->setObjectName(QStringLiteral("inspectorText"));
    text_->setTextFormat(Qt::RichText);
    text_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    text_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    text_->setWordWrap(true);
    scroll->setWidget(text_);
    v->addWidget(scroll);
    showHint(tr("Hover over a pixel, or click one to keep it, to see which thread made it."));
}

void InspectorPanel::showHint(const QString& text) { text_->setText(QStringLiteral("<i>%1</i>").arg(text.toHtmlEscaped())); }

void InspectorPanel::showText(const QString& text) {
    // Monospace so the arithmetic lines up, but wrapped: a narrow dock must not hide it behind a scroll bar.
    text_->setText(QStringLiteral("<pre style='white-space: pre-wrap'>%1</pre>").arg(text.toHtmlEscaped()));
}

QString InspectorPanel::html() const { return text_->text(); }

QString InspectorPanel::plainText() const {
    QTextDocument doc;
    doc.setHtml(text_->text());
    return doc.toPlainText();
}

void InspectorPanel::showPixel(const PixelInspection& in, const LaunchPlan& plan, PixelLayout layout,
                               const WavePlan& waves, int output) {
    const GridCell& cell = in.cell;
    if (!cell.in_grid) {
        showHint(tr("(%1, %2): no thread of this launch maps here.").arg(in.x).arg(in.y));
        return;
    }
    const ThreadOfPixel& t = cell.thread;
    const Dim3 bd = plan.shape.block;
    const bool one_d = plan.one_d;
    // A thread of an x4 / vec16 variant writes `items` consecutive pixels (columns in 2-D): j of them.
    const std::uint64_t items = std::max<std::uint32_t>(1, plan.items_per_thread);
    QString html;
    if (cell.inside)
        html += tr("<b>Pixel (%1, %2)</b>").arg(in.x).arg(in.y);
    else
        html += tr("<b>(%1, %2), past the image: an idle thread</b>").arg(in.x).arg(in.y);
    html += QStringLiteral("<table>");
    if (one_d) {
        html += row(QStringLiteral("blockIdx"), QStringLiteral("(%1)").arg(t.block.x));
        html += row(QStringLiteral("threadIdx"), QStringLiteral("(%1)").arg(t.thread.x));
    } else {
        html += row(QStringLiteral("blockIdx"), QStringLiteral("(%1, %2)").arg(t.block.x).arg(t.block.y));
        html += row(QStringLiteral("threadIdx"), QStringLiteral("(%1, %2)").arg(t.thread.x).arg(t.thread.y));
    }
    // One convention everywhere: CUDA's indices start at 0 and are shown with their range; counts for
    // people ("warp 6 of 8", "wave 3 of 8", as the Execution bar says) start at 1.
    html += row(tr("block (linear)"), tr("%1 (blocks 0–%2)").arg(num(t.linear_block), num(plan.blocks - 1)));
    html += row(tr("thread in block"), tr("%1 (threads 0–%2)").arg(num(t.linear_thread), num(plan.threads_per_block - 1)));
    html += row(tr("warp, lane"), tr("warp %1 of %2 (index %3), lane %4")
                                      .arg(num(t.warp + 1), num(plan.warps_per_block), num(t.warp))
                                      .arg(t.lane));
    const WavePlan::Slot slot = waves.slot_of(t.linear_block);
    if (waves.blocks)
        html += row(tr("scheduled"), tr("wave %1 of %2, SM %3, slot %4").arg(num(slot.wave + 1), num(waves.waves)).arg(slot.sm).arg(slot.slot));
    html += QStringLiteral("</table>");

    // The index arithmetic with this thread's numbers, as the kernel writes it.
    const std::uint64_t n = in.pixels;
    QString math;
    if (one_d && items > 1) {
        const std::uint64_t tid = global_index_1d(t.block, t.thread, bd);
        const std::uint64_t j = t.global_index - tid * items;
        math += code(QStringLiteral("t = blockIdx.x*blockDim.x + threadIdx.x = %1*%2 + %3 = %4")
                         .arg(t.block.x).arg(bd.x).arg(t.thread.x).arg(num(tid)));
        math += QStringLiteral("<br>") +
                code(QStringLiteral("i = t*%1 + j = %2*%1 + %3 = %4").arg(items).arg(num(tid)).arg(j).arg(num(t.global_index)));
        math += tr(" (pixel %1 of the thread's %2)").arg(j + 1).arg(items);
        math += QStringLiteral("<br>") +
                code(t.global_index < n ? QStringLiteral("if (i < n): %1 < %2, runs").arg(num(t.global_index), num(n))
                                        : QStringLiteral("if (i < n): %1 >= %2, switched off").arg(num(t.global_index), num(n)));
    } else if (one_d) {
        math += code(QStringLiteral("i = blockIdx.x*blockDim.x + threadIdx.x = %1*%2 + %3 = %4")
                         .arg(t.block.x).arg(bd.x).arg(t.thread.x).arg(num(global_index_1d(t.block, t.thread, bd))));
        math += QStringLiteral("<br>") +
                code(cell.active ? QStringLiteral("if (i < n): %1 < %2, runs").arg(num(t.global_index), num(n))
                                 : QStringLiteral("if (i < n): %1 >= %2, switched off").arg(num(t.global_index), num(n)));
    } else {
        // The kernels' own index functions: the inspector writes no index arithmetic of its own.
        const std::uint64_t tc = global_col(t.block, t.thread, bd);
        // With several columns per thread the pixel's column is tc*items + j.
        const std::uint64_t c = items > 1 ? std::uint64_t(in.x) : tc;
        const std::uint64_t r0 = global_row(t.block, t.thread, bd);
        const std::uint64_t r = r0 + std::uint64_t(t.pass) * row_stride(plan.grid, bd);
        math += code(QStringLiteral("%5 = blockIdx.x*blockDim.x + threadIdx.x = %1*%2 + %3 = %4")
                         .arg(t.block.x).arg(bd.x).arg(t.thread.x).arg(num(tc), items > 1 ? QStringLiteral("t") : QStringLiteral("c")));
        if (items > 1)
            math += QStringLiteral("<br>") +
                    code(QStringLiteral("c = t*%1 + j = %2*%1 + %3 = %4").arg(items).arg(num(tc)).arg(c - tc * items).arg(num(c)));
        math += QStringLiteral("<br>") +
                code(QStringLiteral("r = blockIdx.y*blockDim.y + threadIdx.y = %1*%2 + %3 = %4")
                         .arg(t.block.y).arg(bd.y).arg(t.thread.y).arg(num(r0)));
        if (t.pass > 0)
            math += QStringLiteral("<br>") +
                    code(QStringLiteral("grid-stride pass %1: r += %1*gridDim.y*blockDim.y = %2 + %1*%3 = %4")
                             .arg(t.pass)
                             .arg(num(r0), num(row_stride(plan.grid, bd)), num(r)));
        math += QStringLiteral("<br>") +
                code(cell.active ? QStringLiteral("if (c < w && r < h): %1 < %2, %3 < %4, runs")
                                       .arg(num(c), num(plan.width), num(r), num(plan.height))
                                 : QStringLiteral("if (c < w && r < h): c=%1, r=%2 outside %3x%4, switched off")
                                       .arg(num(c), num(r), num(plan.width), num(plan.height)));
        if (cell.active)
            math += QStringLiteral("<br>") +
                    code(QStringLiteral("i = r*w + c = %1*%2 + %3 = %4").arg(num(r), num(plan.width), num(c), num(t.global_index)));
    }
    html += QStringLiteral("<p>%1</p>").arg(math);

    if (cell.active) {
        const bool planar = layout == PixelLayout::Planar;
        const char* names[3] = {"R", "G", "B"};
        const char* planar_reads[3] = {"x[i]", "x[i+n]", "x[i+2n]"};
        const char* interleaved_reads[3] = {"x[3i]", "x[3i+1]", "x[3i+2]"};
        html += tr("<p>Reads (%1):<br>").arg(planar ? tr("planar C\u00D7H\u00D7W, n = %1").arg(num(n)) : tr("interleaved RGB"));
        for (int c = 0; c < 3; ++c) {
            const QString expr = QLatin1String(planar ? planar_reads[c] : interleaved_reads[c]);
            html += code(QStringLiteral("%1 = x[%2] = %3 (%4)").arg(expr, num(in.reads[c])).arg(in.rgb[c]).arg(QLatin1String(names[c])));
            html += QStringLiteral("<br>");
        }
        html += QStringLiteral("</p><p>");
        html += code(QStringLiteral("0.2989*%1 + 0.5870*%2 + 0.1140*%3 -> %4").arg(in.rgb[0]).arg(in.rgb[1]).arg(in.rgb[2]).arg(in.gray));
        html += tr("<br>(luma_u8: float, truncated to uint8)");
        if (output >= 0) {
            html += QStringLiteral("<br>") + code(QStringLiteral("out[%1] = %2").arg(num(t.global_index)).arg(output));
            if (output != in.gray) html += tr(" <b>differs from the computed grey</b>");
        }
        html += QStringLiteral("</p>");
    } else {
        html += tr("<p>The guard switches this thread off: it reads and writes nothing, but its block "
                   "still occupies a slot on an SM and its warp still issues.</p>");
    }
    text_->setText(html);
}

}  // namespace cvz
