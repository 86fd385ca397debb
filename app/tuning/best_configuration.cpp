#include "app/tuning/best_configuration.h"

#include <algorithm>

#include "kernels/catalogue/kernel_catalogue.h"

namespace cvz {

QString ConfigurationChoice::how() const {
    if (by_timing)
        return QStringLiteral("the fastest of %1 timed (the model's best %1 of %2 configurations)").arg(timed).arg(configurations);
    return QStringLiteral("the fastest of %1 configuration%2 predicted by the model")
        .arg(configurations)
        .arg(configurations == 1 ? QString() : QStringLiteral("s"));
}

std::vector<SweepRow> ranked_configurations(const SweepRequest& request, const KernelInfo& variant) {
    std::vector<SweepRow> rows;
    for (const LaunchChoice& choice : variant_configurations(variant)) {
        if (request.problem && !request.problem->validate(choice).isEmpty()) continue;
        SweepRow row;
        row.choice = choice;
        row.prediction = predict_sweep_row(request, row);
        rows.push_back(std::move(row));
    }
    remodel_occupancy(&rows, request.profile);
    const auto predicted = [](const SweepRow& r) { return r.prediction.ok() && r.prediction.total_us > 0; };
    std::stable_sort(rows.begin(), rows.end(), [&](const SweepRow& a, const SweepRow& b) {
        if (predicted(a) != predicted(b)) return predicted(a);
        return predicted(a) && a.prediction.total_us < b.prediction.total_us;
    });
    return rows;
}

ConfigurationChoice choose_by_model(const SweepRequest& request, const KernelInfo& variant) {
    const std::vector<SweepRow> ranked = ranked_configurations(request, variant);
    ConfigurationChoice c;
    c.configurations = int(ranked.size());
    if (!ranked.empty()) {
        c.row = ranked.front();
    } else {
        c.row.choice = LaunchChoice{variant.ref(0), variant.fixed_block};
        c.row.prediction.error = QStringLiteral("no configuration of %1 suits the problem").arg(QString::fromStdString(variant.name));
    }
    return c;
}

std::vector<SweepRow> timing_candidates(const std::vector<SweepRow>& ranked) {
    return std::vector<SweepRow>(ranked.begin(), ranked.begin() + std::min<std::ptrdiff_t>(kTimedCandidates, ranked.size()));
}

ConfigurationChoice choose_by_timing(const SweepRequest& request, const std::vector<SweepRow>& candidates,
                                     const std::vector<ShapeTiming>& timings, const ConfigurationChoice& model) {
    ConfigurationChoice c = model;
    int best = -1;
    for (std::size_t i = 0; i < candidates.size() && i < timings.size(); ++i) {
        if (!timings[i].timed) continue;
        if (best < 0 || timings[i].median_ms < timings[std::size_t(best)].median_ms) best = int(i);
    }
    if (best < 0) return c;
    c.row = candidates[std::size_t(best)];
    apply_sweep_timing(request, timings[std::size_t(best)], &c.row);
    c.by_timing = true;
    c.timed = int(std::count_if(timings.begin(), timings.begin() + std::min(candidates.size(), timings.size()),
                                [](const ShapeTiming& t) { return t.timed; }));
    return c;
}

SweepBest best_of_sweep(const std::vector<SweepRow>& rows) {
    SweepBest b;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        if (rows[i].state != SweepRowState::Timed) continue;
        if (b.index < 0 || rows[i].median_ms < rows[std::size_t(b.index)].median_ms) b.index = int(i);
    }
    if (b.index >= 0) {
        b.by_timing = true;
        return b;
    }
    b.index = fastest_predicted(rows);
    return b;
}

}  // namespace cvz
