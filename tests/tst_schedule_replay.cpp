// The schedule replay model (app/schedule_replay.h): phases on the time axis, what runs on each SM,
// the recorded concurrency, the tail, the model on the same axis, and differences computed from the
// data (a recording that follows the model says so in its figures).
#include <QtTest>

#include "app/trace/schedule_replay.h"

using namespace cvz;

namespace {

// 8 blocks (4x2) on 2 SMs, two at a time per SM, dealt as the model deals them: block b on SM b % 2,
// wave w = b / 4 from 100 w to 100 w + 90 ns, except block 7 which runs to 400 ns.
BlockSchedule model_like() {
    BlockSchedule s;
    s.backend = "cpu";
    s.device = "emu";
    s.sms = 2;
    for (unsigned b = 0; b < 8; ++b) {
        const std::uint64_t start = (b / 4) * 100;
        s.blocks.push_back({Dim3{b % 4, b / 4, 0}, int(b % 2), start, b == 7 ? 400 : start + 90});
    }
    return s;
}

}  // namespace

class TestScheduleReplay : public QObject {
    Q_OBJECT
private slots:
    void phases_and_running();
    void concurrency_tail_and_model();
    void differences_follow_the_data();
    void zero_length_blocks();
    void durations_read_well();
};

void TestScheduleReplay::phases_and_running() {
    const ScheduleReplay r(model_like(), Dim3{4, 2, 1});
    QCOMPARE(r.duration_ns(), 400u);
    QCOMPARE(int(r.phase(0, 0)), int(BlockPhase::Running));
    QCOMPARE(int(r.phase(0, 90)), int(BlockPhase::Done));
    QCOMPARE(int(r.phase(4, 99)), int(BlockPhase::Waiting));
    const auto running = r.running_by_sm(50);
    QCOMPARE(running[0], (std::vector<std::uint64_t>{0, 2}));
    QCOMPARE(running[1], (std::vector<std::uint64_t>{1, 3}));
    QCOMPARE(r.started_at(50), 4u);
    QCOMPARE(r.done_at(95), 4u);
    QCOMPARE(r.done_at(400), 8u);
    QCOMPARE(r.blocks_per_sm(), (std::vector<std::uint64_t>{4, 4}));
}

void TestScheduleReplay::concurrency_tail_and_model() {
    const ScheduleReplay r(model_like(), Dim3{4, 2, 1});
    QCOMPARE(r.max_resident(), 2);
    QCOMPARE(r.tail_start_ns(), 190u);  // SM 0's last block ends at 190; SM 1 runs block 7 to 400
    const WavePlan m = r.model();
    QCOMPARE(m.waves, 2u);
    QCOMPARE(m.blocks_per_wave, 4u);
    QCOMPARE(r.model_wave_at(0), 0u);
    QCOMPARE(r.model_wave_at(199), 0u);
    QCOMPARE(r.model_wave_at(200), 1u);
    QCOMPARE(r.model_wave_at(400), 2u);  // all done
    // The occupancy model's slots, when given, replace the recorded concurrency.
    const ScheduleReplay one_slot(model_like(), Dim3{4, 2, 1}, 1);
    QCOMPARE(one_slot.model().waves, 4u);
    QCOMPARE(one_slot.max_resident(), 2);
    QVERIFY(one_slot.differences().last().contains("the model runs 1 block per host worker (the occupancy model): 4 waves of 2 blocks"));
}

void TestScheduleReplay::differences_follow_the_data() {
    const QStringList d = ScheduleReplay(model_like(), Dim3{4, 2, 1}).differences();
    QCOMPARE(d.size(), 6);
    QVERIFY2(d[0].contains("the first blocks went to host workers 0, 1; the model deals block i to host worker i mod 2 (0, 1)"), qPrintable(d[0]));
    QVERIFY2(d[1].startsWith("8 of 8 blocks ran on the host worker the model predicts (100.0%)"), qPrintable(d[1]));
    QVERIFY2(d[2].contains("from 190 ns; the last 210 ns (52.5% of the run)") && d[2].contains("last wave is 100% full"), qPrintable(d[2]));
    QVERIFY2(d[3].contains("(2 of 2 host workers used); the model gives each 4."), qPrintable(d[3]));
    QVERIFY2(d[4].contains("median 90 ns") && d[4].contains("longest 300 ns (block [3, 1, 0] on host worker 1)"), qPrintable(d[4]));
    QVERIFY2(d[5].startsWith("At most 2 blocks on one host worker at once; the model runs 2 blocks per host worker (the most seen at once): 2 waves of 4 blocks"), qPrintable(d[5]));
}

void TestScheduleReplay::zero_length_blocks() {
    // A block shorter than the timer's tick records start == end: it counts as running at that instant
    // and does not raise the concurrency of the next block that starts there.
    BlockSchedule s;
    s.backend = "cuda";
    s.device = "gpu";
    s.sms = 1;
    s.blocks = {{Dim3{0, 0, 0}, 0, 0, 0}, {Dim3{1, 0, 0}, 0, 0, 32}};
    const ScheduleReplay r(s, Dim3{2, 1, 1});
    QCOMPARE(int(r.phase(0, 0)), int(BlockPhase::Running));
    QCOMPARE(int(r.phase(0, 1)), int(BlockPhase::Done));
    QCOMPARE(r.max_resident(), 1);
}

void TestScheduleReplay::durations_read_well() {
    QCOMPARE(duration_text(840), QString("840 ns"));
    QCOMPARE(duration_text(2080), QString("2.08 µs"));
    QCOMPARE(duration_text(152300), QString("152.3 µs"));
    QCOMPARE(duration_text(2100000), QString("2.10 ms"));
    QCOMPARE(duration_text(3000000000ull), QString("3.00 s"));
}

QTEST_GUILESS_MAIN(TestScheduleReplay)
#include "tst_schedule_replay.moc"
