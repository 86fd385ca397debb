// The app layer's family registry (app/family/app_family.h) and each family's FamilyProblem: one entry
// per catalogue family, the launch choice round trips with each family's own launch type for every
// compiled kernel, and a problem's texts, errors, throughput, validation and predictions are its
// family's (the same figures as the family's own functions).
#include <QtTest>

#include <set>

#include "app/convolution/convolution_app_problem.h"
#include "app/family/app_family.h"
#include "app/grayscale/grayscale_prediction.h"
#include "app/grayscale/grayscale_problem.h"
#include "app/grayscale/grayscale_resources.h"
#include "app/matmul/matmul_app_problem.h"
#include "app/matmul/matmul_compiled_issue.h"
#include "app/matmul/matmul_prediction.h"
#include "app/matmul/matmul_resources.h"
#include "app/models/compiled_issue.h"
#include "kernels/catalogue/kernel_catalogue.h"
#include "kernels/grayscale/grayscale_launch.h"

using namespace cvz;

namespace {

DeviceProfile h200() { return *find_device_profile(QStringLiteral("H200")); }

RgbBuffer image(std::uint32_t w, std::uint32_t h) {
    RgbBuffer b;
    b.width = w;
    b.height = h;
    b.bytes.assign(3 * std::size_t(w) * h, 9);
    return b;
}

Matrix filled(std::uint32_t r, std::uint32_t c) { return Matrix{r, c, std::vector<float>(std::size_t(r) * c, 1.0f)}; }

}  // namespace

class TestAppFamilies : public QObject {
    Q_OBJECT
private slots:
    void one_entry_per_catalogue_family() {
        std::set<KernelFamily> catalogue, registered;
        for (const KernelInfo& k : kernel_catalogue()) catalogue.insert(k.family);
        for (const AppFamily& f : app_families()) {
            QVERIFY2(registered.insert(f.family).second, qPrintable(f.name));  // once each
            QCOMPARE(f.name, QString::fromLatin1(to_string(f.family)));
            QCOMPARE(find_app_family(f.name), &f);
            QCOMPARE(&app_family(f.family), &f);
            QVERIFY(!f.title.isEmpty() && !f.no_input.isEmpty() && !f.reference_short.isEmpty() &&
                    !f.reference_long.isEmpty() && !f.ladder_unit.isEmpty() && f.ladder_unit_scale > 0);
            QVERIFY(f.block_resources && f.cli_options && f.cli_problem && !f.cli_usage.isEmpty());
            QVERIFY(f.cli_usage.startsWith(QStringLiteral("sweep ") + f.name + QLatin1Char(' ')));
        }
        QVERIFY(registered == catalogue);
        QCOMPARE(find_app_family(QStringLiteral("conv")), nullptr);
        QCOMPARE(app_family_names(), QStringLiteral("grayscale, matmul or convolution"));
    }

    // Every compiled kernel's choice: its block resources through the registry are the family's own,
    // and the family's launch type round trips.
    void choices_round_trip_for_every_compiled_kernel() {
        int seen = 0;
        for (const KernelRef& ref : compiled_kernels()) {
            const KernelInfo* info = kernel_info(ref);
            QVERIFY(info);
            const Dim3 block = info->block == BlockRule::Tile    ? Dim3{ref.tile, ref.tile, 1}
                               : info->block == BlockRule::Fixed ? info->fixed_block
                               : info->block == BlockRule::OneD  ? Dim3{128, 1, 1}
                                                                 : Dim3{16, 8, 1};
            const LaunchChoice choice{ref, block};
            const BlockResources via_registry = app_family(ref.family).block_resources(choice);
            if (ref.family == KernelFamily::Grayscale) {
                const LaunchShape shape = grayscale_shape(choice);
                QCOMPARE(grayscale_choice(shape), choice);
                QCOMPARE(via_registry.threads, grayscale_block_resources(shape).threads);
                QCOMPARE(via_registry.shared_bytes, grayscale_block_resources(shape).shared_bytes);
            } else if (ref.family == KernelFamily::Convolution) {
                const ConvolutionLaunch launch = convolution_launch_of(choice);
                QCOMPARE(launch.ref(), ref);
                QCOMPARE(convolution_choice(launch), choice);
                QCOMPARE(via_registry.threads, int(block.volume()));
                // The registry's hook counts the largest mask's staged tile: never less than any mask's.
                QVERIFY(via_registry.shared_bytes >= int(convolution_shared_bytes(launch, 3)));
                QVERIFY(!compiled_issue(ref));  // no measured issue table for this family
            } else {
                QCOMPARE(ref.family, KernelFamily::Matmul);
                const MatmulLaunch launch = matmul_launch_of(choice);
                QCOMPARE(launch.ref(), ref);
                QCOMPARE(matmul_choice(launch), choice);
                QCOMPARE(via_registry.shared_bytes, matmul_block_resources(launch).shared_bytes);
                QCOMPARE(via_registry.regs_per_thread, matmul_block_resources(launch).regs_per_thread);
                // The issue figures come through the registry from the family's table.
                QCOMPARE(bool(compiled_issue(ref)), bool(matmul_compiled_issue(ref)));
                if (compiled_issue(ref)) QCOMPARE(compiled_issue(ref)->instructions_per_k, matmul_compiled_issue(ref)->instructions_per_k);
            }
            ++seen;
        }
        QVERIFY(seen >= 10);
        QVERIFY(!compiled_issue(grayscale_choice(LaunchShape::one_d(256)).ref));  // a family without a table
    }

    void grayscale_problem_is_the_family_figures() {
        const FamilyProblemPtr p = make_grayscale_problem(image(61, 29), PixelLayout::Planar);
        QCOMPARE(p->family(), KernelFamily::Grayscale);
        QCOMPARE(p->text(), QStringLiteral("61 × 29 image, planar"));
        QCOMPARE(p->sizeText(), QStringLiteral("61 × 29"));
        QCOMPARE(p->inputError(), QString());
        QCOMPARE(p->throughputUnit(), QStringLiteral("GB/s"));
        QCOMPARE(p->throughput(0.5), grayscale_gb_per_s(61 * 29, 0.5));
        // The layout rule: a variant that reads interleaved pixels only is refused on planar input.
        for (const KernelInfo& k : family_catalogue(KernelFamily::Grayscale)) {
            const LaunchChoice c{k.ref(), k.block == BlockRule::Fixed ? k.fixed_block : Dim3{256, 1, 1}};
            QCOMPARE(p->validate(c).toStdString(), validate_grayscale_layout(grayscale_shape(c), PixelLayout::Planar));
        }
        const LaunchShape s = LaunchShape::two_d(16, 8);
        QCOMPARE(p->predict(h200(), grayscale_choice(s)).total_us, predict_grayscale(h200(), s, 61, 29, PixelLayout::Planar).total_us);
        // Sizes alone: the same prediction, nothing to time.
        const FamilyProblemPtr sized = make_grayscale_problem(61, 29, PixelLayout::Planar);
        QCOMPARE(sized->text(), p->text());
        QCOMPARE(sized->inputError(), QString());
        QCOMPARE(sized->predict(h200(), grayscale_choice(s)).total_us, p->predict(h200(), grayscale_choice(s)).total_us);
        QVERIFY(!sized->time({grayscale_choice(s)}, {}).status.is_ok());
        // No image, or a buffer of the wrong size: a reason.
        const FamilyProblemPtr none = make_grayscale_problem(RgbBuffer{}, PixelLayout::Interleaved);
        QCOMPARE(none->text(), QStringLiteral("no image"));
        QVERIFY(!none->inputError().isEmpty());
        RgbBuffer bad = image(5, 3);
        bad.bytes.pop_back();
        QVERIFY(!make_grayscale_problem(bad, PixelLayout::Interleaved)->inputError().isEmpty());
        // A corner of a large image is traced; a small one whole.
        const ProblemTrace t = p->traceSample(grayscale_choice(s), nullptr);
        QVERIFY(t.traced.status.is_ok());
        QCOMPARE(t.traced_size, p->sizeText());
        QCOMPARE(t.fmas, std::uint64_t(3 * 61 * 29));
    }

    void matmul_problem_is_the_family_figures() {
        const FamilyProblemPtr p = make_matmul_problem(filled(37, 45), filled(45, 29));
        QCOMPARE(p->family(), KernelFamily::Matmul);
        QCOMPARE(p->text(), QStringLiteral("A 37×45 @ B 45×29"));
        QCOMPARE(p->sizeText(), QStringLiteral("37×45×29"));
        QCOMPARE(p->inputError(), QString());
        QCOMPARE(p->throughputUnit(), QStringLiteral("GFLOP/s"));
        QCOMPARE(p->throughput(0.25), matmul_gflop_per_s(37, 29, 45, 0.25));
        const MatmulLaunch tiled = MatmulLaunch::tiled(16);
        QCOMPARE(p->validate(matmul_choice(tiled)), QString());
        QCOMPARE(p->predict(h200(), matmul_choice(tiled)).total_us, predict_matmul(h200(), tiled, 37, 45, 29).total_us);
        const MatmulAppProblem sized(37, 45, 29);
        QCOMPARE(sized.text(), p->text());
        QCOMPARE(sized.predict(h200(), matmul_choice(tiled)).total_us, p->predict(h200(), matmul_choice(tiled)).total_us);
        QVERIFY(!sized.time({matmul_choice(tiled)}, {}).status.is_ok());
        // Matrices that do not multiply, or none: a reason naming the shapes.
        const QString e = make_matmul_problem(filled(37, 45), filled(44, 29))->inputError();
        QVERIFY2(e.contains(QStringLiteral("45")) && e.contains(QStringLiteral("44")), qPrintable(e));
        QCOMPARE(make_matmul_problem(Matrix{}, Matrix{})->text(), QStringLiteral("no matrices"));
        // The trace is cut to kLadderTraceSide a side.
        const FamilyProblemPtr big = std::make_shared<const MatmulAppProblem>(300, 257, 7);
        const ProblemTrace t = big->traceSample(matmul_choice(tiled), nullptr);
        QVERIFY(t.traced.status.is_ok());
        QCOMPARE(t.traced_size, QStringLiteral("256×256×7"));
        QCOMPARE(t.fmas, std::uint64_t(256) * 256 * 7);
    }
};

QTEST_MAIN(TestAppFamilies)
#include "tst_app_families.moc"
