// The CPU emulator of CUDA's execution model: coverage of the grid, index conventions, parallel
// blocks, shared memory and barriers (fibers), and its refusals.
#include <QtTest>

#include <atomic>
#include <mutex>
#include <set>
#include <tuple>
#include <vector>

#include "kernels/core/index_math.h"
#include "kernels/emulator/emulate.h"

using namespace cvz;

Q_DECLARE_METATYPE(cvz::Dim3)

class TestEmulator : public QObject {
    Q_OBJECT
private slots:
    void every_thread_runs_once_data();
    void every_thread_runs_once();
    void block_of_linear_inverts_linear_block_id();
    void warps_are_32_consecutive_linear_ids();
    void barrier_orders_shared_memory();
    void missing_barrier_reads_stale_shared_memory();
    void threads_that_finish_early_release_the_barrier();
    void fiber_blocks_reuse_their_stacks();
    void sync_without_barrier_mode_is_reported();
    void rejects_invalid_shapes();
};

void TestEmulator::every_thread_runs_once_data() {
    QTest::addColumn<Dim3>("grid");
    QTest::addColumn<Dim3>("block");
    QTest::addColumn<unsigned>("host_threads");
    QTest::newRow("1 block of 1") << Dim3{1, 1, 1} << Dim3{1, 1, 1} << 1u;
    QTest::newRow("1-D 5 x 33") << Dim3{5, 1, 1} << Dim3{33, 1, 1} << 0u;
    QTest::newRow("2-D 3x7 of 7x3") << Dim3{3, 7, 1} << Dim3{7, 3, 1} << 2u;
    QTest::newRow("3-D 2x3x4 of 4x2x3") << Dim3{2, 3, 4} << Dim3{4, 2, 3} << 3u;
    QTest::newRow("1-D 1000 x 1024, 4 host threads") << Dim3{1000, 1, 1} << Dim3{1024, 1, 1} << 4u;
}

void TestEmulator::every_thread_runs_once() {
    QFETCH(Dim3, grid);
    QFETCH(Dim3, block);
    QFETCH(unsigned, host_threads);
    const std::uint64_t total = grid.volume() * block.volume();
    std::vector<std::atomic<int>> seen(total);
    EmuOptions o;
    o.host_threads = host_threads;
    const Status s = emulate(grid, block, o, [&](const EmuContext& c) {
        QVERIFY(c.block_dim() == block);
        QVERIFY(c.grid_dim() == grid);
        const std::uint64_t id = linear_block_id(c.block_idx(), grid) * block.volume() +
                                 linear_thread_id(c.thread_idx(), block);
        seen[id].fetch_add(1);
    });
    QVERIFY2(s.is_ok(), s.message().c_str());
    for (std::uint64_t i = 0; i < total; ++i) QCOMPARE(seen[i].load(), 1);
}

void TestEmulator::block_of_linear_inverts_linear_block_id() {
    const Dim3 grid{5, 3, 2};
    for (std::uint64_t b = 0; b < grid.volume(); ++b) QCOMPARE(linear_block_id(block_of_linear(b, grid), grid), b);
    QVERIFY(block_of_linear(7, grid) == (Dim3{2, 1, 0}));
}

void TestEmulator::warps_are_32_consecutive_linear_ids() {
    const Dim3 block{7, 9, 1};  // 63 threads: one full warp and a partial one of 31
    QCOMPARE(warp_of(Dim3{6, 4, 0}, block), std::uint64_t(34 / 32));
    QCOMPARE(lane_of(Dim3{6, 4, 0}, block), 34u % 32);
    QCOMPARE(warp_of(Dim3{3, 4, 0}, block), 0u);  // linear id 31
    QCOMPARE(warp_of(Dim3{4, 4, 0}, block), 1u);  // linear id 32
    QCOMPARE(lane_of(Dim3{4, 4, 0}, block), 0u);
}

// Each thread writes its id into shared memory, syncs, then reads its right neighbour's slot: only
// correct if no thread read before every thread wrote. Blocks of 7x5 (35 threads) reversed twice.
void TestEmulator::barrier_orders_shared_memory() {
    const Dim3 grid{3, 2, 1}, block{7, 5, 1};
    const unsigned n = unsigned(block.volume());
    std::vector<unsigned> out(grid.volume() * n, 0xFFFFFFFF);
    EmuOptions o;
    o.barriers = true;
    o.shared_bytes = n * sizeof(unsigned);
    const Status s = emulate(grid, block, o, [&](const EmuContext& c) {
        unsigned* sh = c.shared<unsigned>();
        const unsigned t = unsigned(linear_thread_id(c.thread_idx(), c.block_dim()));
        const unsigned b = unsigned(linear_block_id(c.block_idx(), c.grid_dim()));
        sh[t] = b * 1000 + t;
        c.sync();
        const unsigned v = sh[(t + 1) % n];
        c.sync();
        sh[t] = v + 1;  // a second phase through the same memory
        c.sync();
        out[b * n + t] = sh[(t + n - 1) % n];
    });
    QVERIFY2(s.is_ok(), s.message().c_str());
    for (unsigned b = 0; b < grid.volume(); ++b)
        for (unsigned t = 0; t < n; ++t) QCOMPARE(out[b * n + t], b * 1000 + t + 1);
}

// Leaving out the barrier lets a thread read a slot its neighbour has not written yet: the emulator
// must reproduce that wrong answer (here, deterministically, the initial zero) instead of hiding it.
void TestEmulator::missing_barrier_reads_stale_shared_memory() {
    const Dim3 block{64, 1, 1};
    std::vector<unsigned> out(64, 0xFFFFFFFF);
    EmuOptions o;
    o.barriers = true;
    o.shared_bytes = 64 * sizeof(unsigned);
    QVERIFY(emulate(Dim3{1, 1, 1}, block, o, [&](const EmuContext& c) {
                unsigned* sh = c.shared<unsigned>();
                const unsigned t = c.thread_idx().x;
                sh[t] = t + 1;
                out[t] = sh[(t + 1) % 64];  // no sync()
            }).is_ok());
    int wrong = 0;
    for (unsigned t = 0; t < 64; ++t) wrong += out[t] != (t + 1) % 64 + 1;
    QVERIFY2(wrong > 0, "without the barrier some thread must see its neighbour's slot unwritten");
}

// Thread t of each block calls sync() t times, so at barrier k the threads 0..k have already finished:
// a barrier waits for the threads still running only (the fibers' round skips finished ones), and none
// passes barrier k before every thread that reaches it has arrived.
void TestEmulator::threads_that_finish_early_release_the_barrier() {
    const Dim3 grid{3, 1, 1}, block{9, 1, 1};
    const unsigned n = block.x;
    std::vector<int> arrived(grid.x * n, 0), finished(grid.x * n, 0);
    int out_of_order = 0;
    EmuOptions o;
    o.barriers = true;
    o.host_threads = 1;  // the counters are plain ints
    const Status s = emulate(grid, block, o, [&](const EmuContext& c) {
        const unsigned t = c.thread_idx().x, b = c.block_idx().x;
        for (unsigned k = 0; k < t; ++k) {
            ++arrived[b * n + k];
            c.sync();
            out_of_order += arrived[b * n + k] != int(n - 1 - k);  // threads k+1 .. n-1 reach barrier k
        }
        ++finished[b * n + t];
    });
    QVERIFY2(s.is_ok(), s.message().c_str());
    QCOMPARE(out_of_order, 0);
    for (int f : finished) QCOMPARE(f, 1);
}

// Host threads keep one set of fiber stacks for all the blocks they run: many blocks of many threads,
// each thread's locals on its own stack across barriers, on every host thread count.
void TestEmulator::fiber_blocks_reuse_their_stacks() {
    const Dim3 grid{40, 3, 1}, block{16, 8, 1};
    for (unsigned host_threads : {1u, 2u, 3u}) {
        std::vector<std::uint64_t> out(grid.volume() * block.volume(), 0);
        EmuOptions o;
        o.barriers = true;
        o.host_threads = host_threads;
        o.fiber_stack_bytes = 1;  // raised to the minimum the emulator allows
        const Status s = emulate(grid, block, o, [&](const EmuContext& c) {
            const std::uint64_t id = linear_block_id(c.block_idx(), c.grid_dim()) * block.volume() +
                                     linear_thread_id(c.thread_idx(), c.block_dim());
            std::uint64_t local[8];  // lives on this fiber's stack across the barriers
            for (unsigned k = 0; k < 8; ++k) {
                local[k] = id * 8 + k;
                c.sync();
            }
            std::uint64_t sum = 0;
            for (std::uint64_t v : local) sum += v;
            out[id] = sum;
        });
        QVERIFY2(s.is_ok(), s.message().c_str());
        for (std::uint64_t id = 0; id < out.size(); ++id) QCOMPARE(out[id], id * 64 + 28);
    }
}

void TestEmulator::sync_without_barrier_mode_is_reported() {
    const Status s = emulate(Dim3{2, 1, 1}, Dim3{4, 1, 1}, EmuOptions{}, [](const EmuContext& c) { c.sync(); });
    QVERIFY(!s.is_ok());
    QVERIFY(QString::fromStdString(s.message()).contains("without barriers"));
}

void TestEmulator::rejects_invalid_shapes() {
    int ran = 0;
    auto body = [&](const EmuContext&) { ++ran; };
    QVERIFY(!emulate(Dim3{1, 1, 1}, Dim3{1025, 1, 1}, EmuOptions{}, body).is_ok());
    QVERIFY(!emulate(Dim3{1, 1, 1}, Dim3{32, 32, 2}, EmuOptions{}, body).is_ok());
    QVERIFY(!emulate(Dim3{1, 1, 1}, Dim3{1, 1, 65}, EmuOptions{}, body).is_ok());
    QVERIFY(!emulate(Dim3{1, 65536, 1}, Dim3{1, 1, 1}, EmuOptions{}, body).is_ok());
    QVERIFY(!emulate(Dim3{0, 1, 1}, Dim3{1, 1, 1}, EmuOptions{}, body).is_ok());
    QCOMPARE(ran, 0);
    const Status s = emulate(Dim3{1, 1, 1}, Dim3{64, 32, 1}, EmuOptions{}, body);
    QCOMPARE(s.kind(), ErrorKind::InvalidInput);
    QVERIFY(QString::fromStdString(s.message()).contains("2048 threads"));
}

QTEST_APPLESS_MAIN(TestEmulator)
#include "tst_emulator.moc"
