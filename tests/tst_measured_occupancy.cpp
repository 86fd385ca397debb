// Occupancy from the CUDA runtime against the model: with a device, the occupancy API's blocks per SM
// for every kernel over many block shapes must equal compute_occupancy() for the device's own profile
// with the register count the runtime reports; those register counts must equal the families' ptxas
// table (kernel_catalogue.h) (the model's input when there is no device). Without a device (or toolkit) the API
// answers Unavailable and measured_occupancy() leaves the model to the caller.
#include <QtTest>

#include "app/matmul/matmul_resources.h"
#include "app/grayscale/grayscale_problem.h"
#include "app/models/device_profile.h"
#include "app/models/kernel_resources.h"
#include "app/models/measured_occupancy.h"
#include "app/models/occupancy_model.h"
#include "kernels/catalogue/kernel_catalogue.h"
#include "kernels/cuda/occupancy_api.h"
#include "kernels/grayscale/grayscale_launch.h"

#include <set>

using namespace cvz;

Q_DECLARE_METATYPE(cvz::KernelId)

namespace {

int table_registers(KernelId id) {
    KernelResources r{-1, -1};
    return table_kernel_resources(id, &r) ? r.registers : -1;
}

// Every compiled kernel of the catalogue: each variant, once per TILE where it takes one.
const std::vector<KernelRef> kAllKernels = compiled_kernels();

// A few blocks per launch rule, for the API-vs-model rows of every variant.
std::vector<Dim3> blocks_for(const KernelInfo& k) {
    switch (k.block) {
        case BlockRule::OneD: {
            std::vector<Dim3> b;
            for (unsigned t = 32; t <= 1024; t += 32) b.push_back(Dim3{t, 1, 1});
            return b;
        }
        case BlockRule::TwoD: return {Dim3{16, 16, 1}, Dim3{32, 8, 1}, Dim3{8, 32, 1}, Dim3{32, 32, 1}, Dim3{7, 3, 1}};
        case BlockRule::Tile: {
            std::vector<Dim3> b;
            for (unsigned t : k.tiles) b.push_back(Dim3{t, t, 1});
            return b;
        }
        case BlockRule::Fixed: return {k.fixed_block};
    }
    return {};
}

}  // namespace

class TestMeasuredOccupancy : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void kernel_ids();
    void unknown_kernels_are_refused();
    void api_matches_model_data();
    void api_matches_model();
    void registers_match_table_data();
    void registers_match_table();
    void measured_occupancy_fills_the_figures();
    void no_device_is_unavailable();

private:
    std::optional<DeviceProfile> device_;
    QString no_device_;
};

#define REQUIRE_DEVICE() \
    if (!device_) QSKIP(qPrintable(no_device_))

void TestMeasuredOccupancy::initTestCase() {
    device_ = cuda_device_profile(0);
    if (device_) {
        qInfo("CUDA device 0: %s, cc %s, %d SMs, %d threads/SM, %d blocks/SM, %d registers/SM, %d B shared/SM",
              qPrintable(device_->name), qPrintable(device_->compute_capability()), device_->sm_count,
              device_->max_threads_per_sm, device_->max_blocks_per_sm, device_->regs_per_sm, device_->shared_per_sm);
        // The true register counts, for the record (kernel_resources.h keeps ptxas's figures for sm_90).
        for (KernelId id : kAllKernels) {
            int regs = -1;
            const Status s = cuda_kernel_occupancy(id, 64, 0, nullptr, &regs);
            qInfo("registers per thread, %s: device %d, table %d%s", to_string(id).c_str(), regs, table_registers(id),
                  s.is_ok() ? "" : qPrintable(" (" + QString::fromStdString(s.message()) + ")"));
        }
    } else {
        const Status s = cuda_kernel_occupancy(MatmulLaunch::naive(16, 16).ref(), 256, 0, nullptr, nullptr);
        no_device_ = "no CUDA device: " + QString::fromStdString(s.is_ok() ? "none found" : s.message());
        qInfo("%s", qPrintable(no_device_));
    }
}

void TestMeasuredOccupancy::kernel_ids() {
    const KernelRef gray1{KernelFamily::Grayscale, std::uint8_t(GrayscaleVariant::Gray1d), 0};
    const KernelRef gray2{KernelFamily::Grayscale, std::uint8_t(GrayscaleVariant::Gray2d), 0};
    QVERIFY(grayscale_choice(LaunchShape::one_d(256)).ref == gray1);
    QVERIFY(grayscale_choice(LaunchShape::two_d(16, 16)).ref == gray2);
    QVERIFY(MatmulLaunch::naive(7, 3).ref() == (KernelRef{KernelFamily::Matmul, std::uint8_t(MatmulVariant::Naive), 0}));
    for (unsigned tile : {8u, 16u, 32u})
        QVERIFY(MatmulLaunch::tiled(tile).ref() == (KernelRef{KernelFamily::Matmul, std::uint8_t(MatmulVariant::Tiled), tile}));
    QCOMPARE(QString::fromStdString(to_string(MatmulLaunch::tiled(16).ref())), QString("matmul_tiled TILE=16"));
    QCOMPARE(QString::fromStdString(to_string(gray2)), QString("gray_2d"));
    // Every compiled kernel is distinct and has a table entry; the list covers every catalogue variant.
    std::set<std::string> names;
    for (const KernelRef& r : kAllKernels) {
        QVERIFY2(table_registers(r) > 0, to_string(r).c_str());
        names.insert(to_string(r));
    }
    QCOMPARE(names.size(), kAllKernels.size());
    for (const KernelInfo& k : kernel_catalogue()) {
        bool found = false;
        for (const KernelRef& r : kAllKernels) found = found || (r.family == k.family && r.variant == k.variant);
        QVERIFY2(found, k.name.c_str());
    }
}

void TestMeasuredOccupancy::unknown_kernels_are_refused() {
    const KernelRef no_variant{KernelFamily::Grayscale, 200, 0};
    const KernelRef no_tile{KernelFamily::Matmul, std::uint8_t(MatmulVariant::Tiled), 12};
    KernelResources r;
    QCOMPARE(table_kernel_resources(no_variant, &r).kind(), ErrorKind::InvalidInput);
    const Status t = table_kernel_resources(no_tile, &r);
    QCOMPARE(t.kind(), ErrorKind::InvalidInput);
    QVERIFY2(QString::fromStdString(t.message()).contains("8, 16, 32"), t.message().c_str());
#if CUDAVIZ_HAVE_CUDA
    // The kernel is looked up through the dispatcher before the runtime is asked, device or not.
    QCOMPARE(cuda_kernel_occupancy(no_variant, 256, 0, nullptr, nullptr).kind(), ErrorKind::InvalidInput);
    QCOMPARE(cuda_kernel_occupancy(no_tile, 144, 0, nullptr, nullptr).kind(), ErrorKind::InvalidInput);
#endif
}

void TestMeasuredOccupancy::api_matches_model_data() {
    QTest::addColumn<KernelId>("kernel");
    QTest::addColumn<int>("threads");
    QTest::addColumn<int>("shared");
    for (const KernelInfo& k : kernel_catalogue()) {
        for (const Dim3& b : blocks_for(k)) {
            const unsigned tile = k.block == BlockRule::Tile ? b.x : 0;
            std::size_t shared = 0;
            if (k.family == KernelFamily::Matmul)
                shared = MatmulLaunch::of(MatmulVariant(k.variant), b, tile).shared_bytes();
            else
                shared = grayscale_shared_bytes(LaunchShape::of(GrayscaleVariant(k.variant), b));
            QTest::newRow(qPrintable(QString("%1 %2x%3").arg(QString::fromStdString(k.name)).arg(b.x).arg(b.y)))
                << k.ref(tile) << int(b.volume()) << int(shared);
        }
    }
}

// The occupancy API and the model with the device's own profile and register counts agree exactly.
void TestMeasuredOccupancy::api_matches_model() {
    REQUIRE_DEVICE();
    QFETCH(KernelId, kernel);
    QFETCH(int, threads);
    QFETCH(int, shared);
    int blocks = -1, regs = -1;
    const Status s = cuda_kernel_occupancy(kernel, unsigned(threads), std::size_t(shared), &blocks, &regs);
    QVERIFY2(s.is_ok(), s.message().c_str());
    QVERIFY(regs > 0);
    const Occupancy model = compute_occupancy(*device_, {threads, regs, shared});
    QVERIFY2(model.error.isEmpty(), qPrintable(model.error));
    QVERIFY2(blocks == model.blocks_per_sm,
             qPrintable(QString("%1, %2 threads, %3 B shared, %4 registers: the CUDA runtime fits %5 blocks per SM, the "
                                "model %6 (by warps %7, block slots %8, registers %9, shared memory %10)")
                            .arg(QString::fromStdString(to_string(kernel)))
                            .arg(threads)
                            .arg(shared)
                            .arg(regs)
                            .arg(blocks)
                            .arg(model.blocks_per_sm)
                            .arg(model.blocks_by_warps)
                            .arg(model.blocks_by_blocks)
                            .arg(model.blocks_by_registers)
                            .arg(model.blocks_by_shared)));

    // measured_occupancy() says the same and names the model's limit.
    OccupancyCheck check;
    const auto o = measured_occupancy(kernel, {threads, regs, shared}, *device_, &check);
    QVERIFY2(o.has_value(), check.status.message().c_str());
    QVERIFY2(check.agrees, qPrintable(check.note));
    QVERIFY2(check.note.isEmpty(), qPrintable(check.note));
    QCOMPARE(o->blocks_per_sm, blocks);
    QCOMPARE(o->limit, model.limit);
    QCOMPARE(o->active_warps, model.active_warps);
    QCOMPARE(o->occupancy, model.occupancy);
}

void TestMeasuredOccupancy::registers_match_table_data() {
    QTest::addColumn<KernelId>("kernel");
    for (KernelId id : kAllKernels) QTest::newRow(to_string(id).c_str()) << id;
}

// The families' ptxas table is what the model uses without a device; the device must agree with it.
void TestMeasuredOccupancy::registers_match_table() {
    REQUIRE_DEVICE();
    QFETCH(KernelId, kernel);
    int regs = -1;
    const Status s = cuda_kernel_occupancy(kernel, 64, 0, nullptr, &regs);
    QVERIFY2(s.is_ok(), s.message().c_str());
    // Whatever the exact count, it must cost the same per warp (registers are allocated per warp in
    // units of 256), or the model without a device would give another occupancy.
    const int unit = device_->reg_alloc_unit, warp = device_->warp_size;
    QCOMPARE((regs * warp + unit - 1) / unit, (table_registers(kernel) * warp + unit - 1) / unit);
    QVERIFY2(regs == table_registers(kernel),
             qPrintable(QString("%1: the device reports %2 registers per thread, the table says %3")
                            .arg(QString::fromStdString(to_string(kernel)))
                            .arg(regs)
                            .arg(table_registers(kernel))));
}

// The figures of a measured occupancy: the runtime's blocks, the model's per-resource limits and limit
// name, and the disagreement flag raised when the caller's register count is not the device's.
void TestMeasuredOccupancy::measured_occupancy_fills_the_figures() {
    REQUIRE_DEVICE();
    const MatmulLaunch l = MatmulLaunch::tiled(32);
    BlockResources table = matmul_block_resources(l);
    OccupancyCheck check;
    auto o = measured_occupancy(l.ref(), table, *device_, &check);
    QVERIFY2(o.has_value(), check.status.message().c_str());
    QCOMPARE(check.given_regs_per_thread, table.regs_per_thread);
    QVERIFY(check.api_regs_per_thread > 0);
    QCOMPARE(o->warps_per_block, 32);
    QCOMPARE(o->blocks_per_sm, check.api_blocks_per_sm);
    QCOMPARE(o->active_warps, o->blocks_per_sm * 32);
    QCOMPARE(o->occupancy, double(o->active_warps) / device_->max_warps_per_sm());
    QVERIFY(o->error.isEmpty());
    qInfo("tiled TILE=32 on %s: %d blocks/SM, %d warps, occupancy %.3f, limited by %s%s", qPrintable(device_->name),
          o->blocks_per_sm, o->active_warps, o->occupancy, qPrintable(to_string(o->limit)),
          check.note.isEmpty() ? "" : qPrintable("; " + check.note));

    // A register count that is not the device's shows in the note, and the model still uses the device's.
    table.regs_per_thread = check.api_regs_per_thread + 1;
    o = measured_occupancy(l.ref(), table, *device_, &check);
    QVERIFY(o.has_value());
    QVERIFY2(check.note.contains("registers per thread"), qPrintable(check.note));

    // The model with a profile of another GPU disagrees with this device's runtime, and says so.
    DeviceProfile small = *device_;
    small.name = "half-sized test profile";
    small.max_threads_per_sm /= 2;
    small.regs_per_sm /= 2;
    const BlockResources naive{1024, check.api_regs_per_thread, 0};
    OccupancyCheck c2;
    o = measured_occupancy(MatmulLaunch::naive(32, 32).ref(), naive, small, &c2);
    QVERIFY2(o.has_value(), c2.status.message().c_str());
    if (c2.api_blocks_per_sm != c2.model_blocks_per_sm) {
        QVERIFY(!c2.agrees);
        QVERIFY2(c2.note.contains("half-sized test profile"), qPrintable(c2.note));
    }
}

void TestMeasuredOccupancy::no_device_is_unavailable() {
    if (device_) QSKIP("a CUDA device is present");
    int blocks = -7, regs = -7;
    const Status s = cuda_kernel_occupancy(MatmulLaunch::tiled(16).ref(), 256, 2048, &blocks, &regs);
    QCOMPARE(s.kind(), ErrorKind::Unavailable);
    QCOMPARE(blocks, -7);
    QCOMPARE(regs, -7);
    qInfo("without a device: %s", s.message().c_str());
    OccupancyCheck check;
    const DeviceProfile h200 = *find_device_profile("H200");
    QVERIFY(!measured_occupancy(MatmulLaunch::tiled(16).ref(), matmul_block_resources(MatmulLaunch::tiled(16)), h200, &check));
    QCOMPARE(check.status.kind(), ErrorKind::Unavailable);
    QVERIFY(!measured_occupancy(grayscale_choice(LaunchShape::one_d(256)).ref, {256, 16, 0}, h200));
}

QTEST_APPLESS_MAIN(TestMeasuredOccupancy)
#include "tst_measured_occupancy.moc"
