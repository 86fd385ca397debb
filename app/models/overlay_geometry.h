#pragma once
#include <cstdint>

#include "app/models/launch_plan.h"

namespace cvz {

// The area the grid overlay covers and what lies at each of its cells, for the overlay's CPU
// drawing, the inspector and the tests. The grid usually covers more than the image: the guard
// switches off the threads past it.
//  2-D: gridDim*blockDim columns and rows (idle threads right of and below the image).
//  1-D: the flattened layout continued past pixel n-1 in the same row-major order, so the last
//       block's idle threads lie in the row(s) below the last image row, from column 0.
struct GridExtent {
    std::uint64_t width = 0;
    std::uint64_t height = 0;
};

GridExtent grid_extent(const LaunchPlan& plan);

struct GridCell {
    bool in_grid = false;  // a thread of the launch maps to this cell
    bool inside = false;   // the cell is an image pixel
    bool active = false;   // the kernel's guard lets the thread write (always inside the image)
    ThreadOfPixel thread;  // valid when in_grid
};

// The cell at (x, y) of the extent (negative or past the extent: not in the grid). Built on
// LaunchPlan::thread_of_pixel and thread_active, i.e. on the kernels' own index functions.
GridCell grid_cell(const LaunchPlan& plan, std::int64_t x, std::int64_t y);

}  // namespace cvz
