#pragma once
// What a family's FamilyProblem does when its LaunchChoice names a user kernel (issue 27), so that the
// sweep, the ladder and the prediction take a user variant like a built-in. Each family's problem
// (app/<family>/) makes a FamilyCall of its input and hands it here; nothing here asks which family.
// Safe on a worker thread.
#include <QString>

#include <functional>
#include <memory>

#include "app/family/family_problem.h"
#include "app/family/launch_choice.h"
#include "app/models/occupancy_model.h"
#include "app/models/perf_model.h"
#include "app/user/user_variants.h"
#include "kernels/core/cancel_token.h"
#include "kernels/core/kernel_timing.h"
#include "kernels/user/user_call.h"

namespace cvz {

// A family's FamilyCall over its whole input, or over the corner a trace needs (kLadderTrace*).
using FamilyCallMaker = std::function<std::unique_ptr<user::FamilyCall>(bool corner)>;

// Empty when the user kernel of `choice` can run on `call`'s problem with the choice's block, else why.
QString validate_user_choice(const LaunchChoice& choice, const user::FamilyCall& call);

// The block a user variant launches: the choice's, flattened to x for a 1-D form.
Dim3 user_launched_block(const UserVariant& v, const LaunchChoice& choice);

// What a block of the user kernel needs on an SM: registers and static shared memory from its NVRTC
// compile when there was one, else 32 registers and no shared memory (said in the prediction).
BlockResources user_block_resources(const LaunchChoice& choice);

// The emulator's trace of the user kernel over the corner of the problem (ProblemTrace::fmas: the
// caller's count for the traced size).
ProblemTrace trace_user_choice(const LaunchChoice& choice, const FamilyCallMaker& make, const CancelToken* cancel);

// The family's estimate of the work beyond the memory figures, per launch over the whole problem (the
// user's arithmetic is not known: the family's lecture kernel's is taken).
struct UserWorkHints {
    double lane_instructions = 0;
    double fmas = 0;
    double buffer_bytes = 0;
    QString size_key;  // the problem's size in the figures' cache key ("37x23/planar")
};

// The predicted GPU time of the user kernel of `choice` on the whole problem: memory figures from a
// traced sample of its grid, scaled.
GpuPrediction predict_user_choice(const DeviceProfile& profile, const LaunchChoice& choice, const FamilyCallMaker& make,
                                  const UserWorkHints& hints);

// Times `launches` on the GPU where some name user kernels: the built-ins through `time_builtins` (one
// sweep, in their order), each user kernel isolated (time_user_choice); the results merged in order.
TimingSweep time_with_user_choices(const std::vector<LaunchChoice>& launches, const TimingOptions& options,
                                   const std::function<TimingSweep(const std::vector<LaunchChoice>&)>& time_builtins,
                                   const FamilyCallMaker& make);

// One user kernel's GPU time on the whole problem (warm-up, repeats, the median), in the GPU runner.
ShapeTiming time_user_choice(const LaunchChoice& choice, const FamilyCallMaker& make, const TimingOptions& options);

}  // namespace cvz
