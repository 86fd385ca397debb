// Honest kernel times (app/kernel_times.h): the warm time is the median of the repeats, the first
// launch is named apart, and a single cold run says it was not warmed up.
#include <QtTest>

#include "app/models/kernel_times.h"

using namespace cvz;

class TestKernelTimes : public QObject {
    Q_OBJECT
private slots:
    void text_names_warm_and_first();
    void warm_is_the_median_of_repeats();
    void a_failing_repeat_is_reported();
};

void TestKernelTimes::text_names_warm_and_first() {
    KernelTimes t;
    t.first_ms = 1.5;
    QCOMPARE(t.text(), QString("kernel 1.500 ms (one run, not warmed up)"));
    QCOMPARE(t.kernel_ms(), 1.5);
    t.warm_ms = 0.5;
    t.warm_launches = 1;  // the displayed frame: one launch per change, after the process's first
    QCOMPARE(t.text(), QString("kernel 0.500 ms warm (one launch after the first) · first launch 1.500 ms"));
    t.gpu = true;
    t.first_ms = 0.166;
    t.first_call_ms = 212.25;
    t.warm_ms = 0.004;
    t.warm_launches = 20;
    QCOMPARE(t.kernel_ms(), 0.004);
    QCOMPARE(t.text(), QString("kernel 0.004 ms warm (median of 20 after a warm-up) · first launch 0.166 ms, its call "
                               "212.250 ms with CUDA context creation and module loading"));
}

void TestKernelTimes::warm_is_the_median_of_repeats() {
    const std::vector<double> samples = {9, 1, 5, 3, 7};
    std::size_t i = 0;
    KernelTimes t;
    QVERIFY(measure_emulator_warm(5, 1e9, [&](double* ms) { *ms = samples[i++]; return Status::ok(); }, &t).is_ok());
    QCOMPARE(t.warm_launches, 5);
    QCOMPARE(t.warm_ms, 5.0);
    // The budget stops the repeats once spent (the first repeat always runs).
    i = 0;
    QVERIFY(measure_emulator_warm(5, 9.5, [&](double* ms) { *ms = samples[i++]; return Status::ok(); }, &t).is_ok());
    QCOMPARE(t.warm_launches, 2);
    QCOMPARE(t.warm_ms, 5.0);
}

void TestKernelTimes::a_failing_repeat_is_reported() {
    KernelTimes t;
    const Status s = measure_emulator_warm(3, 1e9, [](double*) { return Status::error(ErrorKind::Device, "broken"); }, &t);
    QCOMPARE(s.message(), std::string("broken"));
}

QTEST_GUILESS_MAIN(TestKernelTimes)
#include "tst_kernel_times.moc"
