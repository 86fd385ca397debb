#include "ui/views/trace_presentation.h"

#include <QDir>
#include <QLocale>

#include <algorithm>
#include <map>

namespace cvz {

namespace {

QString num(std::uint64_t v) { return QLocale().toString(qulonglong(v)); }

QString per(std::uint64_t a, std::uint64_t b) { return b ? QString::number(double(a) / double(b), 'f', 1) : QStringLiteral("–"); }

// A site's file as the embedded resources name it ("kernels/matmul/matmul_body.h"), whatever
// "dir/../" the compiler's path kept.
QString clean(const std::string& file) { return QDir::cleanPath(QString::fromStdString(file)); }

QString file_of(const MemoryTrace& trace, const MemoryRequest& r) {
    return r.site < trace.sites.size() ? clean(trace.sites[r.site].where.file) : QString();
}

}  // namespace

QString launch_line(const QString& kernel, Dim3 grid, Dim3 block, std::size_t shared_bytes) {
    auto dim = [](Dim3 d) {
        if (d.y == 1 && d.z == 1) return QString::number(d.x);
        if (d.z == 1) return QStringLiteral("dim3(%1,%2)").arg(d.x).arg(d.y);
        return QStringLiteral("dim3(%1,%2,%3)").arg(d.x).arg(d.y).arg(d.z);
    };
    // A 2-D block with a 1-D grid (or the other way) still reads best as dim3 on both sides.
    const bool two_d = grid.y > 1 || block.y > 1 || grid.z > 1 || block.z > 1;
    auto shown = [&](Dim3 d) {
        return two_d && d.z == 1 ? QStringLiteral("dim3(%1,%2)").arg(d.x).arg(d.y) : dim(d);
    };
    QString args = shown(grid) + QStringLiteral(", ") + shown(block);
    if (shared_bytes) args += QStringLiteral(", %1").arg(shared_bytes);
    return QStringLiteral("%1<<<%2>>>").arg(kernel, args);
}

QStringList trace_files(const MemoryTrace& trace) {
    std::map<QString, std::uint64_t> requests;
    for (const LineMetrics& l : trace.lines) {
        const MemoryMetrics& m = l.metrics;
        requests[clean(l.where.file)] += m.global_ld.requests + m.global_st.requests + m.shared_ld.requests +
                                         m.shared_st.requests + m.constant_ld.requests;
    }
    QStringList files;
    for (const auto& [file, n] : requests) files << file;
    std::stable_sort(files.begin(), files.end(), [&](const QString& a, const QString& b) { return requests[a] > requests[b]; });
    return files;
}

QStringList line_figure_columns() {
    return {QObject::tr("Req"), QObject::tr("Sectors"), QObject::tr("Sect/Req"), QObject::tr("Ideal/Req"),
            QObject::tr("Wavefr"), QObject::tr("Confl")};
}

QStringList line_figure_tips() {
    return {QObject::tr("Global load and store requests of the line (warp-level executions): "
                        "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum + _st.sum; on a line that reads only "
                        "constant memory, its constant requests"),
            QObject::tr("32-byte sectors those requests move: l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum + _st.sum"),
            QObject::tr("Sectors per request: 1 for 32 lanes reading bytes side by side, 4 for 32 floats side by side"),
            QObject::tr("The fewest sectors per request that could hold the bytes asked for; red: the line moves more"),
            QObject::tr("Shared-memory wavefronts (passes through the 32 banks): "
                        "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum + _st.sum; constant memory: the "
                        "constant cache's passes, one per distinct word the lanes read"),
            QObject::tr("Shared-memory bank conflicts: wavefronts beyond one per request "
                        "(l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum + _st.sum); constant memory: "
                        "passes beyond one per request (serialised replays)")};
}

QList<SourceLineFigures> line_figures(const MemoryTrace& trace, const QString& file) {
    QList<SourceLineFigures> out;
    for (const LineMetrics& l : trace.lines) {
        if (clean(l.where.file) != file) continue;
        const MemoryMetrics& m = l.metrics;
        const std::uint64_t req = m.global_ld.requests + m.global_st.requests;
        const std::uint64_t sect = m.global_ld.sectors + m.global_st.sectors;
        const std::uint64_t ideal = m.global_ld.ideal_sectors + m.global_st.ideal_sectors;
        const std::uint64_t wave = m.shared_ld.wavefronts + m.shared_st.wavefronts;
        const std::uint64_t conflicts = m.shared_ld.bank_conflicts() + m.shared_st.bank_conflicts();
        const std::uint64_t shared_req = m.shared_ld.requests + m.shared_st.requests;
        const RequestCounts& cst = m.constant_ld;
        SourceLineFigures row;
        row.line = int(l.where.line);
        if (req + shared_req == 0 && cst.requests > 0) {
            // A line that reads only constant memory: its requests, passes and replays in the same columns.
            row.cells << num(cst.requests) << QString() << QString() << QString() << num(cst.wavefronts)
                      << num(cst.bank_conflicts());
            row.excess = cst.bank_conflicts() > 0;
        } else {
            row.cells << num(req + shared_req) << (req ? num(sect) : QString()) << (req ? per(sect, req) : QString())
                      << (req ? per(ideal, req) : QString()) << (shared_req ? num(wave) : QString())
                      << (shared_req ? num(conflicts) : QString());
            row.excess = sect > ideal || conflicts > 0;
        }
        const std::array<std::uint64_t, kNsightMetricCount> values = m.nsight();
        QStringList tip;
        tip << QObject::tr("%1, line %2").arg(file).arg(l.where.line);
        for (std::size_t i = 0; i < kNsightMetricCount; ++i)
            tip << QStringLiteral("%1 = %2").arg(QString::fromLatin1(kNsightMetricNames[i]), num(values[i]));
        if (req) tip << QObject::tr("ideal sectors = %1, excess = %2").arg(num(ideal), num(sect - ideal));
        if (cst.requests)
            tip << QObject::tr("constant memory: %1 requests, %2 passes of the constant cache (one word a pass), "
                               "%3 serialised replays; not among Nsight Compute's ten figures")
                       .arg(num(cst.requests), num(cst.wavefronts), num(cst.bank_conflicts()));
        row.tip = tip.join(QLatin1Char('\n'));
        out << row;
    }
    return out;
}

QList<DrawnRequest> drawn_requests(const MemoryTrace& trace, const std::vector<const MemoryRequest*>& requests,
                                   const std::vector<const MemoryRequest*>& current) {
    QList<DrawnRequest> out;
    for (const MemoryRequest* r : requests) {
        DrawnRequest d;
        d.shared = r->space == MemorySpace::Shared;
        d.constant = r->space == MemorySpace::Constant;
        d.store = r->access == Access::Store;
        d.buffer = r->buffer >= 0 && std::size_t(r->buffer) < trace.buffers.size()
                       ? QString::fromStdString(trace.buffers[std::size_t(r->buffer)].name)
                       : QStringLiteral("?");
        const unsigned line = r->site < trace.sites.size() ? trace.sites[r->site].where.line : 0;
        d.title = QObject::tr("line %1 · %2 %3 · execution %4")
                      .arg(line)
                      .arg(d.store ? QObject::tr("store to") : QObject::tr("load from"))
                      .arg(d.shared     ? QObject::tr("shared memory")
                           : d.constant ? QObject::tr("constant memory (%1)").arg(d.buffer)
                                        : d.buffer)
                      .arg(r->occurrence + 1);
        for (const LaneAccess& l : r->lanes) d.lanes << DrawnLane{int(l.lane), l.offset, int(l.bytes)};
        d.sectors = int(r->sectors);
        d.ideal_sectors = int(r->ideal_sectors);
        d.wavefronts = int(r->wavefronts);
        d.ideal_wavefronts = int(r->ideal_wavefronts);
        d.current = std::find(current.begin(), current.end(), r) != current.end();
        out << d;
    }
    return out;
}

QString requests_file(const MemoryTrace& trace, const std::vector<const MemoryRequest*>& requests) {
    return requests.empty() ? QString() : file_of(trace, *requests.front());
}

QList<int> requests_lines(const MemoryTrace& trace, const std::vector<const MemoryRequest*>& requests,
                          const QString& file) {
    QList<int> lines;
    for (const MemoryRequest* r : requests)
        if (r->site < trace.sites.size() && file_of(trace, *r) == file && !lines.contains(int(trace.sites[r->site].where.line)))
            lines << int(trace.sites[r->site].where.line);
    std::sort(lines.begin(), lines.end());
    return lines;
}

}  // namespace cvz
