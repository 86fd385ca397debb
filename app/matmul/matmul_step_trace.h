#pragma once
#include <QString>
#include <QStringList>

#include <vector>

#include "app/matmul/matmul_phase_model.h"
#include "kernels/trace/memory_trace.h"

namespace cvz {

// Which of a warp's recorded requests one step of the matmul animation shows, read from the trace,
// not from knowledge of the kernel: a site's executions are spread evenly over the launch's phases
// (a tiled kernel's staging loads run once a phase, its shared loads TILE times), and the stage says
// which kinds of request it covers — load: global loads and shared stores; multiply: shared loads;
// naive chunk: the global loads of its k-slice; done: global stores; a barrier moves no memory.
std::vector<const MemoryRequest*> matmul_step_requests(const std::vector<const MemoryRequest*>& warp_requests,
                                                       const MatmulStep& step, std::uint32_t k);

// The loads and stores of a traced block up to and including a step, and of one of its threads (a
// linear id t = tx + ty*bx), counted off the trace's requests by the rule above: a request belongs to
// the phase (or k-slice) its occurrence falls in, and within a phase the load stage comes before the
// multiply. For the lecture's kernels this equals MatmulPhaseModel's closed forms (tst_matmul_step_trace);
// for the register-tiled ones it is how the page counts. Zero when the trace did not keep the block.
MatmulStepCounters matmul_traced_counters(const MemoryTrace& trace, std::uint64_t block, std::uint32_t thread,
                                          const MatmulStep& step, std::uint32_t k);

// The step's caption from its requests: the phase (or k-slice), then per source line what the warp
// loads and stores and where ("line 48: load A → store shared"), and the requests and sectors or
// wavefronts they cost. `traced` false: the warp's requests are not in hand yet, and the caption says so.
QString matmul_step_caption(const MemoryTrace* trace, const std::vector<const MemoryRequest*>& step_requests,
                            const MatmulStep& step, bool traced);

// One line per request of the step, in program order, with its figures:
// "line 48 · load A · 16 lanes · 2 sectors (ideal 2)"; HTML-escaped. Past `max_lines`, one line says
// how many more.
QStringList matmul_step_details(const MemoryTrace* trace, const std::vector<const MemoryRequest*>& step_requests,
                                int max_lines = 8);

}  // namespace cvz
