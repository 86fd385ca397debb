#pragma once
#include <QList>
#include <QString>
#include <QStringList>

#include <cstddef>
#include <vector>

#include "kernels/core/dim3.h"
#include "kernels/trace/memory_trace.h"
#include "ui/views/memory_view.h"
#include "ui/views/source_view.h"

namespace cvz {

// What the memory and source views draw, read off a MemoryTrace: nothing here counts sectors or
// banks again, it only carries the trace's figures to the views.

// `gray_2d<<<dim3(29,19), dim3(16,16)>>>`; a 1-D launch as `<<<530, 256>>>`, dynamic shared memory
// as the third argument when the launch has some.
QString launch_line(const QString& kernel, Dim3 grid, Dim3 block, std::size_t shared_bytes = 0);

// The files that hold the trace's access sites, the one with most requests first.
QStringList trace_files(const MemoryTrace& trace);

// The margin's columns (Nsight Compute's source page) and their tooltips.
QStringList line_figure_columns();
QStringList line_figure_tips();
// Each line of `file` that the trace has figures for.
QList<SourceLineFigures> line_figures(const MemoryTrace& trace, const QString& file);

// The requests as the memory view draws them; `current` marks those of the animation's step.
QList<DrawnRequest> drawn_requests(const MemoryTrace& trace, const std::vector<const MemoryRequest*>& requests,
                                   const std::vector<const MemoryRequest*>& current = {});

// The lines (of one file: the first request's) the requests were made from, for the highlight.
QString requests_file(const MemoryTrace& trace, const std::vector<const MemoryRequest*>& requests);
QList<int> requests_lines(const MemoryTrace& trace, const std::vector<const MemoryRequest*>& requests,
                          const QString& file);

}  // namespace cvz
