// The compiled matmul kernels' issue figures (app/compiled_issue.h): every compiled matmul kernel has
// them, nothing else does, the issue-rate curve behaves as its formula says, and the table reproduces
// the Nsight Compute measurements it was derived from (compiled_issue.cpp's comment).
#include <QtTest>

#include <cmath>

#include "app/models/compiled_issue.h"
#include "kernels/catalogue/kernel_catalogue.h"
#include "kernels/matmul/matmul_launch.h"
#include "kernels/matmul/matmul_variants.h"

using namespace cvz;

class TestCompiledIssue : public QObject {
    Q_OBJECT
private slots:
    void every_compiled_matmul_kernel_has_figures();
    void rate_is_one_warp_alone_then_rises_to_the_ceiling();
    void without_a_ceiling_rate_is_the_chance_one_warp_is_ready();
    void table_reproduces_the_measured_issue_rates();
    void instructions_grow_with_k();
};

void TestCompiledIssue::every_compiled_matmul_kernel_has_figures() {
    int matmul = 0;
    for (const KernelRef& ref : compiled_kernels()) {
        const std::optional<CompiledIssue> ci = compiled_issue(ref);
        if (ref.family != KernelFamily::Matmul) {
            QVERIFY2(!ci, to_string(ref).c_str());
            continue;
        }
        ++matmul;
        QVERIFY2(ci, to_string(ref).c_str());
        QVERIFY2(ci->instructions_per_k > 0 && ci->instructions_fixed > 0, to_string(ref).c_str());
        QVERIFY2(ci->ready > 0 && ci->ready <= ci->ceiling && ci->ceiling <= 1, to_string(ref).c_str());
    }
    // naive, tiled at TILE 8/16/32, the five blocktiled variants, the four tensor-core rungs (mma.sync and
    // wgmma), and split-K at each of its slices (the double buffer's figures: the same loop)
    QCOMPARE(matmul, 13 + int(matmul_variant_info(MatmulVariant::SplitK)->tiles.size()));
    QVERIFY(!compiled_issue(KernelRef{KernelFamily::Matmul, std::uint8_t(MatmulVariant::Tiled), 12}));
    QVERIFY(!compiled_issue(KernelRef{KernelFamily::Matmul, 200, 0}));
}

void TestCompiledIssue::rate_is_one_warp_alone_then_rises_to_the_ceiling() {
    const CompiledIssue ci = *compiled_issue(MatmulLaunch::of(MatmulVariant::Blocktile2d, Dim3{16, 16, 1}, 0).ref());
    QVERIFY(ci.ceiling < 1);
    QCOMPARE(ci.rate(0), 0.0);
    QVERIFY(qAbs(ci.rate(1) - ci.ready) < 1e-12);
    double last = 0;
    for (double w = 0.5; w <= 64; w *= 2) {
        QVERIFY2(ci.rate(w) > last && ci.rate(w) <= ci.ceiling, qPrintable(QString::number(w)));
        last = ci.rate(w);
    }
    QVERIFY(ci.ceiling - ci.rate(1000) < 1e-9);
}

void TestCompiledIssue::without_a_ceiling_rate_is_the_chance_one_warp_is_ready() {
    const CompiledIssue naive = *compiled_issue(MatmulLaunch::naive(32, 8).ref());
    QCOMPARE(naive.ceiling, 1.0);
    for (double w : {1.0, 2.0, 16.0})
        QVERIFY(qAbs(naive.rate(w) - (1 - std::pow(1 - naive.ready, w))) < 1e-12);
    // Two warps: ready unless both wait.
    QVERIFY(qAbs(naive.rate(2) - (2 * naive.ready - naive.ready * naive.ready)) < 1e-12);
}

void TestCompiledIssue::table_reproduces_the_measured_issue_rates() {
    // (kernel, the busiest SM's resident warps per scheduler, the rate its schedulers issued at over the
    // launch's elapsed cycles) from Nsight Compute at 1280^3 and 2048^3 (compiled_issue.cpp).
    struct Point {
        MatmulLaunch launch;
        double warps, ipc;
    };
    const Point points[] = {
        {MatmulLaunch::naive(32, 8), 16, 0.695},
        {MatmulLaunch::tiled(16), 16, 0.495},
        {MatmulLaunch::of(MatmulVariant::Blocktile1d, Dim3{32, 8, 1}, 0), 8, 0.563},
        {MatmulLaunch::of(MatmulVariant::Blocktile2d, Dim3{16, 16, 1}, 0), 2, 0.401},
        {MatmulLaunch::of(MatmulVariant::Blocktile2d, Dim3{16, 16, 1}, 0), 4, 0.557},
        {MatmulLaunch::of(MatmulVariant::BlocktileVec, Dim3{16, 16, 1}, 0), 2, 0.419},
        {MatmulLaunch::of(MatmulVariant::BlocktileVec, Dim3{16, 16, 1}, 0), 4, 0.585},
        {MatmulLaunch::of(MatmulVariant::Warptile, Dim3{128, 1, 1}, 0), 1, 0.257},
        {MatmulLaunch::of(MatmulVariant::Warptile, Dim3{128, 1, 1}, 0), 2, 0.414},
        // The same W at both sizes (one block an SM): 2048^3's rate alone.
        {MatmulLaunch::of(MatmulVariant::DoubleBuffer, Dim3{256, 1, 1}, 0), 2, 0.799},
        {MatmulLaunch::of(MatmulVariant::SplitK, Dim3{256, 1, 1}, 1), 2, 0.778},
        {MatmulLaunch::of(MatmulVariant::Tf32, Dim3{128, 1, 1}, 0), 1, 0.289},
        {MatmulLaunch::of(MatmulVariant::Tf32, Dim3{128, 1, 1}, 0), 2, 0.469},
        {MatmulLaunch::of(MatmulVariant::Tf32x3, Dim3{128, 1, 1}, 0), 1, 0.366},
        {MatmulLaunch::of(MatmulVariant::Tf32x3, Dim3{128, 1, 1}, 0), 2, 0.526},
        {MatmulLaunch::of(MatmulVariant::Tf32Wgmma, Dim3{256, 1, 1}, 0), 2, 0.270},
        {MatmulLaunch::of(MatmulVariant::Tf32x3Wgmma, Dim3{256, 1, 1}, 0), 2, 0.383},
    };
    for (const Point& pt : points) {
        const CompiledIssue ci = *compiled_issue(pt.launch.ref());
        const QString what = QStringLiteral("%1 at %2 warps: %3 against %4")
                                 .arg(QString::fromStdString(to_string(pt.launch)))
                                 .arg(pt.warps)
                                 .arg(ci.rate(pt.warps))
                                 .arg(pt.ipc);
        QVERIFY2(qAbs(ci.rate(pt.warps) / pt.ipc - 1) < 0.01, qPrintable(what));
    }
}

void TestCompiledIssue::instructions_grow_with_k() {
    const CompiledIssue ci = *compiled_issue(MatmulLaunch::tiled(16).ref());
    // Nsight Compute's Executed Instructions at 2048^3, TILE=16: 1,082,654,720 over 131,072 warps.
    QCOMPARE(ci.warp_instructions(2048) * 131072, 1082654720.0);
    QCOMPARE(ci.warp_instructions(1024) - ci.warp_instructions(512), 512 * ci.instructions_per_k);
}

QTEST_GUILESS_MAIN(TestCompiledIssue)
#include "tst_compiled_issue.moc"
