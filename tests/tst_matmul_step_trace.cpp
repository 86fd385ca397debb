// Which recorded requests a step of the matmul animation shows, and its caption, read from real
// traces: a naive chunk's loads are those of its k-slice (addresses checked against
// A[r, k] = 4 (r K + k) and B[k, c] = 4 (k N + c)), a tiled phase's load step the staging loads and
// stores of that phase, its multiply step the 2 TILE shared loads, a barrier none, done the store.
#include <QtTest>

#include <set>

#include "app/matmul_phase_model.h"
#include "app/matmul_step_trace.h"
#include "kernels/core/index_math.h"
#include "kernels/trace/matmul_trace.h"

using namespace cvz;

class TestMatmulStepTrace : public QObject {
    Q_OBJECT
private slots:
    void naive_chunks_take_their_k_slice();
    void tiled_stages_take_their_phase();
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

QTEST_GUILESS_MAIN(TestMatmulStepTrace)
#include "tst_matmul_step_trace.moc"
