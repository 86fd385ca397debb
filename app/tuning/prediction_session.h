#pragma once
// The predicted GPU time of a page's current launch on its device profile (issue 15, item 2), without
// widgets. perf_model traces a sample of the launch's blocks, which takes from a few ms (a small
// streaming kernel) to a few hundred (a large loop), so the prediction runs on a worker of its own: it never waits behind a
// kernel run on the main worker nor delays one. A newer request supersedes a queued older one, and
// every prediction is remembered by its launch, so a slider dragged back and forth answers at once.
#include <QHash>
#include <QObject>
#include <QString>

#include <functional>
#include <memory>

#include "app/family/family_problem.h"
#include "app/family/launch_choice.h"
#include "app/jobs/job_ticket.h"
#include "app/models/kernel_times.h"
#include "app/models/perf_model.h"

namespace cvz {

class JobRunner;

class PredictionSession : public QObject {
    Q_OBJECT
public:
    explicit PredictionSession(QObject* parent = nullptr);
    ~PredictionSession() override;

    // The GPU time of `choice` on `problem` (FamilyProblem::predict; a problem of sizes alone will do).
    void predict(const DeviceProfile& profile, FamilyProblemPtr problem, const LaunchChoice& choice);
    // Nothing to predict (no document); `why` is what prediction().error says.
    void clear(const QString& why);

    // The prediction of the latest request; pending() while it is being computed (then prediction()
    // is the previous one's).
    const GpuPrediction& prediction() const { return prediction_; }
    bool pending() const { return pending_; }
    int cached() const { return int(cache_.size()); }

signals:
    void predictionChanged(const cvz::GpuPrediction& prediction);

private:
    void request(const QString& key, std::function<GpuPrediction()> predict);

    std::unique_ptr<JobRunner> jobs_;
    QHash<QString, GpuPrediction> cache_;
    QString wanted_;  // the key of the latest request
    GpuPrediction prediction_;
    bool pending_ = false;
    JobTicket ticket_;
};

// "predicted on H200 SXM: 47.0 µs, bound by DRAM"; the error when there is none.
QString prediction_text(const GpuPrediction& p);
// The model's named terms, one a line, the sampling last: a tooltip.
QString prediction_details(const GpuPrediction& p);
// The measured time beside the prediction: "measured on the GPU: 52.1 µs (warm median of 20)" or
// "CPU emulator: 12.3 ms (the emulator's time, not a GPU's)".
QString measured_text(const KernelTimes& times);
// The launch panel's lines: "GPU time predicted on H200 SXM: <b>8.9 µs</b>, bound by latency" (or
// "predicting…") and, when there is a measured run, measured_text's line.
QString launch_times_html(const GpuPrediction& p, bool pending, const KernelTimes* measured);
// A run's status line with the prediction after it: "… · 1.2 ms · predicted on H200 SXM: 8.9 µs, bound
// by latency"; `summary` alone when there is no prediction.
QString with_prediction(const QString& summary, const GpuPrediction& p);

}  // namespace cvz
