// The matmul session without widgets (builds with CUDAVIZ_BUILD_GUI=OFF): matrices in, a launch
// change planning and running once, newer requests superseding queued ones, the phase model's
// steps and the selection, bad files and shapes as failures that keep what was open, the
// missing-barrier lesson, saving C, the backend policy and the launch count (one kernel run per
// change). Every wait is on a typed signal; nothing reads status text or sleeps.
#include <QtTest>

#include <QSignalSpy>
#include <QTemporaryDir>

#include <condition_variable>
#include <cstring>
#include <mutex>

#include "app/jobs/backend_choice.h"
#include "app/jobs/job_runner.h"
#include "app/matmul/matmul_session.h"
#include "app/matmul/matmul_runner.h"
#include "app/io/matrix_generator.h"
#include "app/io/matrix_io.h"

using namespace cvz;

namespace {

constexpr int kRunTimeoutMs = 60000;

bool same_bytes(const Matrix& a, const Matrix& b) {
    return a.rows == b.rows && a.cols == b.cols && a.data.size() == b.data.size() &&
           std::memcmp(a.data.data(), b.data.data(), a.data.size() * sizeof(float)) == 0;
}

Matrix emulated_c(const Matrix& a, const Matrix& b, const MatmulLaunch& launch) {
    return run_matmul(MatmulRequest{a, b, launch, BackendChoice::Cpu}).c;
}

// Holds the worker until release(): requests queued meanwhile show what supersession keeps.
class WorkerGate {
public:
    explicit WorkerGate(JobRunner* jobs) {
        jobs->submit(QStringLiteral("test-gate"), nullptr, [this]() -> JobRunner::Continuation {
            std::unique_lock<std::mutex> lock(mutex_);
            entered_ = true;
            wake_.notify_all();
            wake_.wait(lock, [this] { return open_; });
            left_ = true;
            wake_.notify_all();
            return {};
        });
        std::unique_lock<std::mutex> lock(mutex_);
        wake_.wait(lock, [this] { return entered_; });
    }
    // Opens the gate and waits until the worker has left it: it must not wake on a mutex this
    // destructor frees (tst_grayscale_session's twin hung 2 runs in 8 that way).
    ~WorkerGate() {
        std::unique_lock<std::mutex> lock(mutex_);
        open_ = true;
        wake_.notify_all();
        wake_.wait(lock, [this] { return left_; });
    }

private:
    std::mutex mutex_;
    std::condition_variable wake_;
    bool entered_ = false;
    bool open_ = false;
    bool left_ = false;
};

}  // namespace

class TestMatmulSession : public QObject {
    Q_OBJECT
private slots:
    void matricesRunOnce();
    void launchChangePlansAndRunsOnce();
    void sameLaunchRunsNothing();
    void newerRequestsSupersedeQueuedOnes();
    void shapeMismatchFailsWithoutARun();
    void badFileKeepsTheMatrices();
    void openAndSaveRoundTrip();
    void phaseModelSteps();
    void selection();
    void missingBarrierMarksWrongOutputs();
    void backendPolicyAndDeviceProfile();
    void cudaRunsOncePerChange();
};

void TestMatmulSession::matricesRunOnce() {
    JobRunner jobs;
    MatmulSession session(&jobs);
    session.setBackend(BackendChoice::Cpu);
    const Matrix a = random_matrix(37, 70, 11), b = random_matrix(70, 29, 12);
    QSignalSpy operands(&session, &MatmulSession::operandsChanged);
    QSignalSpy finished(&session, &MatmulSession::runFinished);
    session.setMatrices(a, b, QStringLiteral("a.npy"), QStringLiteral("b.npy"));
    QCOMPARE(operands.count(), 1);
    QVERIFY(session.running());
    QVERIFY(finished.wait(kRunTimeoutMs));
    QVERIFY(!session.running());
    QVERIFY(finished.at(0).at(0).value<MatmulResult>().status.is_ok());
    QVERIFY(session.c());
    QVERIFY(same_bytes(*session.c(), emulated_c(a, b, session.launch())));
    QCOMPARE(session.launchCount(), std::uint64_t(1));
    QCOMPARE(session.completedRuns(), 1);
    QCOMPARE(session.aSource(), QStringLiteral("a.npy"));
    // Small problems are counted access by access, and agree with the closed forms.
    QVERIFY(session.measuredTraffic());
    QCOMPARE(session.measuredTraffic()->global_loads, session.predictedTraffic().global_loads);
}

void TestMatmulSession::launchChangePlansAndRunsOnce() {
    JobRunner jobs;
    MatmulSession session(&jobs);
    session.setBackend(BackendChoice::Cpu);
    const Matrix a = random_matrix(45, 60, 1), b = random_matrix(60, 38, 2);
    QSignalSpy finished(&session, &MatmulSession::runFinished);
    session.setMatrices(a, b);
    QVERIFY(finished.wait(kRunTimeoutMs));

    QSignalSpy launch(&session, &MatmulSession::launchChanged);
    QSignalSpy plan(&session, &MatmulSession::planChanged);
    session.setLaunch(MatmulLaunch::tiled(16));
    QCOMPARE(launch.count(), 1);
    QCOMPARE(plan.count(), 1);
    // The model follows at once: 45x38 in 16x16 tiles is a 3 x 3 grid, 4 phases over K = 60.
    QCOMPARE(session.model().grid().x, 3u);
    QCOMPARE(session.model().grid().y, 3u);
    QCOMPARE(session.model().phases(), 4u);
    QVERIFY(finished.wait(kRunTimeoutMs));
    QCOMPARE(session.launchCount(), std::uint64_t(2));
    QCOMPARE(session.resultLaunch().kernel, MatmulVariant::Tiled);
    // Invariant 2: every kernel and block shape gives the same bytes.
    QVERIFY(same_bytes(*session.c(), emulated_c(a, b, MatmulLaunch::naive(16, 16))));
}

void TestMatmulSession::sameLaunchRunsNothing() {
    JobRunner jobs;
    MatmulSession session(&jobs);
    session.setBackend(BackendChoice::Cpu);
    QSignalSpy started(&session, &MatmulSession::runStarted);
    session.setMatrices(random_matrix(9, 7, 1), random_matrix(7, 5, 2));
    QCOMPARE(started.count(), 1);
    session.setLaunch(session.launch());
    session.setBackend(session.backend());
    QCOMPARE(started.count(), 1);
    QSignalSpy finished(&session, &MatmulSession::runFinished);
    QVERIFY(finished.wait(kRunTimeoutMs));
    QCOMPARE(session.launchCount(), std::uint64_t(1));
}

void TestMatmulSession::newerRequestsSupersedeQueuedOnes() {
    JobRunner jobs;
    MatmulSession session(&jobs);
    session.setBackend(BackendChoice::Cpu);
    const Matrix a = random_matrix(40, 33, 1), b = random_matrix(33, 50, 2);
    QSignalSpy finished(&session, &MatmulSession::runFinished);
    {
        WorkerGate gate(&jobs);
        session.setMatrices(a, b);
        session.setLaunch(MatmulLaunch::naive(8, 8));
        session.setLaunch(MatmulLaunch::tiled(8));
        session.setLaunch(MatmulLaunch::naive(32, 4));
    }
    QVERIFY(finished.wait(kRunTimeoutMs));
    QCOMPARE(finished.count(), 1);
    QCOMPARE(session.launchCount(), std::uint64_t(1));
    QCOMPARE(session.resultLaunch().block.x, 32u);
    QVERIFY(same_bytes(*session.c(), emulated_c(a, b, MatmulLaunch::naive(32, 4))));
}

void TestMatmulSession::shapeMismatchFailsWithoutARun() {
    JobRunner jobs;
    MatmulSession session(&jobs);
    session.setBackend(BackendChoice::Cpu);
    QSignalSpy failed(&session, &MatmulSession::failed);
    QSignalSpy started(&session, &MatmulSession::runStarted);
    session.setMatrices(random_matrix(5, 6, 1), random_matrix(7, 5, 2));
    QCOMPARE(failed.count(), 1);
    QVERIFY2(failed.at(0).at(0).toString().contains(QStringLiteral("6")), qPrintable(failed.at(0).at(0).toString()));
    QCOMPARE(failed.at(0).at(0).toString(), session.shapeError());
    QCOMPARE(started.count(), 0);
    QVERIFY(!session.model().valid());
    QCOMPARE(session.animationSteps(), 0);
    QVERIFY(!session.c());

    // A matrix whose data do not fill its shape is refused; nothing is replaced.
    Matrix broken = random_matrix(3, 3, 1);
    broken.data.pop_back();
    session.setMatrices(broken, random_matrix(3, 3, 2));
    QCOMPARE(failed.count(), 2);
    QCOMPARE(session.a()->rows, 5u);
}

void TestMatmulSession::badFileKeepsTheMatrices() {
    JobRunner jobs;
    MatmulSession session(&jobs);
    session.setBackend(BackendChoice::Cpu);
    QSignalSpy finished(&session, &MatmulSession::runFinished);
    session.setMatrices(random_matrix(9, 7, 1), random_matrix(7, 5, 2));
    QVERIFY(finished.wait(kRunTimeoutMs));
    QTemporaryDir dir;
    const QString bad = dir.filePath(QStringLiteral("bad.csv"));
    {
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("1,2\n3,oops\n");
    }
    QSignalSpy failed(&session, &MatmulSession::failed);
    QSignalSpy operands(&session, &MatmulSession::operandsChanged);
    session.openMatrix(MatmulSession::Operand::A, bad);
    QVERIFY(failed.wait(kRunTimeoutMs));
    QVERIFY2(failed.at(0).at(0).toString().contains(QStringLiteral("bad.csv")), qPrintable(failed.at(0).at(0).toString()));
    QCOMPARE(operands.count(), 0);
    QCOMPARE(session.a()->rows, 9u);
    QCOMPARE(session.launchCount(), std::uint64_t(1));
}

void TestMatmulSession::openAndSaveRoundTrip() {
    JobRunner jobs;
    MatmulSession session(&jobs);
    session.setBackend(BackendChoice::Cpu);
    QTemporaryDir dir;
    const Matrix a = random_matrix(13, 9, 3);
    const QString a_path = dir.filePath(QStringLiteral("a.npy"));
    QVERIFY(save_matrix(a_path, a).isEmpty());
    QSignalSpy finished(&session, &MatmulSession::runFinished);
    session.setMatrices(random_matrix(13, 9, 1), random_matrix(9, 11, 2));
    QVERIFY(finished.wait(kRunTimeoutMs));

    QSignalSpy loaded(&session, &MatmulSession::operandLoaded);
    session.openMatrix(MatmulSession::Operand::A, a_path);
    QVERIFY(loaded.wait(kRunTimeoutMs));
    QCOMPARE(loaded.at(0).at(0).value<MatmulSession::Operand>(), MatmulSession::Operand::A);
    QCOMPARE(session.aSource(), QStringLiteral("a.npy"));
    QVERIFY(same_bytes(*session.a(), a));
    QVERIFY(finished.wait(kRunTimeoutMs));  // the new A ran, once
    QCOMPARE(session.launchCount(), std::uint64_t(2));

    const QString c_path = dir.filePath(QStringLiteral("c.npy"));
    QSignalSpy saved(&session, &MatmulSession::resultSaved);
    session.saveResult(c_path);
    QVERIFY(saved.wait(kRunTimeoutMs));
    QCOMPARE(saved.at(0).at(0).toString(), c_path);
    const LoadedMatrix back = load_matrix(c_path);
    QVERIFY(back.ok());
    QVERIFY(same_bytes(back.matrix, *session.c()));
}

void TestMatmulSession::phaseModelSteps() {
    JobRunner jobs;
    MatmulSession session(&jobs);
    session.setBackend(BackendChoice::Cpu);
    session.setLaunch(MatmulLaunch::tiled(8));
    session.setMatrices(random_matrix(20, 19, 1), random_matrix(19, 17, 2));  // K = 19: 3 phases of 8
    QCOMPARE(session.model().phases(), 3u);
    QCOMPARE(session.animationSteps(), 9);  // load, multiply, barrier per phase
    QCOMPARE(session.step().stage, MatmulStage::Load);
    QSignalSpy step(&session, &MatmulSession::stepChanged);
    session.setAnimationPosition(1);
    QCOMPARE(step.count(), 1);
    QCOMPARE(session.step().stage, MatmulStage::Multiply);
    session.setAnimationPosition(5);
    QCOMPARE(session.step().stage, MatmulStage::Barrier);
    QCOMPARE(session.step().phase, 1u);
    session.setAnimationPosition(99);  // clamped: done
    QCOMPARE(session.animationPosition(), 9);
    QCOMPARE(session.step().stage, MatmulStage::Done);
    session.setAnimationPosition(9);
    QCOMPARE(step.count(), 3);  // no change, no signal

    // The naive kernel steps through the dot product in chunks instead.
    session.setLaunch(MatmulLaunch::naive(8, 8));
    QCOMPARE(session.step().stage == MatmulStage::NaiveChunk || session.step().stage == MatmulStage::Done, true);
    QCOMPARE(session.animationSteps(), int(session.model().phases()));
}

void TestMatmulSession::selection() {
    JobRunner jobs;
    MatmulSession session(&jobs);
    session.setBackend(BackendChoice::Cpu);
    session.setLaunch(MatmulLaunch::naive(16, 8));
    session.setMatrices(random_matrix(37, 70, 11), random_matrix(70, 29, 12));
    QSignalSpy step(&session, &MatmulSession::stepChanged);
    session.selectElement(20, 18);  // row 20 = 2*8 + 4, column 18 = 1*16 + 2
    QCOMPARE(step.count(), 1);
    QCOMPARE(session.selectedBlock().x, 1u);
    QCOMPARE(session.selectedBlock().y, 2u);
    QCOMPARE(session.selectedThread().x, 2u);
    QCOMPARE(session.selectedThread().y, 4u);
    session.selectElement(99, 0);  // outside C: ignored
    QCOMPARE(session.selectedRow(), 20);
    // A guarded-off thread selects its block only: it computes no element.
    session.selectThread(Dim3{1, 4, 0}, Dim3{15, 7, 0});  // row 39 >= 37
    QCOMPARE(session.selectedBlock().y, 4u);
    QCOMPARE(session.selectedRow(), -1);
    // A new block shape moves the selected element's block with it.
    session.selectElement(20, 18);
    session.setLaunch(MatmulLaunch::naive(8, 8));
    QCOMPARE(session.selectedBlock().x, 2u);
    QCOMPARE(session.selectedBlock().y, 2u);
}

void TestMatmulSession::missingBarrierMarksWrongOutputs() {
    JobRunner jobs;
    MatmulSession session(&jobs);
    session.setBackend(BackendChoice::Auto);
    const Matrix a = random_matrix(45, 60, 1), b = random_matrix(60, 38, 2);
    QSignalSpy finished(&session, &MatmulSession::runFinished);
    session.setMatrices(a, b);
    QVERIFY(finished.wait(kRunTimeoutMs));
    MatmulLaunch l = MatmulLaunch::tiled(16);
    l.second_barrier = false;
    session.setLaunch(l);
    QVERIFY(finished.wait(kRunTimeoutMs));
    // The lesson runs on the emulator, and the safe run beside it: two kernel runs for this change.
    QCOMPARE(session.launchCount(), std::uint64_t(3));
    QVERIFY(session.wrongCount() >= 0);
    QVERIFY(session.wrongMask());
    QVERIFY(session.safeC());
    long long differ = 0;
    for (std::size_t i = 0; i < session.c()->data.size(); ++i)
        differ += std::memcmp(&session.c()->data[i], &session.safeC()->data[i], sizeof(float)) != 0;
    QCOMPARE(session.wrongCount(), differ);
    QCOMPARE(session.runNote().isEmpty(), !cuda_device_available());
    l.second_barrier = true;
    session.setLaunch(l);
    QVERIFY(finished.wait(kRunTimeoutMs));
    QCOMPARE(session.wrongCount(), -1);
    QCOMPARE(session.launchCount(), std::uint64_t(4));
}

void TestMatmulSession::backendPolicyAndDeviceProfile() {
    JobRunner jobs;
    MatmulSession session(&jobs);
    session.setBackend(BackendChoice::Cpu);
    QSignalSpy finished(&session, &MatmulSession::runFinished);
    session.setMatrices(random_matrix(64, 32, 1), random_matrix(32, 64, 2));
    QVERIFY(finished.wait(kRunTimeoutMs));
    QVERIFY2(session.lastResult().backend.startsWith(QStringLiteral("CPU emulator")), qPrintable(session.lastResult().backend));
    session.setBackend(BackendChoice::Auto);
    QVERIFY(finished.wait(kRunTimeoutMs));
    QCOMPARE(session.lastResult().backend.startsWith(QStringLiteral("CUDA")), cuda_device_available());

    // The device profile changes occupancy and waves, not C: no run.
    DeviceProfile small = session.device();
    small.sm_count = 2;
    QSignalSpy plan(&session, &MatmulSession::planChanged);
    QSignalSpy started(&session, &MatmulSession::runStarted);
    session.setDevice(small);
    QCOMPARE(plan.count(), 1);
    QCOMPARE(started.count(), 0);
    QCOMPARE(session.waves().sm_count, 2);
    QCOMPARE(session.waves().blocks, std::uint64_t(16));  // 64x64 in 16x16 blocks
    QVERIFY(session.occupancy().blocks_per_sm > 0);
}

void TestMatmulSession::cudaRunsOncePerChange() {
    if (!cuda_device_available()) QSKIP("no CUDA device");
    JobRunner jobs;
    MatmulSession session(&jobs);
    session.setBackend(BackendChoice::Cuda);
    const Matrix a = random_matrix(45, 60, 1), b = random_matrix(60, 38, 2);
    QSignalSpy finished(&session, &MatmulSession::runFinished);
    session.setMatrices(a, b);
    QVERIFY(finished.wait(kRunTimeoutMs));
    QCOMPARE(session.launchCount(), std::uint64_t(1));
    QVERIFY(session.lastResult().backend.startsWith(QStringLiteral("CUDA")));
    std::uint64_t expected = 1;
    for (const MatmulLaunch& l : {MatmulLaunch::tiled(8), MatmulLaunch::tiled(32), MatmulLaunch::naive(7, 5)}) {
        session.setLaunch(l);
        QVERIFY(finished.wait(kRunTimeoutMs));
        QCOMPARE(session.launchCount(), ++expected);
        QVERIFY(same_bytes(*session.c(), emulated_c(a, b, l)));
    }
}

QTEST_GUILESS_MAIN(TestMatmulSession)
#include "tst_matmul_session.moc"
