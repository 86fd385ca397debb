#pragma once
// The best configuration of a variant for one problem, the way cuBLAS's heuristics choose a kernel
// (issue 29): every configuration the variant is swept over (variant_configurations: its blocks, its
// TILEs, split-K's slices) is predicted by the performance model on the request's profile; without a
// GPU the fastest prediction is the choice; with one, the model's few best candidates are timed and
// the fastest measured one is. The choice says which way it was made.
#include <QString>

#include <vector>

#include "app/tuning/block_sweep.h"

namespace cvz {

// How many of the model's best configurations of a variant are timed when there is a GPU.
constexpr int kTimedCandidates = 3;

struct ConfigurationChoice {
    SweepRow row;           // the chosen launch, with its prediction (and its time when chosen by timing)
    int configurations = 0; // how many the variant has (those the problem accepts)
    int timed = 0;          // how many of them were timed (0: chosen by the model)
    bool by_timing = false;
    // "the fastest of 10 configurations predicted for H200" or "the fastest of 3 timed (the model's best 3 of 10)"
    QString how() const;
};

// Every configuration of `variant` the request's problem accepts, each predicted for the request's
// profile, fastest prediction first (configurations without a prediction last, in sweep order).
std::vector<SweepRow> ranked_configurations(const SweepRequest& request, const KernelInfo& variant);

// The model's choice: the first of ranked_configurations, or a row with an error when there is none.
ConfigurationChoice choose_by_model(const SweepRequest& request, const KernelInfo& variant);

// The candidates to time: the first kTimedCandidates of `ranked` (all when fewer).
std::vector<SweepRow> timing_candidates(const std::vector<SweepRow>& ranked);

// Of `candidates` timed by `timings` (one per candidate, in order), the fastest measured; `model` is
// kept when none was timed. `configurations` is the size of the ranked list they came from.
ConfigurationChoice choose_by_timing(const SweepRequest& request, const std::vector<SweepRow>& candidates,
                                     const std::vector<ShapeTiming>& timings, const ConfigurationChoice& model);

// The best row of a sweep and where the choice comes from: the fastest timed row when any was timed,
// else the fastest predicted one; -1 when neither.
struct SweepBest {
    int index = -1;
    bool by_timing = false;
    QString source() const { return by_timing ? QStringLiteral("measured") : QStringLiteral("model"); }
};
SweepBest best_of_sweep(const std::vector<SweepRow>& rows);

}  // namespace cvz
