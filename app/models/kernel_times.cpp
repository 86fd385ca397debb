#include "app/models/kernel_times.h"

#include <QElapsedTimer>

#include "kernels/core/kernel_timing.h"

namespace cvz {

namespace {

QString ms(double v) { return QString::number(v, 'f', 3) + QStringLiteral(" ms"); }

}  // namespace

QString KernelTimes::text() const {
    if (warm_launches <= 0) return QStringLiteral("kernel %1 (one run, not warmed up)").arg(ms(first_ms));
    if (warm_launches == 1)
        return QStringLiteral("kernel %1 warm (one launch after the first) · first launch %2").arg(ms(warm_ms), ms(first_ms));
    QString s = QStringLiteral("kernel %1 warm (median of %2 after a warm-up) · first launch %3")
                    .arg(ms(warm_ms))
                    .arg(warm_launches)
                    .arg(ms(first_ms));
    if (gpu && first_call_ms > 0)
        s += QStringLiteral(", its call %1 with CUDA context creation and module loading").arg(ms(first_call_ms));
    return s;
}

Status time_emulator_runs(int repeats, const std::function<Status()>& launch, KernelTimes* times) {
    auto run_once = [&](double* ms) {
        QElapsedTimer kernel;
        kernel.start();
        Status s = launch();
        *ms = double(kernel.nsecsElapsed()) / 1e6;
        return s;
    };
    Status s = run_once(&times->first_ms);
    if (s && repeats > 0) s = measure_emulator_warm(repeats, 250, run_once, times);
    return s;
}

Status measure_emulator_warm(int repeats, double budget_ms, const std::function<Status(double* ms)>& run_once,
                             KernelTimes* times) {
    std::vector<double> samples;
    double spent = 0;
    for (int i = 0; i < repeats && (i == 0 || spent < budget_ms); ++i) {
        double t = 0;
        if (Status s = run_once(&t); !s) return s;
        samples.push_back(t);
        spent += t;
    }
    times->warm_launches = int(samples.size());
    times->warm_ms = median_of(samples);
    return Status::ok();
}

}  // namespace cvz
