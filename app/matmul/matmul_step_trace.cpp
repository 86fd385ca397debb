#include "app/matmul/matmul_step_trace.h"

#include "app/jobs/counted.h"

#include <QCoreApplication>
#include <QStringList>

#include <algorithm>
#include <map>

namespace cvz {

namespace {

QString tr(const char* text) { return QCoreApplication::translate("MatmulStepTrace", text); }

// Executions of each site by the warp: the site's last occurrence + 1.
std::map<std::uint32_t, std::uint32_t> executions(const std::vector<const MemoryRequest*>& requests) {
    std::map<std::uint32_t, std::uint32_t> n;
    for (const MemoryRequest* r : requests) n[r->site] = std::max(n[r->site], r->occurrence + 1);
    return n;
}

bool in_stage(const MemoryRequest& r, MatmulStage stage) {
    const bool global = r.space == MemorySpace::Global, load = r.access == Access::Load;
    switch (stage) {
        case MatmulStage::NaiveChunk: return global && load;
        case MatmulStage::Load: return (global && load) || (!global && !load);
        case MatmulStage::Multiply: return !global && load;
        case MatmulStage::Barrier: return false;
        case MatmulStage::Done: return global && !load;
    }
    return false;
}

QString where(const MemoryTrace* trace, const MemoryRequest& r) {
    if (r.space == MemorySpace::Shared) return tr("shared memory");
    if (!trace || r.buffer < 0 || std::size_t(r.buffer) >= trace->buffers.size()) return QStringLiteral("?");
    return QString::fromStdString(trace->buffers[std::size_t(r.buffer)].name);
}

}  // namespace

std::vector<const MemoryRequest*> matmul_step_requests(const std::vector<const MemoryRequest*>& warp_requests,
                                                       const MatmulStep& step, std::uint32_t k) {
    const std::map<std::uint32_t, std::uint32_t> n = executions(warp_requests);
    std::vector<const MemoryRequest*> out;
    for (const MemoryRequest* r : warp_requests) {
        if (!in_stage(*r, step.stage)) continue;
        const std::uint64_t runs = n.at(r->site);
        bool take = true;
        if (step.stage == MatmulStage::NaiveChunk) {
            // The site's executions spread over k = 0 .. K-1.
            const std::uint64_t kk = std::uint64_t(r->occurrence) * k / runs;
            take = kk >= step.k_begin && kk < step.k_end;
        } else if (step.stage != MatmulStage::Done && step.phases > 0) {
            take = std::uint64_t(r->occurrence) * step.phases / runs == step.phase;
        }
        if (take) out.push_back(r);
    }
    return out;
}

MatmulStepCounters matmul_traced_counters(const MemoryTrace& trace, std::uint64_t block, std::uint32_t thread,
                                          const MatmulStep& step, std::uint32_t k) {
    MatmulStepCounters c;
    c.k_done = step.counters.k_done;  // the model's: how far along K the step is
    const std::uint32_t warps = (trace.block.x * trace.block.y * trace.block.z + 31) / 32;
    // Stage order within a phase: the staging loads and shared stores, then the multiply's shared loads.
    auto order = [](const MemoryRequest& r) { return r.space == MemorySpace::Shared && r.access == Access::Load ? 1 : 0; };
    const int current = step.stage == MatmulStage::Load ? 0 : 1;  // Multiply and Barrier: both stages of the phase done
    for (std::uint32_t w = 0; w < warps; ++w) {
        const std::vector<const MemoryRequest*> requests = trace.requests_of(block, w);
        const std::map<std::uint32_t, std::uint32_t> n = executions(requests);
        for (const MemoryRequest* r : requests) {
            const bool global = r->space == MemorySpace::Global, load = r->access == Access::Load;
            const std::uint64_t runs = n.at(r->site);
            bool done = false;
            if (step.stage == MatmulStage::Done) {
                done = true;
            } else if (global && !load) {
                done = false;  // C is stored at the end
            } else if (step.stage == MatmulStage::NaiveChunk) {
                done = global && std::uint64_t(r->occurrence) * k / runs < step.k_end;
            } else if (step.phases > 0) {
                const std::uint64_t phase = std::uint64_t(r->occurrence) * step.phases / runs;
                done = phase < step.phase || (phase == step.phase && order(*r) <= current);
            }
            if (!done) continue;
            const std::uint64_t lanes = r->lanes.size();
            const bool mine = w == thread / 32 && std::any_of(r->lanes.begin(), r->lanes.end(),
                                                             [&](const LaneAccess& a) { return a.lane == thread % 32; });
            auto add = [&](std::uint64_t& block_count, std::uint64_t& thread_count) {
                block_count += lanes;
                thread_count += mine ? 1 : 0;
            };
            if (global) add(load ? c.block_global_loads : c.block_global_stores, load ? c.thread_global_loads : c.thread_global_stores);
            else if (load) add(c.block_shared_loads, c.thread_shared_loads);
        }
    }
    return c;
}

QString matmul_step_caption(const MemoryTrace* trace, const std::vector<const MemoryRequest*>& step_requests,
                            const MatmulStep& step, bool traced) {
    QString head;
    switch (step.stage) {
        case MatmulStage::NaiveChunk:
            head = step.k_end - step.k_begin == 1 ? tr("k = %1").arg(step.k_begin)
                                                  : tr("k = %1…%2").arg(step.k_begin).arg(step.k_end - 1);
            break;
        case MatmulStage::Load:
        case MatmulStage::Multiply: head = tr("phase %1/%2").arg(step.phase + 1).arg(step.phases); break;
        case MatmulStage::Barrier: return tr("phase %1/%2: __syncthreads(), no memory request").arg(step.phase + 1).arg(step.phases);
        case MatmulStage::Done: head = tr("done"); break;
    }
    if (!traced) return head + tr(": tracing the warp's requests…");
    if (step_requests.empty()) return head + tr(": no request from this warp (its lanes are guarded off)");
    // Per source line, in program order: what moves where.
    std::vector<unsigned> lines;
    std::map<unsigned, QStringList> what;
    std::uint64_t sectors = 0, wavefronts = 0;
    for (const MemoryRequest* r : step_requests) {
        const unsigned line = trace && r->site < trace->sites.size() ? trace->sites[r->site].where.line : 0;
        if (!what.count(line)) lines.push_back(line);
        const QString kind = (r->access == Access::Load ? tr("load %1") : tr("store %1")).arg(where(trace, *r));
        if (!what[line].contains(kind)) what[line] << kind;
        sectors += r->sectors;
        wavefronts += r->wavefronts;
    }
    QStringList parts;
    for (unsigned line : lines) parts << tr("line %1: %2").arg(line).arg(what[line].join(QStringLiteral(" → ")));
    QString cost = counted(step_requests.size(), tr("request"), tr("requests"));
    if (sectors) cost += tr(", %1 sectors").arg(sectors);
    if (wavefronts) cost += tr(", %1 shared wavefronts").arg(wavefronts);
    return QStringLiteral("%1: %2 (%3)").arg(head, parts.join(QStringLiteral("; ")), cost);
}

QStringList matmul_step_details(const MemoryTrace* trace, const std::vector<const MemoryRequest*>& step_requests,
                                int max_lines) {
    QStringList lines;
    for (const MemoryRequest* r : step_requests) {
        if (lines.size() == max_lines) {
            lines << tr("… and %1 more requests").arg(step_requests.size() - std::size_t(max_lines));
            break;
        }
        const unsigned line = trace && r->site < trace->sites.size() ? trace->sites[r->site].where.line : 0;
        QString text = tr("line %1 · %2 %3 · %4 lanes").arg(line)
                           .arg(r->access == Access::Load ? tr("load") : tr("store"), where(trace, *r))
                           .arg(r->lanes.size());
        if (r->space == MemorySpace::Global)
            text += tr(" · %1 (ideal %2)").arg(counted(r->sectors, tr("sector"), tr("sectors"))).arg(r->ideal_sectors);
        else
            text += tr(" · %1 (ideal %2)").arg(counted(r->wavefronts, tr("wavefront"), tr("wavefronts"))).arg(r->ideal_wavefronts);
        lines << text.toHtmlEscaped();
    }
    return lines;
}

}  // namespace cvz
