// The user kernel's direct object (issue 27, item 5; kernels/user/emulated_source.h, direct_text): which
// files get one, that untraced runs on it give exactly the instrumented object's outputs (and the
// family's reference) on odd sizes and block shapes, and that every fault it meets still ends in the
// instrumented object's exact message: bounds through a parameter (past the end, before the start),
// a made-up pointer, a crash, and the time limit, which the direct object names itself (line and thread).
// No GPU, no wall clock.
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "kernels/grayscale/grayscale_reference.h"
#include "kernels/matmul/matmul_reference.h"
#include "kernels/user/source_scan.h"
#include "kernels/user/user_emulated.h"
#include "support/user_kernel_texts.h"

using namespace cvz;
using namespace cvz::user;

Q_DECLARE_METATYPE(cvz::Dim3)

namespace {

using test::lecture_kernel;

EmulatedKernel compile(const std::string& name, const std::string& text, CompileOutput* out = nullptr) {
    const SourceFile file{name, text};
    KernelSignature sig;
    const Status s = select_kernel(file, find_kernels(file), "", &sig);
    if (!s) qWarning("%s", s.message().c_str());
    CompileOutput own;
    if (!out) out = &own;
    EmulatedKernel k = EmulatedKernel::compile(file, sig, out);
    for (const Diagnostic& d : out->diagnostics) qWarning("%s", format(d).c_str());
    return k;
}

std::vector<std::uint8_t> bytes(std::size_t n, unsigned seed) {
    std::vector<std::uint8_t> v(n);
    for (std::size_t i = 0; i < n; ++i) v[i] = std::uint8_t((i * 2654435761u + seed * 40503u) >> 13);
    return v;
}

EmulatedRunOptions instrumented(unsigned threads = 2) {
    EmulatedRunOptions o;
    o.direct = false;
    o.host_threads = threads;
    return o;
}

EmulatedRunOptions direct(unsigned threads = 2) {
    EmulatedRunOptions o;
    o.host_threads = threads;
    return o;
}

// A grayscale-shaped launch over n bytes of input x and m bytes of output (block `block`, grid `grid`).
UserLaunch byte_launch(std::vector<std::uint8_t>& x, std::vector<std::uint8_t>& out, Dim3 grid, Dim3 block,
                       std::vector<int> ints) {
    UserLaunch l;
    l.grid = grid;
    l.block = block;
    l.args = {UserArg::buffer("x", x.data(), x.size(), 1, false), UserArg::buffer("out", out.data(), out.size(), 1, true)};
    const char* names[] = {"n", "w", "h"};
    for (std::size_t k = 0; k < ints.size(); ++k) l.args.push_back(UserArg::integer(ints.size() == 1 ? "n" : names[k + 1], ints[k]));
    return l;
}

// Runs `launch` on the direct object and on the instrumented one, each from the same inputs; the results
// must agree in every byte of every output, and in the fault and its message.
struct Both {
    EmulatedRunResult direct, slow;
    std::vector<std::vector<std::uint8_t>> direct_out, slow_out;
};

Both run_both(const EmulatedKernel& k, UserLaunch launch, const EmulatedRunOptions& f, const EmulatedRunOptions& s) {
    Both b;
    std::vector<std::vector<std::uint8_t>> inputs;
    for (const UserArg& a : launch.args)
        inputs.emplace_back(static_cast<std::uint8_t*>(a.data), static_cast<std::uint8_t*>(a.data) + a.bytes);
    const auto restore = [&] {
        for (std::size_t k = 0; k < launch.args.size(); ++k)
            if (launch.args[k].kind == UserArg::Kind::Buffer && launch.args[k].bytes)
                std::memcpy(launch.args[k].data, inputs[k].data(), launch.args[k].bytes);
    };
    const auto outputs = [&] {
        std::vector<std::vector<std::uint8_t>> o;
        for (const UserArg& a : launch.args)
            if (a.kind == UserArg::Kind::Buffer && a.writable)
                o.emplace_back(static_cast<std::uint8_t*>(a.data), static_cast<std::uint8_t*>(a.data) + a.bytes);
        return o;
    };
    b.direct = run_emulated(k, launch, f);
    b.direct_out = outputs();
    restore();
    b.slow = run_emulated(k, launch, s);
    b.slow_out = outputs();
    return b;
}

}  // namespace

class TestUserDirectPath : public QObject {
    Q_OBJECT
private slots:
    void which_files_get_a_direct_object();
    void grayscale_equals_the_instrumented_run_and_the_reference_data();
    void grayscale_equals_the_instrumented_run_and_the_reference();
    void matmul_equals_the_instrumented_run();
    void element_operations_keep_their_meaning();
    void bounds_faults_are_named_exactly();
    void other_faults_are_named_exactly();
    void time_limit_names_the_line_and_the_thread();
    void traced_runs_use_the_instrumented_object();
};

void TestUserDirectPath::which_files_get_a_direct_object() {
    // The lecture's kernels without barriers have one; the tiled matmul (__syncthreads, __shared__) not.
    for (const char* f : {"grayscale_1d.cu", "grayscale_2d.cu", "matmul.cu", "convolution.cu"}) {
        const EmulatedKernel k = compile(f, lecture_kernel(f));
        QVERIFY2(k.valid() && k.direct(), f);
    }
    const EmulatedKernel tiled = compile("matmul_tiled.cu", lecture_kernel("matmul_tiled.cu"));
    QVERIFY(tiled.valid() && !tiled.direct());
    // Words whose meaning would change keep a file off it; it still compiles and runs instrumented.
    const EmulatedKernel with_auto = compile("auto.cu",
                                             "__global__ void k(unsigned char* x, unsigned char* out, int n) {\n"
                                             "    int i = threadIdx.x;\n"
                                             "    auto v = x[i];\n"
                                             "    if (i < n) out[i] = v;\n"
                                             "}\n");
    QVERIFY(with_auto.valid() && !with_auto.direct());
    const EmulatedKernel with_printf = compile("printf.cu",
                                               "__global__ void k(unsigned char* x, unsigned char* out, int n) {\n"
                                               "    if (threadIdx.x == 0) printf(\"%d\\n\", x[0]);\n"
                                               "}\n");
    QVERIFY(with_printf.valid() && !with_printf.direct());
    const EmulatedKernel macro = compile("macro.cu",
                                         "#define SHOW(v) printf(\"%d\\n\", v)\n"
                                         "__global__ void k(unsigned char* x, unsigned char* out, int n) {\n"
                                         "    if (threadIdx.x == 0) SHOW(x[0]);\n"
                                         "}\n");
    QVERIFY(macro.valid() && !macro.direct());
    // A parameter used as a plain pointer (passed on, kept in a local pointer, an element's address) does
    // not compile in the direct unit: no direct object, and no message from that compile.
    CompileOutput out;
    const EmulatedKernel passed_on = compile("helper.cu",
                                             "__device__ void put(unsigned char* p, int i, unsigned char v) { p[i] = v; }\n"
                                             "__global__ void k(unsigned char* x, unsigned char* out, int n) {\n"
                                             "    int i = threadIdx.x;\n"
                                             "    if (i < n) put(out, i, x[i]);\n"
                                             "}\n",
                                             &out);
    QVERIFY(passed_on.valid() && !passed_on.direct());
    QVERIFY(out.diagnostics.empty());
    const EmulatedKernel local = compile("local.cu",
                                         "__global__ void k(unsigned char* x, unsigned char* out, int n) {\n"
                                         "    const unsigned char* row = x + threadIdx.x;\n"
                                         "    out[threadIdx.x] = *row;\n"
                                         "}\n");
    QVERIFY(local.valid() && !local.direct());
    const EmulatedKernel address = compile("address.cu",
                                           "__global__ void k(unsigned char* x, unsigned char* out, int n) {\n"
                                           "    unsigned char* p = &out[threadIdx.x];\n"
                                           "    *p = x[threadIdx.x];\n"
                                           "}\n");
    QVERIFY(address.valid() && !address.direct());
}

void TestUserDirectPath::grayscale_equals_the_instrumented_run_and_the_reference_data() {
    QTest::addColumn<bool>("two_d");
    QTest::addColumn<int>("w");
    QTest::addColumn<int>("h");
    QTest::addColumn<Dim3>("block");
    QTest::newRow("1-D 37x23, 64") << false << 37 << 23 << Dim3{64, 1, 1};
    QTest::newRow("1-D 101x7, 33") << false << 101 << 7 << Dim3{33, 1, 1};
    QTest::newRow("1-D 37x23, 8x3x2") << false << 37 << 23 << Dim3{8, 3, 2};
    QTest::newRow("2-D 37x23, 16x16") << true << 37 << 23 << Dim3{16, 16, 1};
    QTest::newRow("2-D 53x29, 7x5") << true << 53 << 29 << Dim3{7, 5, 1};
}

void TestUserDirectPath::grayscale_equals_the_instrumented_run_and_the_reference() {
    QFETCH(bool, two_d);
    QFETCH(int, w);
    QFETCH(int, h);
    QFETCH(Dim3, block);
    const char* file = two_d ? "grayscale_2d.cu" : "grayscale_1d.cu";
    const EmulatedKernel k = compile(file, lecture_kernel(file));
    QVERIFY(k.valid() && k.direct());
    const int n = w * h;
    std::vector<std::uint8_t> x = bytes(3 * std::size_t(n), 7), out(n, 0xAB);
    const unsigned threads = block.volume();
    const Dim3 grid = two_d ? Dim3{unsigned((w + block.x - 1) / block.x), unsigned((h + block.y - 1) / block.y), 1}
                            : Dim3{unsigned((n + threads - 1) / threads), 1, 1};
    // A 1-D kernel on a block of several rows numbers its threads by x only: the launch is the lecture's
    // only when block.y == block.z == 1, but both objects must still agree, byte for byte.
    const UserLaunch launch = byte_launch(x, out, grid, block, two_d ? std::vector<int>{w, h} : std::vector<int>{n});
    const Both b = run_both(k, launch, direct(), instrumented());
    QVERIFY2(b.direct.ok(), b.direct.message.c_str());
    QVERIFY2(b.slow.ok(), b.slow.message.c_str());
    QVERIFY(b.direct.direct);
    QVERIFY(!b.slow.direct);
    QVERIFY(b.direct_out == b.slow_out);
    if ((block.y == 1 && block.z == 1) || two_d) {
        std::vector<std::uint8_t> ref(n);
        grayscale_reference(GrayscaleImage{x.data(), ref.data(), std::uint32_t(w), std::uint32_t(h), PixelLayout::Planar});
        for (int i = 0; i < n; ++i)
            QVERIFY2(std::abs(int(b.direct_out[0][i]) - int(ref[i])) <= 1, qPrintable(QString("pixel %1").arg(i)));
    }
}

void TestUserDirectPath::matmul_equals_the_instrumented_run() {
    const EmulatedKernel k = compile("matmul.cu", lecture_kernel("matmul.cu"));
    QVERIFY(k.valid() && k.direct());
    const int h = 13, w = 11, inner = 7;
    std::vector<float> a(std::size_t(h) * inner), bm(std::size_t(inner) * w), c(std::size_t(h) * w, -1.0f);
    for (std::size_t i = 0; i < a.size(); ++i) a[i] = float(int(i * 37 % 19) - 9) * 0.375f;
    for (std::size_t i = 0; i < bm.size(); ++i) bm[i] = float(int(i * 23 % 17) - 8) * 0.625f;
    UserLaunch launch;
    launch.block = Dim3{4, 3, 1};
    launch.grid = Dim3{unsigned((w + 3) / 4), unsigned((h + 2) / 3), 1};
    launch.args = {UserArg::buffer("m", a.data(), a.size() * 4, 4, false), UserArg::buffer("n", bm.data(), bm.size() * 4, 4, false),
                   UserArg::buffer("out", c.data(), c.size() * 4, 4, true), UserArg::integer("h", h), UserArg::integer("w", w),
                   UserArg::integer("k", inner)};
    const Both b = run_both(k, launch, direct(1), instrumented(1));
    QVERIFY2(b.direct.ok() && b.direct.direct, b.direct.message.c_str());
    QVERIFY2(b.slow.ok(), b.slow.message.c_str());
    QVERIFY(b.direct_out == b.slow_out);
    std::vector<float> ref(c.size());
    MatmulProblem p;
    p.a = a.data();
    p.b = bm.data();
    p.c = ref.data();
    p.m = std::uint32_t(h);
    p.k = std::uint32_t(inner);
    p.n = std::uint32_t(w);
    matmul_reference(p);
    const float* got = reinterpret_cast<const float*>(b.direct_out[0].data());
    for (std::size_t i = 0; i < ref.size(); ++i) QVERIFY(std::abs(got[i] - ref[i]) <= 1e-5f * (1.0f + std::abs(ref[i])));
}

void TestUserDirectPath::element_operations_keep_their_meaning() {
    // Compound assignment, increments, pointer arithmetic, differences and dereference, const
    // parameters, element to element copies, mixed types, comparisons and a helper taking values: the
    // same bytes as instrumented.
    const EmulatedKernel k = compile("ops.cu",
                                     "__device__ int twice(int v) { return 2 * v; }\n"
                                     "__global__ void k(const unsigned char* x, unsigned char* out, int n) {\n"
                                     "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                                     "    if (i >= n) return;\n"
                                     "    out[i] = *(x + i);\n"
                                     "    out[i] += x[(i + 1) % n] / 3;\n"
                                     "    out[i]++;\n"
                                     "    ++out[i];\n"
                                     "    out[i] ^= 0x5A;\n"
                                     "    out[i] <<= (i & 1);\n"
                                     "    if (*(out + i) > 200) (out + 1)[i - 1] = x[i] > x[(i + 2) % n] ? x[i] : twice(x[i]) & 0xFF;\n"
                                     "    if (i > 0 && (x + i) - (x + i - 1) == 1 && out + i != out) *(out + i) -= (i + 1 - i) * 7;\n"
                                     "    out[i] = min(out[i], 250) - (out[i] == x[i]);\n"
                                     "}\n");
    QVERIFY(k.valid() && k.direct());
    const int n = 301;
    std::vector<std::uint8_t> x = bytes(n, 3), out(n, 0);
    const Both b = run_both(k, byte_launch(x, out, Dim3{5, 1, 1}, Dim3{64, 1, 1}, {n}), direct(), instrumented());
    QVERIFY2(b.direct.ok() && b.direct.direct, b.direct.message.c_str());
    QVERIFY2(b.slow.ok(), b.slow.message.c_str());
    QVERIFY(b.direct_out == b.slow_out);
    // Not all the same value: the kernel did something.
    QVERIFY(std::count(b.direct_out[0].begin(), b.direct_out[0].end(), b.direct_out[0][0]) < n);
}

void TestUserDirectPath::bounds_faults_are_named_exactly() {
    // No guard: the last block's threads write past the end of out; the direct object stops, the launch
    // runs again instrumented, and the message is that run's, to the element and the line.
    const EmulatedKernel past = compile("past.cu",
                                        "__global__ void k(unsigned char* x, unsigned char* out, int n) {\n"
                                        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                                        "    out[i] = x[i % n];\n"
                                        "}\n");
    QVERIFY(past.valid() && past.direct());
    const int n = 1000;
    std::vector<std::uint8_t> x = bytes(n, 1), out(n, 9);
    const Both b = run_both(past, byte_launch(x, out, Dim3{4, 1, 1}, Dim3{256, 1, 1}, {n}), direct(1), instrumented(1));
    QCOMPARE(b.direct.fault, Fault::Bounds);
    QVERIFY(!b.direct.direct);
    QCOMPARE(b.direct.message, b.slow.message);
    QCOMPARE(b.direct.message, std::string("line 3: thread (3, 0, 0)/(232, 0, 0) writes out[1000], 0 past the end of out (1000 elements)"));
    QVERIFY(std::all_of(out.begin(), out.end(), [](std::uint8_t v) { return v == 9; }));  // no output on a fault
    // Before the start, on a load, in a 2-D launch.
    const EmulatedKernel before = compile("before.cu",
                                          "__global__ void k(unsigned char* x, unsigned char* out, int w, int h) {\n"
                                          "    int c = blockIdx.x * blockDim.x + threadIdx.x;\n"
                                          "    int r = blockIdx.y * blockDim.y + threadIdx.y;\n"
                                          "    if (c < w && r < h) out[r * w + c] = x[(r - 1) * w + c];\n"
                                          "}\n");
    QVERIFY(before.valid() && before.direct());
    std::vector<std::uint8_t> x2 = bytes(3 * 15 * 9, 2), out2(15 * 9, 0);
    const Both b2 = run_both(before, byte_launch(x2, out2, Dim3{3, 2, 1}, Dim3{5, 6, 1}, {15, 9}), direct(1), instrumented(1));
    QCOMPARE(b2.direct.fault, Fault::Bounds);
    QCOMPARE(b2.direct.message, b2.slow.message);
    QCOMPARE(b2.direct.message, std::string("line 4: thread (0, 0, 0)/(0, 0, 0) reads x[-15], 15 before the start of x (405 elements)"));
}

void TestUserDirectPath::other_faults_are_named_exactly() {
    // A pointer made up in the kernel: not a parameter, so the direct object's instrumentation checks it
    // as the instrumented object's does.
    const EmulatedKernel made_up = compile("made_up.cu",
                                           "__global__ void k(unsigned char* x, unsigned char* out, int n) {\n"
                                           "    int i = threadIdx.x;\n"
                                           "    if (i == 3) *(int*)(long)(64 + n) = 1;\n"
                                           "    out[i] = x[i];\n"
                                           "}\n");
    QVERIFY(made_up.valid() && made_up.direct());
    std::vector<std::uint8_t> x = bytes(8, 4), out(8, 0);
    const Both b = run_both(made_up, byte_launch(x, out, Dim3{1, 1, 1}, Dim3{8, 1, 1}, {8}), direct(1), instrumented(1));
    QCOMPARE(b.direct.fault, Fault::Invalid);
    QCOMPARE(b.direct.message, b.slow.message);
    QCOMPARE(b.direct.message, std::string("line 3: thread (0, 0, 0)/(3, 0, 0) made an invalid memory access (address 0x48, in no buffer)"));
    // A crash (an integer division by zero) in the direct object.
    const EmulatedKernel divide = compile("divide.cu",
                                          "__global__ void k(unsigned char* x, unsigned char* out, int n) {\n"
                                          "    int i = threadIdx.x;\n"
                                          "    out[i] = x[i] / (i - 5);\n"
                                          "}\n");
    QVERIFY(divide.valid() && divide.direct());
    const Both d = run_both(divide, byte_launch(x, out, Dim3{1, 1, 1}, Dim3{8, 1, 1}, {8}), direct(1), instrumented(1));
    QCOMPARE(d.direct.fault, Fault::Crashed);
    QCOMPARE(d.direct.message, d.slow.message);
    QVERIFY2(d.direct.message.rfind("line 3: thread (0, 0, 0)/(5, 0, 0) divided an integer by zero", 0) == 0, d.direct.message.c_str());
}

void TestUserDirectPath::time_limit_names_the_line_and_the_thread() {
    // The direct object names the time limit itself: its thread loop tells the runner which thread runs.
    const EmulatedKernel k = compile("spin.cu",
                                     "__global__ void k(unsigned char* x, unsigned char* out, int n) {\n"
                                     "    volatile int spin = threadIdx.x == 3 && threadIdx.y == 1;\n"
                                     "    while (spin) {}\n"
                                     "    out[threadIdx.y * 8 + threadIdx.x] = x[0];\n"
                                     "}\n");
    QVERIFY(k.valid() && k.direct());
    std::vector<std::uint8_t> x(1, 5), out(16, 9);
    EmulatedRunOptions o = direct(1);
    o.time_limit_s = 0.5;
    const EmulatedRunResult r = run_emulated(k, byte_launch(x, out, Dim3{1, 1, 1}, Dim3{8, 2, 1}, {16}), o);
    QCOMPARE(r.fault, Fault::TimeLimit);
    QVERIFY(r.direct);
    QCOMPARE(r.message, std::string("line 3: the time limit of 0.5 s was reached in thread (0, 0, 0)/(3, 1, 0): the kernel "
                                    "was stopped (an endless loop?)"));
    QVERIFY(std::all_of(out.begin(), out.end(), [](std::uint8_t v) { return v == 9; }));
}

void TestUserDirectPath::traced_runs_use_the_instrumented_object() {
    const EmulatedKernel k = compile("grayscale_1d.cu", lecture_kernel("grayscale_1d.cu"));
    QVERIFY(k.valid() && k.direct());
    const int n = 77;
    std::vector<std::uint8_t> x = bytes(3 * n, 5), out(n, 0);
    EmulatedRunOptions traced = direct(1);
    traced.trace = true;
    const EmulatedRunResult t = run_emulated(k, byte_launch(x, out, Dim3{3, 1, 1}, Dim3{32, 1, 1}, {n}), traced);
    QVERIFY2(t.ok(), t.message.c_str());
    QVERIFY(!t.direct);
    QVERIFY(t.trace.totals.global_st.requests > 0);
    EmulatedRunOptions writers = direct(1);
    writers.writers = true;
    const EmulatedRunResult w = run_emulated(k, byte_launch(x, out, Dim3{3, 1, 1}, Dim3{32, 1, 1}, {n}), writers);
    QVERIFY2(w.ok(), w.message.c_str());
    QVERIFY(!w.direct);
    QCOMPARE(w.writers.size(), std::size_t(1));
    QCOMPARE(w.writers[0][76].thread, 12u);  // pixel 76: block 2, thread 12
    // A schedule is recorded on the direct object too, one entry a block.
    EmulatedRunOptions scheduled = direct(1);
    scheduled.schedule = true;
    const EmulatedRunResult s = run_emulated(k, byte_launch(x, out, Dim3{3, 1, 1}, Dim3{32, 1, 1}, {n}), scheduled);
    QVERIFY2(s.ok() && s.direct, s.message.c_str());
    QCOMPARE(s.schedule.size(), std::size_t(3));
    for (const BlockTiming& b : s.schedule) QVERIFY(b.end_ns >= b.start_ns && b.start_ns > 0);
}

QTEST_GUILESS_MAIN(TestUserDirectPath)
#include "tst_user_direct_path.moc"
