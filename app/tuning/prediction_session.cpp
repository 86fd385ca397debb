#include "app/tuning/prediction_session.h"

#include <QStringList>

#include "app/jobs/job_runner.h"

namespace cvz {

namespace {

const QString kTag = QStringLiteral("predict");
constexpr int kCacheLimit = 2048;  // launches remembered; a prediction is a few hundred bytes

QString us_or_ms(double us) {
    if (us >= 1000) return QStringLiteral("%1 ms").arg(us / 1000, 0, 'f', us >= 10000 ? 1 : 2);
    return QStringLiteral("%1 µs").arg(us, 0, 'f', us >= 100 ? 0 : 1);
}

}  // namespace

PredictionSession::PredictionSession(QObject* parent) : QObject(parent), jobs_(std::make_unique<JobRunner>()) {}

PredictionSession::~PredictionSession() { ticket_.cancel(); }

void PredictionSession::predict(const DeviceProfile& profile, FamilyProblemPtr problem, const LaunchChoice& choice) {
    if (!problem) return clear(QStringLiteral("nothing to predict"));
    // The problem's text names its sizes (and what else its launch depends on, a pixel layout).
    const QString key = QStringLiteral("%1|%2|%3|%4/%5|%6x%7x%8")
                            .arg(profile.name)
                            .arg(int(choice.ref.family))
                            .arg(problem->text())
                            .arg(int(choice.ref.variant))
                            .arg(choice.ref.tile)
                            .arg(choice.block.x)
                            .arg(choice.block.y)
                            .arg(choice.block.z);
    request(key, [=] { return problem->predict(profile, choice); });
}

void PredictionSession::clear(const QString& why) {
    ticket_.cancel();
    wanted_.clear();
    pending_ = false;
    prediction_ = GpuPrediction{};
    prediction_.error = why;
    emit predictionChanged(prediction_);
}

void PredictionSession::request(const QString& key, std::function<GpuPrediction()> predict) {
    if (key == wanted_ && (pending_ || prediction_.ok())) return;  // asked already
    wanted_ = key;
    if (auto it = cache_.constFind(key); it != cache_.constEnd()) {
        ticket_.cancel();
        pending_ = false;
        prediction_ = *it;
        emit predictionChanged(prediction_);
        return;
    }
    pending_ = true;
    // Worker thread: only `predict` runs there; the result comes back to this object's thread.
    ticket_ = jobs_->submit(kTag, this, [this, key, predict = std::move(predict)]() -> JobRunner::Continuation {
        GpuPrediction p = predict();
        return [this, key, p = std::move(p)] {
            if (cache_.size() >= kCacheLimit) cache_.clear();
            cache_.insert(key, p);
            if (key != wanted_) return;  // a newer request is on its way
            pending_ = false;
            prediction_ = p;
            emit predictionChanged(prediction_);
        };
    });
}

QString prediction_text(const GpuPrediction& p) {
    if (!p.ok()) return p.error;
    return QStringLiteral("predicted on %1: %2, bound by %3").arg(p.profile, us_or_ms(p.total_us), p.bound);
}

QString prediction_details(const GpuPrediction& p) {
    if (!p.ok()) return p.error;
    QStringList lines{p.summary()};
    for (const PredictionTerm& t : p.terms)
        lines << QStringLiteral("%1: %2 — %3").arg(t.name, us_or_ms(t.us), t.detail);
    if (!p.sampling.isEmpty()) lines << p.sampling;
    return lines.join(QLatin1Char('\n'));
}

QString measured_text(const KernelTimes& times) {
    const double ms = times.kernel_ms();
    if (ms <= 0) return {};
    const QString t = us_or_ms(ms * 1e3);
    if (times.gpu)
        return times.warm_launches > 0 ? QStringLiteral("measured on the GPU: %1 (warm median of %2)").arg(t).arg(times.warm_launches)
                                       : QStringLiteral("measured on the GPU: %1 (one launch)").arg(t);
    return QStringLiteral("CPU emulator: %1 (the emulator's time, not a GPU's)").arg(t);
}

QString launch_times_html(const GpuPrediction& p, bool pending, const KernelTimes* measured) {
    QString first;
    if (pending) first = QStringLiteral("GPU time: predicting…");
    else if (p.ok())
        first = QStringLiteral("GPU time predicted on %1: <b>%2</b>, bound by %3")
                    .arg(p.profile.toHtmlEscaped(), us_or_ms(p.total_us), p.bound.toHtmlEscaped());
    else if (!p.error.isEmpty()) first = QStringLiteral("no prediction: %1").arg(p.error.toHtmlEscaped());
    const QString second = measured ? measured_text(*measured).toHtmlEscaped() : QString();
    if (second.isEmpty()) return first;
    return first.isEmpty() ? second : first + QStringLiteral("<br>") + second;
}

QString with_prediction(const QString& summary, const GpuPrediction& p) {
    if (!p.ok() || p.total_us <= 0) return summary;
    return summary + QStringLiteral(" · ") + prediction_text(p);
}

}  // namespace cvz
