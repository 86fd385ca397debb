// The register table against the compiler: without a device, the occupancy model takes each compiled
// kernel's registers and static shared bytes from the families' table (each body's `ptxas` entry).
// This test compiles every family's GPU launcher (kernels/<family>/<family>_cuda.cu) with
// `nvcc -Xptxas -v` for sm_90a, as the build compiles compute capability 9.0 (CMakeLists.txt), and checks that every kernel of the catalogue is
// there and that ptxas reports exactly the table's figures. It is skipped, saying so, only when
// nvcc is absent (a build without the CUDA toolkit, or a machine that runs packed test binaries).
#include <QtTest>

#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>

#include <cxxabi.h>

#include <cstdlib>
#include <map>
#include <memory>
#include <typeinfo>

#include "app/grayscale/grayscale_resources.h"
#include "app/matmul/matmul_resources.h"
#include "app/models/kernel_resources.h"
#include "kernels/catalogue/family_descriptor.h"
#include "kernels/catalogue/kernel_catalogue.h"
#include "kernels/catalogue/kernel_dispatch.h"
#include "test_paths.h"

using namespace cvz;

Q_DECLARE_METATYPE(cvz::KernelRef)

namespace {

QString demangle(const char* name) {
    int status = 0;
    std::unique_ptr<char, void (*)(void*)> text(abi::__cxa_demangle(name, nullptr, nullptr, &status), std::free);
    return status == 0 && text ? QString::fromLatin1(text.get()) : QString::fromLatin1(name);
}

// The C++ name of the body type that runs `ref` ("cvz::Gray2d", "cvz::MatmulTiledBody<16u>"), as the
// demangler spells it inside a kernel's template arguments.
QString body_name(const KernelRef& ref) {
    QString name;
    const Status s = with_kernel(ref, [&name](auto body) { name = demangle(typeid(decltype(body)).name()); });
    return s ? name : QString();
}

struct PtxasEntry {
    QString kernel;  // demangled
    int registers = -1;
    int smem = 0;
};

// Parses `ptxas -v`: "Compiling entry function '<mangled>' for 'sm_90'", then "Used N registers, ...
// [M bytes smem, ]..." for that entry.
std::vector<PtxasEntry> parse_ptxas(const QString& log) {
    std::vector<PtxasEntry> entries;
    static const QRegularExpression entry(QStringLiteral("Compiling entry function '([^']+)'"));
    static const QRegularExpression used(QStringLiteral("Used (\\d+) registers"));
    static const QRegularExpression smem(QStringLiteral("(\\d+) bytes smem"));
    for (const QString& line : log.split(QLatin1Char('\n'))) {
        if (const auto m = entry.match(line); m.hasMatch()) {
            entries.push_back({demangle(m.captured(1).toLatin1().constData()), -1, 0});
        } else if (const auto u = used.match(line); u.hasMatch() && !entries.empty() && entries.back().registers < 0) {
            entries.back().registers = u.captured(1).toInt();
            if (const auto s = smem.match(line); s.hasMatch()) entries.back().smem = s.captured(1).toInt();
        }
    }
    return entries;
}

QString nvcc_path() {
#ifdef CUDAVIZ_NVCC
    return QStringLiteral(CUDAVIZ_NVCC);
#else
    return {};
#endif
}

}  // namespace

class TestKernelResources : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void table_covers_every_kernel();
    void table_matches_ptxas_data();
    void table_matches_ptxas();
    void block_resources_follow_the_launch();

private:
    std::map<KernelFamily, std::vector<PtxasEntry>> ptxas_;
    QString skip_;
};

void TestKernelResources::initTestCase() {
    const QString nvcc = nvcc_path();
    if (nvcc.isEmpty() || !QFile::exists(nvcc)) {
        skip_ = nvcc.isEmpty() ? QStringLiteral("nvcc is absent: cudaviz was configured without the CUDA toolkit, so "
                                                "the register table is not checked against ptxas")
                               : QStringLiteral("nvcc is absent here (%1 does not exist): the register table is not "
                                                "checked against ptxas").arg(nvcc);
        qInfo("%s", qPrintable(skip_));
        return;
    }
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    for (const FamilyDescriptor& d : kernel_families()) {
        const KernelFamily family = d.id;
        const QString name = QString::fromLatin1(d.name);
        const QString source = cvz::test::source_dir() + "/kernels/" + name + "/" + name + "_cuda.cu";
        QVERIFY2(QFile::exists(source), qPrintable(source));
        QProcess p;
        p.setProcessChannelMode(QProcess::MergedChannels);
        // The flags of the build (CMakeLists.txt: C++17, --expt-relaxed-constexpr, no device debug info).
        p.start(nvcc, {"-std=c++17", "-arch=sm_90a", "--expt-relaxed-constexpr", "-O3", "-Xptxas", "-v",
                       "-I" + cvz::test::source_dir(), "-c", source, "-o", dir.filePath(name + ".o")});
        QVERIFY2(p.waitForFinished(480000), qPrintable(p.errorString()));
        const QString log = QString::fromLocal8Bit(p.readAll());
        QVERIFY2(p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0, qPrintable(log));
        ptxas_[family] = parse_ptxas(log);
        QVERIFY2(!ptxas_[family].empty(), qPrintable(log));
        for (const PtxasEntry& e : ptxas_[family])
            qInfo("ptxas sm_90a: %s: %d registers, %d bytes smem", qPrintable(e.kernel), e.registers, e.smem);
    }
}

void TestKernelResources::table_covers_every_kernel() {
    // Every compiled kernel of the catalogue has a table entry and a body the dispatcher finds.
    const std::vector<KernelRef> refs = compiled_kernels();
    QVERIFY(refs.size() >= kernel_catalogue().size());
    for (const KernelRef& ref : refs) {
        KernelResources r{-1, -1};
        const Status s = table_kernel_resources(ref, &r);
        QVERIFY2(s.is_ok(), s.message().c_str());
        QVERIFY2(r.registers > 0 && r.registers <= 255, to_string(ref).c_str());
        QVERIFY2(r.static_shared_bytes >= 0, to_string(ref).c_str());
        QVERIFY2(!body_name(ref).isEmpty(), to_string(ref).c_str());
    }
}

void TestKernelResources::table_matches_ptxas_data() {
    QTest::addColumn<KernelRef>("ref");
    for (const KernelRef& ref : compiled_kernels()) QTest::newRow(to_string(ref).c_str()) << ref;
}

void TestKernelResources::table_matches_ptxas() {
    if (!skip_.isEmpty()) QSKIP(qPrintable(skip_));
    QFETCH(KernelRef, ref);
    const QString body = body_name(ref);
    KernelResources table;
    QVERIFY(table_kernel_resources(ref, &table).is_ok());
    // The kernel template instantiated with this body; for grayscale the DeviceContext instance (the one
    // the occupancy API asks about; the surface instance of the interop path is another kernel).
    int found = 0;
    for (const PtxasEntry& e : ptxas_[ref.family]) {
        // The demangler closes nested templates with "> >".
        const bool mine = e.kernel.contains("<" + body + ",") || e.kernel.contains("<" + body + ">") ||
                          e.kernel.contains("<" + body + " >");
        if (!mine || e.kernel.contains("SurfaceStoreContext")) continue;
        ++found;
        QVERIFY2(e.registers == table.registers && e.smem == table.static_shared_bytes,
                 qPrintable(QString("%1: ptxas reports %2 registers and %3 bytes of static shared memory for sm_90a, the "
                                    "table (the body's `ptxas` entry) says %4 and %5")
                                .arg(e.kernel)
                                .arg(e.registers)
                                .arg(e.smem)
                                .arg(table.registers)
                                .arg(table.static_shared_bytes)));
    }
    QVERIFY2(found == 1, qPrintable(QString("%1 (%2): %3 kernels in the ptxas output").arg(QString::fromStdString(to_string(ref)), body).arg(found)));
}

// Without a device, a launch's block resources are the table's registers, its threads and its
// dynamic shared memory.
void TestKernelResources::block_resources_follow_the_launch() {
    for (const KernelInfo& k : kernel_catalogue()) {
        const KernelRef ref = k.ref(k.tiles.empty() ? 0 : k.tiles.front());
        const KernelResources r = kernel_resources(ref);
        QVERIFY2(r.registers > 0, k.name.c_str());
        if (k.family == KernelFamily::Matmul) {
            const unsigned t = ref.tile;
            const MatmulLaunch l = MatmulLaunch::of(MatmulVariant(k.variant), t ? Dim3{t, t, 1} : Dim3{16, 8, 1}, t);
            const BlockResources b = matmul_block_resources(l);
            QCOMPARE(b.threads, int(l.block_shape().volume()));
            QCOMPARE(b.regs_per_thread, r.registers);
            QCOMPARE(b.shared_bytes, r.static_shared_bytes + int(l.shared_bytes()));
        } else if (k.family == KernelFamily::Grayscale) {
            const LaunchShape s = LaunchShape::of(GrayscaleVariant(k.variant), k.block == BlockRule::OneD ? Dim3{96, 1, 1} : Dim3{8, 4, 1});
            const BlockResources b = grayscale_block_resources(s);
            QCOMPARE(b.threads, int(s.block.volume()));
            QCOMPARE(b.regs_per_thread, r.registers);
        } else {
            const BlockResources b = block_resources(ref, Dim3{8, 4, 1}, 256);
            QCOMPARE(b.threads, 32);
            QCOMPARE(b.regs_per_thread, r.registers);
            QCOMPARE(b.shared_bytes, r.static_shared_bytes + 256);
        }
    }
    QCOMPARE(matmul_block_resources(MatmulLaunch::tiled(16)).shared_bytes, 2 * 16 * 16 * 4);
    // An unknown TILE has no kernel: the table refuses it, and the launch validator with it.
    KernelResources r;
    QCOMPARE(table_kernel_resources(MatmulLaunch::tiled(12).ref(), &r).kind(), ErrorKind::InvalidInput);
    QVERIFY(!validate_matmul_launch(MatmulLaunch::tiled(12), 40, 40, 40).empty());
}

QTEST_GUILESS_MAIN(TestKernelResources)
#include "tst_kernel_resources.moc"
