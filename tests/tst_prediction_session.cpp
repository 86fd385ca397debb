// PredictionSession: the prediction of the latest launch arrives by signal and equals perf_model's for
// that launch; a launch asked before answers at once from what is remembered; a newer request
// supersedes an older one; clear() says why there is none; the status and panel texts label the
// measured and the emulated time.
#include <QtTest>

#include "app/grayscale/grayscale_prediction.h"
#include "app/grayscale/grayscale_problem.h"
#include "app/matmul/matmul_app_problem.h"
#include "app/matmul/matmul_prediction.h"
#include "app/tuning/prediction_session.h"

using namespace cvz;

namespace {
DeviceProfile h200() { return *find_device_profile(QStringLiteral("H200")); }

// What the pages ask: the launch on a problem of sizes alone.
void predict_grayscale_launch(PredictionSession& s, const LaunchShape& shape, std::uint32_t w, std::uint32_t h,
                              PixelLayout layout) {
    s.predict(h200(), make_grayscale_problem(w, h, layout), grayscale_choice(shape));
}

void predict_matmul_launch(PredictionSession& s, const MatmulLaunch& launch, std::uint32_t m, std::uint32_t k,
                           std::uint32_t n) {
    s.predict(h200(), std::make_shared<const MatmulAppProblem>(m, k, n), matmul_choice(launch));
}
}  // namespace

class TestPredictionSession : public QObject {
    Q_OBJECT
private slots:
    void prediction_arrives_and_equals_the_model() {
        PredictionSession s;
        QSignalSpy changed(&s, &PredictionSession::predictionChanged);
        const LaunchShape shape = LaunchShape::two_d(32, 8);
        predict_grayscale_launch(s, shape, 301, 77, PixelLayout::Planar);
        QVERIFY(s.pending());
        QVERIFY(changed.wait(120000));
        const GpuPrediction want = predict_grayscale(h200(), shape, 301, 77, PixelLayout::Planar);
        QVERIFY(!s.pending());
        QCOMPARE(s.prediction().total_us, want.total_us);
        QCOMPARE(s.prediction().bound, want.bound);
        QCOMPARE(prediction_text(s.prediction()), prediction_text(want));
        QVERIFY(prediction_text(want).startsWith(QStringLiteral("predicted on H200")));
        QVERIFY(prediction_details(want).contains(want.summary()));
    }

    void a_launch_asked_before_answers_at_once() {
        PredictionSession s;
        QSignalSpy changed(&s, &PredictionSession::predictionChanged);
        const MatmulLaunch naive = MatmulLaunch::naive(16, 16), tiled = MatmulLaunch::tiled(8);
        predict_matmul_launch(s, naive, 33, 47, 29);
        QVERIFY(changed.wait(120000));
        predict_matmul_launch(s, tiled, 33, 47, 29);
        QVERIFY(changed.wait(120000));
        QCOMPARE(s.cached(), 2);
        changed.clear();
        predict_matmul_launch(s, naive, 33, 47, 29);  // remembered: the signal comes before the call returns
        QCOMPARE(changed.count(), 1);
        QVERIFY(!s.pending());
        QCOMPARE(s.prediction().total_us, predict_matmul(h200(), naive, 33, 47, 29).total_us);
    }

    void a_newer_request_supersedes_an_older_one() {
        PredictionSession s;
        QSignalSpy changed(&s, &PredictionSession::predictionChanged);
        for (unsigned x : {1u, 2u, 4u, 8u, 16u, 32u}) predict_grayscale_launch(s, LaunchShape::two_d(x, 4), 200, 100, PixelLayout::Interleaved);
        QTRY_VERIFY_WITH_TIMEOUT(!s.pending(), 120000);
        // Only the latest launch is reported, whatever the older ones did.
        QCOMPARE(changed.last().at(0).value<GpuPrediction>().total_us,
                 predict_grayscale(h200(), LaunchShape::two_d(32, 4), 200, 100).total_us);
        QCOMPARE(s.prediction().total_us, predict_grayscale(h200(), LaunchShape::two_d(32, 4), 200, 100).total_us);
    }

    void clear_says_why() {
        PredictionSession s;
        s.clear(QStringLiteral("no image"));
        QVERIFY(!s.prediction().ok());
        QCOMPARE(prediction_text(s.prediction()), QStringLiteral("no image"));
        QCOMPARE(with_prediction(QStringLiteral("run"), s.prediction()), QStringLiteral("run"));
    }

    void measured_and_emulated_times_are_labelled() {
        KernelTimes gpu;
        gpu.gpu = true;
        gpu.warm_ms = 0.0521;
        gpu.warm_launches = 20;
        QCOMPARE(measured_text(gpu), QStringLiteral("measured on the GPU: 52.1 µs (warm median of 20)"));
        KernelTimes cpu;
        cpu.first_ms = 12.3;
        QCOMPARE(measured_text(cpu), QStringLiteral("CPU emulator: 12.3 ms (the emulator's time, not a GPU's)"));
        GpuPrediction p;
        p.profile = QStringLiteral("H200 SXM (sm_90)");
        p.total_us = 47;
        p.bound = QStringLiteral("DRAM");
        QCOMPARE(launch_times_html(p, false, &cpu),
                 QStringLiteral("GPU time predicted on H200 SXM (sm_90): <b>47.0 µs</b>, bound by DRAM<br>"
                                "CPU emulator: 12.3 ms (the emulator's time, not a GPU's)"));
        QCOMPARE(launch_times_html(p, true, nullptr), QStringLiteral("GPU time: predicting…"));
    }
};

QTEST_GUILESS_MAIN(TestPredictionSession)
#include "tst_prediction_session.moc"
