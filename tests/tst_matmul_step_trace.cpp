// Which recorded requests a step of the matmul animation shows, and its caption, read from real
// traces: a naive chunk's loads are those of its k-slice (addresses checked against
// A[r, k] = 4 (r K + k) and B[k, c] = 4 (k N + c)), a tiled phase's load step the staging loads and
// stores of that phase, its multiply step the 2 TILE shared loads, a barrier none, done the store.
#include <QtTest>

#include <set>

#include "app/matmul/matmul_phase_model.h"
#include "app/matmul/matmul_step_trace.h"
#include "kernels/core/index_math.h"
#include "kernels/matmul/matmul_variants.h"
#include "kernels/matmul/matmul_trace.h"

using namespace cvz;

class TestMatmulStepTrace : public QObject {
    Q_OBJECT
private slots:
    void naive_chunks_take_their_k_slice();
    void tiled_stages_take_their_phase();
    void traced_counters_equal_closed_forms_data();
    void traced_counters_equal_closed_forms();
    void register_tiled_counters_add_up_to_the_kernel();
};

// Naive 16 x 16 over 37 x 45 @ 45 x 29: block (1, 2), warp 3 = rows ty 6, 7 of the block: r = 38, 39
// are past M = 37, so take warp 1 (ty 2, 3: r = 34, 35), columns c = 16 + tx (tx < 13 inside N).
void TestMatmulStepTrace::naive_chunks_take_their_k_slice() {
    const std::uint32_t m = 37, k = 45, n = 29;
    const MatmulLaunch launch = MatmulLaunch::naive(16, 16);
    const MatmulPhaseModel model(launch, m, k, n);
    const Dim3 block{1, 2, 1};
    const std::uint64_t linear = 2ull * model.grid().x + 1;
    TraceOptions options;
    options.keep_blocks = {linear};
    const TraceResult result = trace_matmul(nullptr, nullptr, m, k, n, launch, options);
    QVERIFY(result.status.is_ok());
    const std::vector<const MemoryRequest*> warp = result.trace.requests_of(linear, 1);
    QCOMPARE(warp.size(), std::size_t(2 * k + 1));
    for (int position = 0; position <= model.steps(); ++position) {
        const MatmulStep step = model.step(position, block, Dim3{0, 2, 1});
        const std::vector<const MemoryRequest*> got = matmul_step_requests(warp, step, k);
        if (step.stage == MatmulStage::Done) {
            QCOMPARE(got.size(), std::size_t(1));
            QCOMPARE(got[0]->access, Access::Store);
            continue;
        }
        QCOMPARE(got.size(), std::size_t(2 * (step.k_end - step.k_begin)));
        // The step's first A and B requests (the body's two loads of one fmaf, in whichever order the
        // compiler evaluates them): A[r, k_begin] for the warp's two rows, B[k_begin, c], c = 16 + lane % 16.
        const MemoryRequest* a = nullptr;
        const MemoryRequest* b = nullptr;
        for (const MemoryRequest* r : got) {
            const std::string& name = result.trace.buffers[std::size_t(r->buffer)].name;
            if (name == "A" && !a) a = r;
            if (name == "B" && !b) b = r;
        }
        QVERIFY(a && b);
        std::set<std::uint64_t> offsets;
        for (const LaneAccess& l : a->lanes) offsets.insert(l.offset);
        QCOMPARE(offsets, (std::set<std::uint64_t>{4ull * (34 * k + step.k_begin), 4ull * (35 * k + step.k_begin)}));
        for (const LaneAccess& l : b->lanes) QCOMPARE(l.offset, 4ull * (std::uint64_t(step.k_begin) * n + 16 + l.lane % 16));
        QVERIFY(matmul_step_caption(&result.trace, got, step, true).contains(QStringLiteral("load A")));
    }
}

// Tiled TILE = 8 on 37 x 70 @ 70 x 29, block (2, 2), warp 1 (ty 4..7, r = 20..23).
void TestMatmulStepTrace::tiled_stages_take_their_phase() {
    const std::uint32_t m = 37, k = 70, n = 29;
    const unsigned T = 8;
    const MatmulLaunch launch = MatmulLaunch::tiled(T);
    const MatmulPhaseModel model(launch, m, k, n);
    const Dim3 block{2, 2, 1};
    const std::uint64_t linear = 2ull * model.grid().x + 2;
    TraceOptions options;
    options.keep_blocks = {linear};
    const TraceResult result = trace_matmul(nullptr, nullptr, m, k, n, launch, options);
    QVERIFY(result.status.is_ok());
    const std::vector<const MemoryRequest*> warp = result.trace.requests_of(linear, 1);
    for (int position = 0; position <= model.steps(); ++position) {
        const MatmulStep step = model.step(position, block, Dim3{5, 4, 1});
        const std::vector<const MemoryRequest*> got = matmul_step_requests(warp, step, k);
        const QString caption = matmul_step_caption(&result.trace, got, step, true);
        switch (step.stage) {
            case MatmulStage::Load: {
                QCOMPARE(got.size(), std::size_t(4));  // load A, store shared, load B, store shared
                const MemoryRequest* a = got[0];  // the phase's first line stages A
                QCOMPARE(a->space, MemorySpace::Global);
                QCOMPARE(result.trace.buffers[std::size_t(a->buffer)].name, std::string("A"));
                for (const LaneAccess& l : a->lanes) {
                    const std::uint64_t r = 16 + 4 + l.lane / T, kk = std::uint64_t(step.phase) * T + l.lane % T;
                    QCOMPARE(l.offset, 4 * (r * k + kk));
                }
                QVERIFY(caption.contains(QStringLiteral("store shared memory")));
                break;
            }
            case MatmulStage::Multiply:
                QCOMPARE(got.size(), std::size_t(2 * T));
                for (const MemoryRequest* r : got) QCOMPARE(r->space, MemorySpace::Shared);
                break;
            case MatmulStage::Barrier:
                QVERIFY(got.empty());
                QVERIFY(caption.contains(QStringLiteral("__syncthreads()")));
                break;
            case MatmulStage::Done:
                QCOMPARE(got.size(), std::size_t(1));
                QCOMPARE(got[0]->access, Access::Store);
                break;
            case MatmulStage::NaiveChunk: QFAIL("a tiled launch has no naive chunk");
        }
    }
}

Q_DECLARE_METATYPE(cvz::MatmulLaunch)

void TestMatmulStepTrace::traced_counters_equal_closed_forms_data() {
    QTest::addColumn<MatmulLaunch>("launch");
    for (const MatmulLaunch& l : {MatmulLaunch::naive(16, 16), MatmulLaunch::naive(7, 3), MatmulLaunch::tiled(8), MatmulLaunch::tiled(16)})
        QTest::newRow(to_string(l).c_str()) << l;
}

// The page counts a register-tiled kernel's step off the trace; for the lecture's kernels the same
// counting must give the phase model's closed forms, at every step, for the block and for its first,
// last and a middle thread, on odd sizes (37 x 45 @ 45 x 29: ragged in M, N and K).
void TestMatmulStepTrace::traced_counters_equal_closed_forms() {
    QFETCH(MatmulLaunch, launch);
    const std::uint32_t m = 37, k = 45, n = 29;
    const MatmulPhaseModel model(launch, m, k, n);
    QVERIFY(model.valid() && model.closed_form_counters());
    const Dim3 grid = model.grid(), bd = launch.block_shape();
    for (const std::uint64_t id : {std::uint64_t(0), std::uint64_t(grid.x) * grid.y - 1}) {
        const Dim3 block{unsigned(id % grid.x), unsigned(id / grid.x), 0};
        TraceOptions options;
        options.keep_blocks = {id};
        const TraceResult result = trace_matmul(nullptr, nullptr, m, k, n, launch, options);
        QVERIFY(result.status.is_ok());
        for (const Dim3 th : {Dim3{0, 0, 0}, Dim3{bd.x - 1, bd.y - 1, 0}, Dim3{bd.x / 2, 1 % bd.y, 0}}) {
            const std::uint32_t t = th.x + th.y * bd.x;
            for (int position = 0; position <= model.steps(); ++position) {
                const MatmulStep step = model.step(position, block, th);
                const MatmulStepCounters want = step.counters;
                const MatmulStepCounters got = matmul_traced_counters(result.trace, id, t, step, k);
                const QByteArray where = QStringLiteral("block %1 thread (%2, %3) step %4").arg(id).arg(th.x).arg(th.y).arg(position).toUtf8();
                QVERIFY2(got.block_global_loads == want.block_global_loads, where);
                QVERIFY2(got.thread_global_loads == want.thread_global_loads, where);
                QVERIFY2(got.block_shared_loads == want.block_shared_loads, where);
                QVERIFY2(got.thread_shared_loads == want.thread_shared_loads, where);
                QVERIFY2(got.block_global_stores == want.block_global_stores, where);
                QVERIFY2(got.thread_global_stores == want.thread_global_stores, where);
                QCOMPARE(got.k_done, want.k_done);
            }
        }
    }
}

// A register-tiled kernel is staged phase by phase of its BK; counted off the trace, the block's
// accesses grow step by step and at "done" equal every request of the block.
void TestMatmulStepTrace::register_tiled_counters_add_up_to_the_kernel() {
    const std::uint32_t m = 150, k = 37, n = 261;  // block 0 full for the double buffer's 256 columns
    for (const MatmulVariant v : {MatmulVariant::Blocktile1d, MatmulVariant::Blocktile2d, MatmulVariant::Warptile,
                                  MatmulVariant::DoubleBuffer}) {
        const KernelInfo* info = matmul_variant_info(v);
        QVERIFY(info);
        const MatmulLaunch launch = MatmulLaunch::of(v, info->fixed_block, 16);
        const MatmulPhaseModel model(launch, m, k, n);
        QVERIFY(model.valid() && model.staged() && !model.closed_form_counters());
        QCOMPARE(model.phases(), std::uint32_t(cdiv(k, model.k_slice())));
        QCOMPARE(model.steps(), int(3 * model.phases()));
        TraceOptions options;
        options.keep_blocks = {0};
        const TraceResult result = trace_matmul(nullptr, nullptr, m, k, n, launch, options);
        QVERIFY(result.status.is_ok());
        std::uint64_t global_loads = 0, shared_loads = 0, stores = 0;
        for (const MemoryRequest& r : result.trace.requests) {
            if (r.block != 0) continue;
            if (r.space == MemorySpace::Shared) {
                if (r.access == Access::Load) shared_loads += r.lanes.size();
            } else {
                (r.access == Access::Load ? global_loads : stores) += r.lanes.size();
            }
        }
        MatmulStepCounters last;
        for (int position = 0; position <= model.steps(); ++position) {
            const MatmulStep step = model.step(position, Dim3{0, 0, 0}, Dim3{0, 0, 0});
            const MatmulStepCounters c = matmul_traced_counters(result.trace, 0, 0, step, k);
            QVERIFY(c.block_global_loads >= last.block_global_loads && c.block_shared_loads >= last.block_shared_loads);
            QVERIFY(c.thread_global_loads <= c.block_global_loads);
            if (step.stage == MatmulStage::Load) QVERIFY2(c.block_global_loads > last.block_global_loads, info->name.c_str());
            if (step.stage == MatmulStage::Multiply) QVERIFY2(c.block_shared_loads > last.block_shared_loads, info->name.c_str());
            last = c;
        }
        QCOMPARE(last.block_global_loads, global_loads);
        QCOMPARE(last.block_shared_loads, shared_loads);
        QCOMPARE(last.block_global_stores, stores);
        // Thread 0 of block 0 stores its whole register tile: element by element, or (double buffer)
        // as float4 where a row of C is 16-byte aligned, which N = 261 rules out.
        QCOMPARE(last.thread_global_stores, std::uint64_t(info->items_per_thread));
    }
}

QTEST_GUILESS_MAIN(TestMatmulStepTrace)
#include "tst_matmul_step_trace.moc"
