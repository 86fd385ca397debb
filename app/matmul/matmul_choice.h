#pragma once
// The matmul session's launch (MatmulLaunch) as the launch panel edits it (a LaunchChoice), and back.
// The "remove the second __syncthreads()" lesson is not a choice of kernel or block: the matrices page
// keeps it and carries it over.
#include "app/family/launch_choice.h"
#include "kernels/matmul/matmul_launch.h"

namespace cvz {

// The variant and TILE (launch.ref()) and the block as set (a TILE variant launches TILE x TILE).
LaunchChoice matmul_choice(const MatmulLaunch& launch);

// The launch a choice of a matmul variant gives, taking from `base` what a choice does not hold: the
// TILE while the variant takes none (so a later TILE variant starts from it), and the barrier lesson
// while the variant stays the same and has barriers (another variant starts with both barriers).
MatmulLaunch matmul_launch(const LaunchChoice& choice, const MatmulLaunch& base);

}  // namespace cvz
