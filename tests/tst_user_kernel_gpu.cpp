// User kernels on the GPU (issue 27, kernels/user/user_gpu.h). Without a GPU (CI): NVRTC's errors at
// the user's line and column, several at once, warnings apart from errors, a clean compile of each of
// the lecture's kernels with its registers and shared memory, the signature cross-checked with the
// compiler's own view, the schedule-recording compile, the runner's file protocol. With a GPU (the
// lent H200, the same program): the lecture kernels' outputs against CPU references on odd sizes and
// block shapes, loads past a buffer's end stopped by the unmapped memory after it (and named by the
// emulator's re-run), stores in a guard zone named after the kernel, an out-of-bounds write far away
// that faults in the runner only, a spinning kernel stopped at its
// time limit, cancellation, a recorded schedule, and the user's copies of gray_2d and matmul_naive timed
// beside the built-ins (figures printed, never compared: timings are not pass/fail).
#include <QtTest>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "app/user/user_run.h"
#include "kernels/core/block_schedule.h"
#include "kernels/grayscale/grayscale_cuda.h"
#include "kernels/grayscale/grayscale_reference.h"
#include "kernels/grayscale/grayscale_timing.h"
#include "kernels/grayscale/grayscale_user_call.h"
#include "kernels/matmul/matmul_cuda.h"
#include "kernels/matmul/matmul_launch.h"
#include "kernels/matmul/matmul_reference.h"
#include "kernels/matmul/matmul_timing.h"
#include "kernels/user/guard_zone.h"
#include "kernels/user/nvrtc_cubin.h"
#include "kernels/user/nvrtc_log.h"
#include "kernels/user/nvrtc_program.h"
#include "kernels/user/user_gpu.h"
#include "kernels/user/source_scan.h"
#include "kernels/user/user_gpu_protocol.h"
#include "kernels/user/user_emulated.h"
#include "kernels/convolution/convolution_reference.h"
#include "support/random_data.h"
#include "support/user_kernel_texts.h"

using namespace cvz;
using namespace cvz::user;
using test::kGray2dCopy;
using test::kMatmulNaiveCopy;
using test::random_values;

namespace {

// The lecture's kernels as the learner pastes them: resources/kernels/*.cu (user_kernel_texts.h).
std::string lecture(const char* file) {
    std::string text, error;
    if (!test::read_kernel_file(test::lecture_kernels_dir() + "/" + file, &text, &error)) qFatal("%s", error.c_str());
    return text;
}

// The signature as the app reads it (source_scan.h).
KernelSignature scan(const std::string& text) {
    const SourceFile file{"kernel.cu", text};
    KernelSignature sig;
    const Status s = select_kernel(file, find_kernels(file), "", &sig);
    if (!s) qFatal("%s", s.message().c_str());
    return sig;
}

KernelParam param(const char* type, const char* name, ParamKind kind) { return KernelParam{type, name, kind}; }

KernelSignature gray1d_sig(const char* name = "rgb_to_grayscale_kernel") {
    return {name, 1, {param("unsigned char*", "x", ParamKind::BytePtr), param("unsigned char*", "out", ParamKind::BytePtr), param("int", "n", ParamKind::Int)}};
}
KernelSignature gray2d_sig(const char* name = "gray_2d") {
    return {name, 2, {param("const unsigned char*", "rgb", ParamKind::BytePtr), param("unsigned char*", "gray", ParamKind::BytePtr),
                      param("int", "w", ParamKind::Int), param("int", "h", ParamKind::Int)}};
}
KernelSignature matmul_sig(const char* name, unsigned line, bool constant_inputs = false) {
    const char* in = constant_inputs ? "const float*" : "float*";
    return {name, line, {param(in, "m", ParamKind::FloatPtr), param(in, "n", ParamKind::FloatPtr), param("float*", "out", ParamKind::FloatPtr),
                         param("int", "h", ParamKind::Int), param("int", "w", ParamKind::Int), param("int", "k", ParamKind::Int)}};
}


// The 1-D grayscale's launch (x, out, n) over the whole of `x` and `out`.
UserLaunch gray1d_launch(Dim3 grid, Dim3 block, std::vector<unsigned char>& x, std::vector<unsigned char>& out, int n) {
    return {grid, block, {UserArg::buffer("x", x.data(), x.size(), 1, false), UserArg::buffer("out", out.data(), out.size(), 1, true), UserArg::integer("n", n)}};
}

// The interleaved 2-D grayscale's launch (rgb, gray, w, h): blocks of bx x by threads over w x h pixels.
UserLaunch gray2d_launch(int bx, int by, std::vector<unsigned char>& rgb, std::vector<unsigned char>& gray, int w, int h) {
    return {Dim3{unsigned(cdiv(w, bx)), unsigned(cdiv(h, by)), 1}, Dim3{unsigned(bx), unsigned(by), 1},
            {UserArg::buffer("rgb", rgb.data(), rgb.size(), 1, false), UserArg::buffer("gray", gray.data(), gray.size(), 1, true),
             UserArg::integer("w", w), UserArg::integer("h", h)}};
}

std::string all_messages(const GpuCompileOutput& c) {
    std::string s;
    for (const Diagnostic& d : c.diagnostics) s += d.file + ":" + std::to_string(d.line) + ":" + std::to_string(d.column) + ": " + d.message + "\n";
    return s + c.status.message();
}

GpuCompileOutput compile_ok(const std::string& text, const KernelSignature& sig, const char* file = "kernel.cu") {
    GpuCompileOutput c = compile_for_gpu(SourceFile{file, text}, sig, 90);
    if (!c.compiled()) qWarning("%s", all_messages(c).c_str());
    return c;
}

}  // namespace

class TestUserKernelGpu : public QObject {
    Q_OBJECT

private:
    bool probed_ = false;
    QString no_gpu_;

    // Runs a trivial kernel once: a device answers, or the reason why not becomes every GPU case's QSKIP.
    bool gpu() {
        if (!probed_) {
            probed_ = true;
            GpuCompileOutput c = compile_for_gpu(SourceFile{"probe.cu", lecture("grayscale_1d.cu")}, gray1d_sig(), 0);
            if (!c.compiled()) {
                no_gpu_ = QString::fromStdString("NVRTC: " + all_messages(c));
            } else {
                std::vector<unsigned char> in(3, 0), out(1, 0);
                const UserLaunch l = gray1d_launch(Dim3{1, 1, 1}, Dim3{32, 1, 1}, in, out, 1);
                GpuRunResult r = run_on_gpu(c, l);
                if (!r.ran) no_gpu_ = QString::fromStdString("no GPU run here: " + r.message);
            }
        }
        return no_gpu_.isEmpty();
    }

private slots:
    // --- without a GPU -------------------------------------------------------------------------

    void error_at_line_and_column() {
        const char* text = "__global__ void gray(unsigned char* x, unsigned char* out, int n) {\n"
                           "    int i = blockIdx.x*blockDim.x + threadIdx.x;\n"
                           "    if (i < n) out[i] = y;\n"
                           "}\n";
        GpuCompileOutput c = compile_for_gpu(SourceFile{"my_kernel.cu", text}, gray1d_sig("gray"), 90);
        if (c.status.kind() == ErrorKind::Unavailable) QSKIP("built without the CUDA toolkit");
        QVERIFY(!c.compiled());
        QCOMPARE(c.diagnostics.size(), std::size_t(1));
        const Diagnostic& d = c.diagnostics[0];
        QCOMPARE(d.file, std::string("my_kernel.cu"));
        QCOMPARE(d.line, 3u);
        QCOMPARE(d.column, 25u);  // the y of "out[i] = y"
        QVERIFY(d.error);
        QVERIFY2(d.message.find("identifier \"y\" is undefined") != std::string::npos, d.message.c_str());
    }

    void several_errors_each_at_its_line() {
        const char* text = "__global__ void gray(unsigned char* x, unsigned char* out, int n) {\n"
                           "\tint i = ;\n"
                           "    foo(i);\n"
                           "    out[i] = x[i] + undefined_thing;\n"
                           "}\n";
        GpuCompileOutput c = compile_for_gpu(SourceFile{"several.cu", text}, gray1d_sig("gray"), 90);
        if (c.status.kind() == ErrorKind::Unavailable) QSKIP("built without the CUDA toolkit");
        QVERIFY(!c.compiled());
        QCOMPARE(c.diagnostics.size(), std::size_t(3));
        QCOMPARE(c.diagnostics[0].line, 2u);
        QCOMPARE(c.diagnostics[0].column, 10u);  // after a tab counted as one column
        QCOMPARE(c.diagnostics[1].line, 3u);
        QCOMPARE(c.diagnostics[1].column, 5u);
        QCOMPARE(c.diagnostics[2].line, 4u);
        QCOMPARE(c.diagnostics[2].column, 21u);
        for (const Diagnostic& d : c.diagnostics) {
            QVERIFY(d.error);
            QCOMPARE(d.file, std::string("several.cu"));
        }
        QVERIFY(c.cubin.empty());
    }

    void warnings_do_not_fail_the_compile() {
        const char* text = "__global__ void gray(unsigned char* x, unsigned char* out, int n) {\n"
                           "    int unused = 3;\n"
                           "    int i = blockIdx.x*blockDim.x + threadIdx.x;\n"
                           "    if (i < n) out[i] = x[i];\n"
                           "}\n";
        GpuCompileOutput c = compile_for_gpu(SourceFile{"warn.cu", text}, gray1d_sig("gray"), 90);
        if (c.status.kind() == ErrorKind::Unavailable) QSKIP("built without the CUDA toolkit");
        QVERIFY2(c.compiled(), all_messages(c).c_str());
        QCOMPARE(c.diagnostics.size(), std::size_t(1));
        QVERIFY(!c.diagnostics[0].error);
        QCOMPARE(c.diagnostics[0].line, 2u);
        QCOMPARE(c.diagnostics[0].column, 9u);
        QVERIFY2(c.diagnostics[0].message.find("\"unused\" was declared but never referenced") != std::string::npos, c.diagnostics[0].message.c_str());
    }

    void lecture_kernels_compile_data() {
        QTest::addColumn<QString>("file");  // under resources/kernels, or "" for `text`
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("demangled");
        QTest::addColumn<int>("shared");
        QTest::newRow("gray 1-D") << "grayscale_1d.cu" << "" << "rgb_to_grayscale_kernel(unsigned char*, unsigned char*, int)" << 0;
        QTest::newRow("gray 2-D") << "grayscale_2d.cu" << "" << "rgb_to_grayscale_2d(unsigned char*, unsigned char*, int, int)" << 0;
        QTest::newRow("matmul_k") << "matmul.cu" << "" << "matmul_k(float*, float*, float*, int, int, int)" << 0;
        QTest::newRow("matmul tiled") << "matmul_tiled.cu" << "" << "matmul_tiled_k(float*, float*, float*, int, int, int)" << 2 * 16 * 16 * 4;
        QTest::newRow("convolution") << "convolution.cu" << "" << "convolution_k(float*, float*, float*, int, int, int)" << 0;
        QTest::newRow("gray_2d copy") << "" << QString(kGray2dCopy) << "gray_2d(unsigned char const*, unsigned char*, int, int)" << 0;
        QTest::newRow("matmul_naive copy") << "" << QString(kMatmulNaiveCopy) << "matmul_naive(float const*, float const*, float*, int, int, int)" << 0;
    }
    void lecture_kernels_compile() {
        QFETCH(QString, file);
        QFETCH(QString, text);
        QFETCH(QString, demangled);
        QFETCH(int, shared);
        const std::string source = file.isEmpty() ? text.toStdString() : lecture(qPrintable(file));
        const KernelSignature sig = scan(source);
        GpuCompileOutput c = compile_for_gpu(SourceFile{"lecture.cu", source}, sig, 90);
        if (c.status.kind() == ErrorKind::Unavailable) QSKIP("built without the CUDA toolkit");
        QVERIFY2(c.compiled(), all_messages(c).c_str());
        QVERIFY2(c.diagnostics.empty(), all_messages(c).c_str());
        QCOMPARE(c.sm, 90);
        QVERIFY(c.cubin.size() > 1000);
        QCOMPARE(QString::fromStdString(c.demangled), demangled);
        QVERIFY2(c.registers > 0 && c.registers <= 255, std::to_string(c.registers).c_str());
        QCOMPARE(int(c.static_shared_bytes), shared);
        QCOMPARE(c.barriers, shared ? 1 : 0);  // the tiled kernel's __syncthreads
        QVERIFY(c.compile_ms > 0);
        // The CUBIN says what ptxas said (the fallback when the code comes from the compute cache).
        const CubinResources elf = cubin_resources(c.cubin, c.lowered_name, 90);
        QVERIFY(elf.found);
        QCOMPARE(elf.registers, c.registers);
        QCOMPARE(elf.barriers, c.barriers);
        QCOMPARE(int(elf.shared_bytes), shared);
        QVERIFY(!cubin_resources(c.cubin, "no_such_kernel", 90).found);
        QVERIFY(!cubin_resources(c.cubin.substr(0, 100), c.lowered_name, 90).found);  // cut short: not found, no crash
        QVERIFY(!cubin_resources("not an elf", c.lowered_name, 90).found);
        qInfo("%s: %d registers, %zu bytes shared, compiled in %.0f ms", sig.name.c_str(), c.registers, c.static_shared_bytes, c.compile_ms);

        // The schedule-recording compile of the same text.
        NvrtcRequest rec;
        rec.program_name = "rec.cu";
        rec.source = schedule_recording_source(SourceFile{"lecture.cu", source}, sig);
        rec.options = {"--gpu-architecture=sm_90", "-std=c++17"};
        rec.name_expressions = {"cudaviz_recorded"};
        NvrtcResult r = nvrtc_compile(rec);
        QVERIFY2(r.status && r.compiled && !r.cubin.empty(), r.log.c_str());
        QCOMPARE(r.lowered_names, std::vector<std::string>{"cudaviz_recorded"});  // a kernel, not a __device__ function
        QVERIFY2(r.log.find("warning") == std::string::npos, r.log.c_str());
    }

    void signature_is_cross_checked() {
        // A signature read as (float*, ...) while the kernel takes bytes: refused at the kernel's line.
        KernelSignature wrong = gray1d_sig();
        wrong.params[0] = param("float*", "x", ParamKind::FloatPtr);
        GpuCompileOutput c = compile_for_gpu(SourceFile{"k.cu", lecture("grayscale_1d.cu")}, wrong, 90);
        if (c.status.kind() == ErrorKind::Unavailable) QSKIP("built without the CUDA toolkit");
        QVERIFY(!c.compiled());
        QCOMPARE(c.diagnostics.size(), std::size_t(1));
        QCOMPARE(c.diagnostics[0].line, 1u);
        QVERIFY2(c.diagnostics[0].message.find("rgb_to_grayscale_kernel(unsigned char*, unsigned char*, int)") != std::string::npos,
                 c.diagnostics[0].message.c_str());

        // A name that is no kernel of the file.
        KernelSignature missing = gray1d_sig();
        missing.name = "not_there";
        c = compile_for_gpu(SourceFile{"k.cu", lecture("grayscale_1d.cu")}, missing, 90);
        QVERIFY(!c.compiled());
        QCOMPARE(c.diagnostics.size(), std::size_t(1));
        QVERIFY(c.diagnostics[0].error);
        QCOMPARE(c.diagnostics[0].file, std::string("k.cu"));
        QCOMPARE(c.diagnostics[0].line, 1u);
        QCOMPARE(c.diagnostics[0].message, std::string("no __global__ function named not_there"));
    }

    void extern_c_kernel_has_no_mangled_types() {
        const char* text = "extern \"C\" __global__ void copy(unsigned char* x, unsigned char* out, int n) {\n"
                           "    int i = blockIdx.x*blockDim.x + threadIdx.x;\n"
                           "    if (i < n) out[i] = x[i];\n"
                           "}\n";
        GpuCompileOutput c = compile_for_gpu(SourceFile{"c.cu", text}, gray1d_sig("copy"), 90);
        if (c.status.kind() == ErrorKind::Unavailable) QSKIP("built without the CUDA toolkit");
        QVERIFY2(c.compiled(), all_messages(c).c_str());
        QCOMPARE(c.lowered_name, std::string("copy"));
        QVERIFY(c.demangled.empty());
    }

    void log_parsing() {
        const std::string log = "prog.cu(7): error: expected a \";\"\n"
                                "      int x = 3\n"
                                "               ^\n"
                                "\n"
                                "other.h(2): warning #550-D: variable \"v\" was set but never used\n"
                                "    int v;\n"
                                "        ^\n"
                                "\n"
                                "prog.cu: catastrophic error: cannot open source file \"missing.h\"\n"
                                "Remark: The warnings can be suppressed with \"-diag-suppress <warning-number>\"\n"
                                "2 errors detected in the compilation of \"prog.cu\".\n";
        const std::vector<Diagnostic> ds = parse_nvrtc_log(log, "prog.cu", "user.cu");
        QCOMPARE(ds.size(), std::size_t(3));
        QCOMPARE(ds[0].file, std::string("user.cu"));
        QCOMPARE(ds[0].line, 7u);
        QCOMPARE(ds[0].column, 14u);
        QCOMPARE(ds[0].message, std::string("expected a \";\""));
        QCOMPARE(ds[1].file, std::string("other.h"));
        QVERIFY(!ds[1].error);
        QCOMPARE(ds[1].message, std::string("variable \"v\" was set but never used"));
        QCOMPARE(ds[2].line, 0u);
        QCOMPARE(ds[2].column, 0u);
        QVERIFY(ds[2].error);
        QCOMPARE(ds[2].message, std::string("cannot open source file \"missing.h\""));
        QVERIFY(parse_nvrtc_log("", "p.cu", "u.cu").empty());

        const std::string ptxas = "ptxas info    : 0 bytes gmem\n"
                                  "ptxas info    : Compiling entry function '_Z5tiledPfS_S_iii' for 'sm_90'\n"
                                  "ptxas info    : Function properties for _Z5tiledPfS_S_iii\n"
                                  "ptxas         .     16 bytes stack frame, 8 bytes spill stores, 8 bytes spill loads\n"
                                  "ptxas info    : Used 32 registers, used 1 barriers, 2048 bytes smem\n"
                                  "ptxas info    : Compiling entry function 'other' for 'sm_90'\n"
                                  "ptxas info    : Used 4 registers, used 0 barriers\n";
        const std::vector<PtxasResources> rs = parse_ptxas_resources(ptxas);
        QCOMPARE(rs.size(), std::size_t(2));
        QCOMPARE(rs[0].function, std::string("_Z5tiledPfS_S_iii"));
        QCOMPARE(rs[0].registers, 32);
        QCOMPARE(rs[0].barriers, 1);
        QCOMPARE(rs[0].shared_bytes, std::size_t(2048));
        QCOMPARE(rs[0].stack_bytes, std::size_t(16));
        QCOMPARE(rs[0].spill_bytes, std::size_t(8));
        QCOMPARE(rs[1].registers, 4);
        QCOMPARE(rs[1].shared_bytes, std::size_t(0));
    }

    void protocol_round_trip_and_bad_files() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string req = dir.filePath("req").toStdString(), resp = dir.filePath("resp").toStdString();
        GpuRunnerRequest q;
        q.cubin = std::string("\x7f" "ELF\0binary", 10);
        q.function = "_Z4grayPhS_i";
        q.grid = Dim3{7, 5, 1};
        q.block = Dim3{16, 8, 1};
        q.time = true;
        q.repeats = 9;
        GpuRunnerArg b;
        b.buffer = true;
        b.writable = true;
        b.name = "out";
        b.bytes = 5;
        b.element_bytes = 4;
        b.path = "/tmp/somewhere/buffer0";
        GpuRunnerArg n;
        n.value = -42;
        n.name = "n";
        q.args = {b, n};
        QCOMPARE(write_gpu_request(req, q), std::string());
        GpuRunnerRequest back;
        QCOMPARE(read_gpu_request(req, &back), std::string());
        QCOMPARE(back.cubin, q.cubin);
        QCOMPARE(back.function, q.function);
        QVERIFY(back.grid == q.grid && back.block == q.block);
        QVERIFY(back.time);
        QCOMPARE(back.repeats, 9);
        QCOMPARE(back.args.size(), std::size_t(2));
        QVERIFY(back.args[0].buffer && back.args[0].writable);
        QCOMPARE(back.args[0].bytes, std::uint64_t(5));
        QCOMPARE(back.args[0].element_bytes, std::uint64_t(4));
        QCOMPARE(back.args[0].path, b.path);
        QVERIFY(!back.args[1].buffer);
        QCOMPARE(back.args[1].value, -42);

        GpuRunnerResponse s;
        s.outcome = GpuRunnerOutcome::DeviceFault;
        s.message = "the GPU stopped the kernel";
        s.registers = 17;
        s.schedule = {BlockTiming{3, 10, 20}};
        s.samples_ms = {0.5, 0.25};
        QCOMPARE(write_gpu_response(resp, s), std::string());
        GpuRunnerResponse sb;
        QCOMPARE(read_gpu_response(resp, &sb), std::string());
        QVERIFY(sb.outcome == GpuRunnerOutcome::DeviceFault);
        QCOMPARE(sb.message, s.message);
        QCOMPARE(sb.registers, 17);
        QCOMPARE(sb.schedule.size(), std::size_t(1));
        QCOMPARE(sb.schedule[0].end_ns, std::uint64_t(20));
        QVERIFY(sb.samples_ms == s.samples_ms);
        // A store seen in a guard zone travels as its own outcome (the app names it Fault::Bounds).
        s.outcome = GpuRunnerOutcome::BoundsFault;
        QCOMPARE(write_gpu_response(resp, s), std::string());
        QCOMPARE(read_gpu_response(resp, &sb), std::string());
        QVERIFY(sb.outcome == GpuRunnerOutcome::BoundsFault);

        // Truncated, foreign and missing files are messages naming the file.
        QFile f(QString::fromStdString(req));
        QVERIFY(f.resize(f.size() - 3));
        GpuRunnerRequest cut;
        QVERIFY(read_gpu_request(req, &cut).find("truncated") != std::string::npos);
        QFile g(QString::fromStdString(resp));
        QVERIFY(g.open(QIODevice::WriteOnly));
        g.write("not a response at all");
        g.close();
        GpuRunnerResponse foreign;
        QVERIFY(read_gpu_response(resp, &foreign).find("not a cudaviz GPU runner response") != std::string::npos);
        QVERIFY(read_gpu_response(dir.filePath("none").toStdString(), &foreign).find("cannot open") != std::string::npos);
    }

    void runner_refuses_a_bad_launch_before_starting() {
        GpuCompileOutput c = compile_for_gpu(SourceFile{"k.cu", lecture("grayscale_1d.cu")}, gray1d_sig(), 90);
        if (c.status.kind() == ErrorKind::Unavailable) QSKIP("built without the CUDA toolkit");
        QVERIFY(c.compiled());
        UserLaunch l{Dim3{1, 1, 1}, Dim3{32, 1, 1}, {UserArg::integer("n", 1)}};
        GpuRunResult r = run_on_gpu(c, l);
        QVERIFY(!r.ran);
        QCOMPARE(r.status.kind(), ErrorKind::InvalidInput);
        QVERIFY2(r.message.find("1 arguments for rgb_to_grayscale_kernel") != std::string::npos, r.message.c_str());
        GpuCompileOutput broken;
        r = run_on_gpu(broken, l);
        QCOMPARE(r.status.kind(), ErrorKind::InvalidInput);
    }

    void no_gpu_is_a_clear_skip() {
        if (gpu()) QSKIP("a GPU is present");
        // Without a device the run ends as Unavailable with its reason, and nothing is written.
        GpuCompileOutput c = compile_for_gpu(SourceFile{"k.cu", lecture("grayscale_1d.cu")}, gray1d_sig(), 0);
        if (c.status.kind() == ErrorKind::Unavailable) QSKIP("built without the CUDA toolkit");
        QCOMPARE(c.sm, 90);  // no device: sm_90
        std::vector<unsigned char> in(30, 9), out(10, 7);
        const UserLaunch l = gray1d_launch(Dim3{1, 1, 1}, Dim3{32, 1, 1}, in, out, 10);
        GpuRunResult r = run_on_gpu(c, l);
        QVERIFY(!r.ran);
        QCOMPARE(r.status.kind(), ErrorKind::Unavailable);
        QVERIFY(!r.message.empty());
        QCOMPARE(out, std::vector<unsigned char>(10, 7));
        qInfo("without a GPU: %s", r.message.c_str());
    }

    // Without a driver, the runner started on the toolkit's stub libcuda (whose cuInit fails) still
    // reads its request and maps the buffers' shared files before it touches the GPU, and answers.
    void runner_answers_on_the_stub_driver() {
#ifndef CUDAVIZ_CUDA_STUBS_DIR
        QSKIP("built without the CUDA toolkit");
#else
        if (gpu()) QSKIP("a GPU is present");
        const QString stub = CUDAVIZ_CUDA_STUBS_DIR "/libcuda.so";
        if (!QFile::exists(stub)) QSKIP("the toolkit has no stub libcuda.so");
        QTemporaryDir dir;
        QVERIFY(QFile::link(stub, dir.filePath("libcuda.so.1")));
        const QByteArray saved = qgetenv("LD_LIBRARY_PATH");
        qputenv("LD_LIBRARY_PATH", QFile::encodeName(dir.path()) + (saved.isEmpty() ? "" : ":" + saved));
        GpuCompileOutput c = compile_ok(lecture("grayscale_1d.cu"), gray1d_sig());
        std::vector<unsigned char> in(300, 9), out(100, 7);
        const UserLaunch l = gray1d_launch(Dim3{1, 1, 1}, Dim3{128, 1, 1}, in, out, 100);
        GpuRunResult r = run_on_gpu(c, l);
        if (saved.isEmpty()) qunsetenv("LD_LIBRARY_PATH");
        else qputenv("LD_LIBRARY_PATH", saved);
        QVERIFY(!r.ran);
        QCOMPARE(r.status.kind(), ErrorKind::Unavailable);
        QVERIFY2(r.message.rfind("no usable GPU: cuInit: ", 0) == 0, r.message.c_str());  // the runner's own answer
        QCOMPARE(out, std::vector<unsigned char>(100, 7));
#endif
    }

    // --- with a GPU ----------------------------------------------------------------------------

    void gray_1d_planar_against_reference_data() {
        QTest::addColumn<int>("w");
        QTest::addColumn<int>("h");
        QTest::addColumn<int>("block");
        QTest::newRow("97x61 @256") << 97 << 61 << 256;
        QTest::newRow("1x131 @97") << 1 << 131 << 97;
        QTest::newRow("131x1 @33") << 131 << 1 << 33;
        QTest::newRow("1920x1080 @1000") << 1920 << 1080 << 1000;
    }
    void gray_1d_planar_against_reference() {
        if (!gpu()) QSKIP(qPrintable(no_gpu_));
        QFETCH(int, w);
        QFETCH(int, h);
        QFETCH(int, block);
        const int n = w * h;
        std::vector<unsigned char> rgb = random_values<unsigned char>(3 * std::size_t(n), 1), out(n, 0), ref(n, 0);
        GrayscaleImage im;
        im.rgb = rgb.data();
        im.gray = ref.data();
        im.width = std::uint32_t(w);
        im.height = std::uint32_t(h);
        im.layout = PixelLayout::Planar;
        grayscale_reference(im);
        GpuCompileOutput c = compile_ok(lecture("grayscale_1d.cu"), gray1d_sig());
        QVERIFY(c.compiled());
        const UserLaunch l = gray1d_launch(Dim3{unsigned(cdiv(n, block)), 1, 1}, Dim3{unsigned(block), 1, 1}, rgb, out, n);
        GpuRunResult r = run_on_gpu(c, l);
        QVERIFY2(r.ran, r.message.c_str());
        int worst = 0;
        for (int i = 0; i < n; ++i) worst = std::max(worst, std::abs(int(out[i]) - int(ref[i])));
        QVERIFY2(worst <= 1, std::to_string(worst).c_str());
    }

    void gray_2d_exact_data() {
        QTest::addColumn<int>("w");
        QTest::addColumn<int>("h");
        QTest::addColumn<int>("bx");
        QTest::addColumn<int>("by");
        QTest::newRow("97x61 @16x16") << 97 << 61 << 16 << 16;
        QTest::newRow("61x97 @7x5") << 61 << 97 << 7 << 5;
        QTest::newRow("1x127 @1x64") << 1 << 127 << 1 << 64;
        QTest::newRow("127x1 @32x3") << 127 << 1 << 32 << 3;
    }
    void gray_2d_exact() {
        if (!gpu()) QSKIP(qPrintable(no_gpu_));
        QFETCH(int, w);
        QFETCH(int, h);
        QFETCH(int, bx);
        QFETCH(int, by);
        std::vector<unsigned char> rgb = random_values<unsigned char>(3 * std::size_t(w) * h, 2), out(std::size_t(w) * h, 0), ref(out.size(), 0);
        GrayscaleImage im;
        im.rgb = rgb.data();
        im.gray = ref.data();
        im.width = std::uint32_t(w);
        im.height = std::uint32_t(h);
        im.layout = PixelLayout::Interleaved;
        grayscale_reference(im);
        GpuCompileOutput c = compile_ok(kGray2dCopy, gray2d_sig());
        QVERIFY(c.compiled());
        const UserLaunch l = gray2d_launch(bx, by, rgb, out, w, h);
        GpuRunResult r = run_on_gpu(c, l);
        QVERIFY2(r.ran, r.message.c_str());
        QVERIFY(out == ref);  // the same fused multiply-adds as the built-in and its reference: the same bytes
    }

    void matmul_exact_data() {
        QTest::addColumn<int>("which");  // 0 matmul_k, 1 tiled
        QTest::addColumn<int>("h");
        QTest::addColumn<int>("w");
        QTest::addColumn<int>("k");
        QTest::addColumn<int>("bx");
        QTest::addColumn<int>("by");
        QTest::newRow("matmul_k 97x61x53 @16x16") << 0 << 97 << 61 << 53 << 16 << 16;
        QTest::newRow("matmul_k 61x97x131 @7x13") << 0 << 61 << 97 << 131 << 7 << 13;
        QTest::newRow("matmul_k 1x127x3 @32x1") << 0 << 1 << 127 << 3 << 32 << 1;
        QTest::newRow("matmul_k 127x1x1 @1x96") << 0 << 127 << 1 << 1 << 1 << 96;
        QTest::newRow("tiled 97x61x53") << 1 << 97 << 61 << 53 << 16 << 16;
        QTest::newRow("tiled 1x131x17") << 1 << 1 << 131 << 17 << 16 << 16;
    }
    void matmul_exact() {
        if (!gpu()) QSKIP(qPrintable(no_gpu_));
        QFETCH(int, which);
        QFETCH(int, h);
        QFETCH(int, w);
        QFETCH(int, k);
        QFETCH(int, bx);
        QFETCH(int, by);
        std::vector<float> a = random_values<float>(std::size_t(h) * k, 3), b = random_values<float>(std::size_t(k) * w, 4);
        std::vector<float> out(std::size_t(h) * w, -7.f), same(out.size()), ref(out.size());
        // The CPU doing what the kernel says: a product, then a sum, in the order i = 0..k-1 (the
        // tiled kernel sums in the same order, its padding adding exact zeros).
        for (int r = 0; r < h; ++r)
            for (int c = 0; c < w; ++c) {
                float o = 0;
                for (int i = 0; i < k; ++i) o += a[std::size_t(r) * k + i] * b[std::size_t(i) * w + c];
                same[std::size_t(r) * w + c] = o;
            }
        matmul_reference(MatmulProblem{a.data(), b.data(), ref.data(), std::uint32_t(h), std::uint32_t(k), std::uint32_t(w)});
        const std::string text = lecture(which == 0 ? "matmul.cu" : "matmul_tiled.cu");
        GpuCompileOutput c = compile_ok(text, scan(text));
        QVERIFY(c.compiled());
        UserLaunch l{Dim3{unsigned(cdiv(w, bx)), unsigned(cdiv(h, by)), 1}, Dim3{unsigned(bx), unsigned(by), 1},
                     {UserArg::buffer("m", a.data(), a.size() * 4, 4, false), UserArg::buffer("n", b.data(), b.size() * 4, 4, false),
                      UserArg::buffer("out", out.data(), out.size() * 4, 4, true), UserArg::integer("h", h), UserArg::integer("w", w), UserArg::integer("k", k)}};
        GpuRunResult r = run_on_gpu(c, l);
        QVERIFY2(r.ran, r.message.c_str());
        for (std::size_t i = 0; i < out.size(); ++i)
            if (out[i] != same[i]) QFAIL(qPrintable(QString("element %1: GPU %2, CPU %3").arg(i).arg(double(out[i]), 0, 'g', 9).arg(double(same[i]), 0, 'g', 9)));
        const double rel = matmul_max_relative_error(out.data(), ref.data(), out.size());
        QVERIFY2(rel <= 1e-5, std::to_string(rel).c_str());
    }

    void convolution_exact_data() {
        QTest::addColumn<int>("w");
        QTest::addColumn<int>("h");
        QTest::addColumn<int>("side");
        QTest::addColumn<int>("bx");
        QTest::addColumn<int>("by");
        QTest::newRow("97x61 5x5 @16x16") << 97 << 61 << 5 << 16 << 16;
        QTest::newRow("1x131 3x3 @8x8") << 1 << 131 << 3 << 8 << 8;
        QTest::newRow("131x1 7x7 @32x3") << 131 << 1 << 7 << 32 << 3;
    }
    void convolution_exact() {
        if (!gpu()) QSKIP(qPrintable(no_gpu_));
        QFETCH(int, w);
        QFETCH(int, h);
        QFETCH(int, side);
        QFETCH(int, bx);
        QFETCH(int, by);
        const std::vector<unsigned char> gray = random_values<unsigned char>(std::size_t(w) * h, 5);
        std::vector<float> in(gray.begin(), gray.end()), mask = random_values<float>(std::size_t(side) * side, 6);
        std::vector<float> out(in.size(), -1.f), ref(in.size());
        ConvolutionProblem p;
        p.gray = gray.data();
        p.mask = mask.data();
        p.out = ref.data();
        p.width = std::uint32_t(w);
        p.height = std::uint32_t(h);
        p.mask_side = std::uint32_t(side);
        convolution_reference(p);
        const std::string text = lecture("convolution.cu");
        GpuCompileOutput c = compile_ok(text, scan(text));
        QVERIFY(c.compiled());
        UserLaunch l{Dim3{unsigned(cdiv(w, bx)), unsigned(cdiv(h, by)), 1}, Dim3{unsigned(bx), unsigned(by), 1},
                     {UserArg::buffer("in", in.data(), in.size() * 4, 4, false), UserArg::buffer("mask", mask.data(), mask.size() * 4, 4, false),
                      UserArg::buffer("out", out.data(), out.size() * 4, 4, true), UserArg::integer("w", w), UserArg::integer("h", h), UserArg::integer("r", side / 2)}};
        GpuRunResult r = run_on_gpu(c, l);
        QVERIFY2(r.ran, r.message.c_str());
        QVERIFY(std::memcmp(out.data(), ref.data(), out.size() * 4) == 0);  // the reference's fmaf order: its bits
    }

    void gray_2d_lecture_planar_data() {
        QTest::addColumn<int>("w");
        QTest::addColumn<int>("h");
        QTest::addColumn<int>("bx");
        QTest::addColumn<int>("by");
        QTest::newRow("97x61 @16x16") << 97 << 61 << 16 << 16;
        QTest::newRow("1x127 @5x3") << 1 << 127 << 5 << 3;
        QTest::newRow("127x1 @64x1") << 127 << 1 << 64 << 1;
    }
    void gray_2d_lecture_planar() {
        if (!gpu()) QSKIP(qPrintable(no_gpu_));
        QFETCH(int, w);
        QFETCH(int, h);
        QFETCH(int, bx);
        QFETCH(int, by);
        std::vector<unsigned char> rgb = random_values<unsigned char>(3 * std::size_t(w) * h, 14), out(std::size_t(w) * h, 0), ref(out.size(), 0);
        GrayscaleImage im{rgb.data(), ref.data(), std::uint32_t(w), std::uint32_t(h), PixelLayout::Planar};
        grayscale_reference(im);
        const std::string text = lecture("grayscale_2d.cu");
        GpuCompileOutput c = compile_ok(text, scan(text));
        QVERIFY(c.compiled());
        UserLaunch l{Dim3{unsigned(cdiv(w, bx)), unsigned(cdiv(h, by)), 1}, Dim3{unsigned(bx), unsigned(by), 1},
                     {UserArg::buffer("x", rgb.data(), rgb.size(), 1, false), UserArg::buffer("out", out.data(), out.size(), 1, true), UserArg::integer("w", w), UserArg::integer("h", h)}};
        GpuRunResult r = run_on_gpu(c, l);
        QVERIFY2(r.ran, r.message.c_str());
        int worst = 0;
        for (std::size_t i = 0; i < out.size(); ++i) worst = std::max(worst, std::abs(int(out[i]) - int(ref[i])));
        QVERIFY2(worst <= 1, std::to_string(worst).c_str());  // double constants, as the lecture writes them
    }

    void out_of_bounds_faults_in_the_runner_only() {
        if (!gpu()) QSKIP(qPrintable(no_gpu_));
        // No guard, and an index far past the end. Only an address outside every mapping faults: 16 MB
        // past a 100-byte buffer landed in mapped memory on the H200 and was silently written; 256 MB
        // past gave cudaErrorInvalidAddressSpace.
        const char* text = "__global__ void bad(unsigned char* x, unsigned char* out, int n) {\n"
                           "    int i = blockIdx.x*blockDim.x + threadIdx.x;\n"
                           "    out[i + (1 << 28)] = x[i];\n"
                           "}\n";
        GpuCompileOutput c = compile_ok(text, gray1d_sig("bad"));
        QVERIFY(c.compiled());
        std::vector<unsigned char> in(300, 1), out(100, 5);
        const UserLaunch l = gray1d_launch(Dim3{1, 1, 1}, Dim3{100, 1, 1}, in, out, 100);
        GpuRunResult r = run_on_gpu(c, l);
        QVERIFY(!r.ran);
        QCOMPARE(int(r.fault), int(Fault::Device));
        QCOMPARE(r.status.kind(), ErrorKind::Device);
        QVERIFY2(r.message.find("outside its buffer") != std::string::npos, r.message.c_str());
        QCOMPARE(out, std::vector<unsigned char>(100, 5));  // nothing came back
        qInfo("out of bounds: %s", r.message.c_str());

        // The next run, in a new runner, is fine.
        GpuCompileOutput good = compile_ok(lecture("grayscale_1d.cu"), gray1d_sig());
        GpuRunResult next = run_on_gpu(good, l);
        QVERIFY2(next.ran, next.message.c_str());
        QCOMPARE(int(out[99]), int(std::uint8_t(0.2989 + 0.5870 + 0.1140)));
    }

    // Each buffer ends where unmapped memory begins (guard_zone.h): a load just past its end stops the
    // kernel. x[n] itself when the size is a multiple of 32 bytes; past the rounding to 32 bytes otherwise.
    void loads_past_the_end_fault() {
        if (!gpu()) QSKIP(qPrintable(no_gpu_));
        const char* text = "__global__ void past(unsigned char* x, unsigned char* out, int n) {\n"
                           "    int i = blockIdx.x*blockDim.x + threadIdx.x;\n"
                           "    if (i == 0) out[0] = x[n];\n"
                           "}\n";
        GpuCompileOutput c = compile_ok(text, gray1d_sig("past"));
        QVERIFY(c.compiled());
        struct Case {
            int size, read;  // x's bytes, the index read
            bool faults;
        };
        // 4096: x[4096] is the first unmapped byte. 4097: x[4097..4127] are the rounding (read unseen, a
        // limit the header states), x[4128] is unmapped. 3000: the rounding ends at 3008.
        for (Case k : {Case{4096, 4096, true}, Case{4097, 4128, true}, Case{3000, 3008, true}, Case{4096, 4095, false}, Case{4097, 4100, false}}) {
            std::vector<unsigned char> in(std::size_t(k.size), 7), out(1, 5);
            const UserLaunch l = gray1d_launch(Dim3{1, 1, 1}, Dim3{32, 1, 1}, in, out, k.read);
            GpuRunResult r = run_on_gpu(c, l);
            const std::string what = std::to_string(k.size) + " bytes, x[" + std::to_string(k.read) + "]: " + r.message;
            if (k.faults) {
                QVERIFY2(!r.ran, what.c_str());
                QCOMPARE(int(r.fault), int(Fault::Device));
                QCOMPARE(r.status.kind(), ErrorKind::Device);
                QVERIFY2(r.message.find("cudaErrorIllegalAddress") != std::string::npos, what.c_str());
                QVERIFY2(r.message.find("each buffer ends where unmapped memory begins") != std::string::npos, what.c_str());
                QCOMPARE(int(out[0]), 5);  // nothing came back
            } else {
                QVERIFY2(r.ran, what.c_str());
                QCOMPARE(int(r.fault), int(Fault::None));
                // In bounds: x's byte; in the rounding: the canary's byte there.
                const int expected = k.read < k.size ? 7 : canary_byte(std::size_t(k.read - k.size));
                QCOMPARE(int(out[0]), expected);
            }
            qInfo("%s", what.c_str());
        }
        // Floats: 97 of them (388 bytes, rounded to 416): c[104] is unmapped.
        const char* ftext = "__global__ void fpast(float* m, float* n, float* out, int h, int w, int k) {\n"
                            "    if (threadIdx.x == 0) out[0] = m[h*k];\n"
                            "}\n";
        GpuCompileOutput f = compile_ok(ftext, matmul_sig("fpast", 1));
        QVERIFY(f.compiled());
        std::vector<float> m(97, 1.f), nn(1, 1.f), o(1, -1.f);
        UserLaunch fl{Dim3{1, 1, 1}, Dim3{32, 1, 1},
                      {UserArg::buffer("m", m.data(), 388, 4, false), UserArg::buffer("n", nn.data(), 4, 4, false), UserArg::buffer("out", o.data(), 4, 4, true),
                       UserArg::integer("h", 104), UserArg::integer("w", 1), UserArg::integer("k", 1)}};
        GpuRunResult r = run_on_gpu(f, fl);
        QVERIFY2(!r.ran && r.fault == Fault::Device, r.message.c_str());
        QCOMPARE(o[0], -1.f);
    }

    // The lecture's 1-D kernel with its guard removed, through the app's path (run_user_kernel): the GPU
    // stops it at the first load past x, and the emulator's re-run names the thread, the line and x.
    // The lecture's kernel as written, the same launch: no fault, the reference's output.
    void missing_guard_load_is_named() {
        if (!gpu()) QSKIP(qPrintable(no_gpu_));
        const int w = 37, h = 27, n = w * h;  // 999 pixels, 4 blocks of 256: x[i+2n] reads up to x[3021] of 2997
        const std::vector<unsigned char> rgb = random_values<unsigned char>(3 * std::size_t(n), 23);
        UserRunRequest q;
        q.source = SourceFile{"no_guard.cu", "__global__ void rgb_to_grayscale_kernel(unsigned char* x, unsigned char* out, int n) {\n"
                                             "    int i = blockIdx.x*blockDim.x + threadIdx.x;\n"
                                             "    out[i] = 0.2989*x[i] + 0.5870*x[i+n] + 0.1140*x[i+2*n];\n"
                                             "}\n"};
        q.block = Dim3{256, 1, 1};
        q.backend = BackendChoice::Cuda;
        q.writers = false;
        auto call = grayscale_user_call(rgb, std::uint32_t(w), std::uint32_t(h), PixelLayout::Planar);
        UserRunResult r = run_user_kernel(*call, q);
        const std::string m = r.status.message();
        qInfo("missing guard: %s", m.c_str());
        QVERIFY(!r.ok());
        QCOMPARE(r.stage, UserRunStage::Run);
        QVERIFY2(m.find("the GPU stopped the kernel: cudaErrorIllegalAddress") == 0, m.c_str());
        if (user::kernel_runner_path().empty()) QSKIP("no cudaviz-kernel-runner here: the emulator's witness is not checked");
        if (m.find("on the emulator: ") == std::string::npos) QSKIP(qPrintable(QString::fromStdString("the emulator could not re-run it here: " + m)));
        QCOMPARE(int(r.fault), int(Fault::Bounds));  // confirmed by the emulator: the kernel's fault
        QCOMPARE(r.status.kind(), ErrorKind::InvalidInput);
        QVERIFY2(m.find("on the emulator: line 3: thread (") != std::string::npos, m.c_str());
        QVERIFY2(m.find(" reads x[") != std::string::npos, m.c_str());
        QVERIFY2(m.find("past the end of x (2997 elements)") != std::string::npos, m.c_str());

        q.source = SourceFile{"grayscale_1d.cu", lecture("grayscale_1d.cu")};
        auto good = grayscale_user_call(rgb, std::uint32_t(w), std::uint32_t(h), PixelLayout::Planar);
        r = run_user_kernel(*good, q);
        QVERIFY2(r.ok(), r.status.message().c_str());
        QCOMPARE(int(r.fault), int(Fault::None));
        QVERIFY2(r.comparison.matches(), comparison_summary(r.comparison).c_str());
    }

    // Stores that land in the rounding of a buffer's end to 32 bytes are seen in its back zone after the
    // kernel; past the rounding they stop it (unmapped memory).
    void missing_guard_store_is_a_bounds_fault() {
        if (!gpu()) QSKIP(qPrintable(no_gpu_));
        // Loads within x, stores past out: 4 blocks of 256 over 1000 pixels store out[1000..1023], the
        // 24 bytes of out's rounding.
        const char* text = "__global__ void store_past(unsigned char* x, unsigned char* out, int n) {\n"
                           "    int i = blockIdx.x*blockDim.x + threadIdx.x;\n"
                           "    out[i] = x[i % n] ^ 0x5A;\n"
                           "}\n";
        GpuCompileOutput c = compile_ok(text, gray1d_sig("store_past"));
        QVERIFY(c.compiled());
        const int n = 1000;
        std::vector<unsigned char> in = random_values<unsigned char>(std::size_t(n), 21), out(n, 5);
        UserLaunch l = gray1d_launch(Dim3{unsigned(cdiv(n, 256)), 1, 1}, Dim3{256, 1, 1}, in, out, n);
        GpuRunOptions o;
        o.time = true;  // the check comes before timing and copying back: neither happens
        GpuRunResult r = run_on_gpu(c, l, o);
        QVERIFY(!r.ran);
        QCOMPARE(int(r.fault), int(Fault::Bounds));
        QCOMPARE(r.status.kind(), ErrorKind::Device);
        // A store that happens to equal the canary's byte is unseen: the expected range is worked out here.
        int first = -1, last = -1;
        for (int i = n; i < 1024; ++i) {
            if ((in[std::size_t(i % n)] ^ 0x5A) == canary_byte(std::size_t(i - n))) continue;
            if (first < 0) first = i;
            last = i;
        }
        QVERIFY(first >= 0);
        const std::string expected = "out[" + std::to_string(first) + ".." + std::to_string(last) + "] were written, past the end of out (1000 elements)";
        QVERIFY2(r.message.find(expected) == 0, r.message.c_str());
        QVERIFY(!r.timing.timed);
        QCOMPARE(out, std::vector<unsigned char>(n, 5));  // nothing came back
        qInfo("missing guard (stores): %s", r.message.c_str());

        // One block more: out[1024..] is unmapped, the kernel is stopped.
        l.grid = Dim3{unsigned(cdiv(n, 256)) + 1, 1, 1};
        r = run_on_gpu(c, l, o);
        QVERIFY(!r.ran);
        QCOMPARE(int(r.fault), int(Fault::Device));
        QVERIFY2(r.message.find("cudaErrorIllegalAddress") != std::string::npos, r.message.c_str());

        // The same kernel over exactly its elements: no fault, and timed.
        l.grid = Dim3{1, 1, 1};
        l.block = Dim3{1000, 1, 1};
        r = run_on_gpu(c, l, o);
        QVERIFY2(r.ran, r.message.c_str());
        QVERIFY2(r.message.empty(), r.message.c_str());
        QVERIFY(r.timing.timed);
        for (int i = 0; i < n; ++i) QCOMPARE(int(out[std::size_t(i)]), int(in[std::size_t(i)] ^ 0x5A));

        // A 2-D kernel writing one row before its output: the front zone, negative offsets.
        const char* before = "__global__ void gray_2d(const unsigned char* rgb, unsigned char* gray, int w, int h) {\n"
                             "    int c = blockIdx.x*blockDim.x + threadIdx.x;\n"
                             "    int r = blockIdx.y*blockDim.y + threadIdx.y;\n"
                             "    if (c >= w || r >= h) return;\n"
                             "    gray[(r - 1)*w + c] = rgb[3*(r*w + c)];\n"
                             "}\n";
        GpuCompileOutput b = compile_ok(before, gray2d_sig());
        QVERIFY(b.compiled());
        const int w = 37, h = 11;
        std::vector<unsigned char> rgb(3 * w * h, 9), gray(w * h, 5);
        const UserLaunch l2 = gray2d_launch(16, 16, rgb, gray, w, h);
        r = run_on_gpu(b, l2);
        QVERIFY(!r.ran);
        QCOMPARE(int(r.fault), int(Fault::Bounds));
        const std::size_t zone = guarded_layout(gray.size(), std::size_t(2) << 20).front_zone;  // the H200's 2 MiB granules
        QVERIFY(canary_byte(zone - 37) != 9 && canary_byte(zone - 1) != 9);  // the ends are seen
        QVERIFY2(r.message.find("gray[-37..-1] were written, before the start of gray (407 elements)") == 0, r.message.c_str());
        QCOMPARE(gray, std::vector<unsigned char>(w * h, 5));
    }

    void spinning_kernel_stops_at_the_time_limit() {
        if (!gpu()) QSKIP(qPrintable(no_gpu_));
        const char* text = "__global__ void spin(unsigned char* x, unsigned char* out, int n) {\n"
                           "    volatile unsigned char* flag = x;\n"
                           "    while (flag[0] != 2) { }\n"
                           "    out[0] = x[0];\n"
                           "}\n";
        GpuCompileOutput c = compile_ok(text, gray1d_sig("spin"));
        QVERIFY(c.compiled());
        std::vector<unsigned char> in(3, 1), out(1, 5);
        const UserLaunch l = gray1d_launch(Dim3{4, 1, 1}, Dim3{64, 1, 1}, in, out, 1);
        GpuRunOptions o;
        o.time_limit_s = 3;
        GpuRunResult r = run_on_gpu(c, l, o);
        QVERIFY(!r.ran);
        QCOMPARE(int(r.fault), int(Fault::TimeLimit));
        QVERIFY2(r.message.find("time limit of 3 s was reached") != std::string::npos, r.message.c_str());
        QCOMPARE(int(out[0]), 5);
        qInfo("spinning kernel: stopped after %.2f s: %s", r.runner_ms / 1000, r.message.c_str());

        // Cancelled before it could finish: stopped, and said so.
        CancelToken cancel;
        cancel.request();
        o.cancel = &cancel;
        o.time_limit_s = 30;
        r = run_on_gpu(c, l, o);
        QVERIFY(!r.ran);
        QCOMPARE(int(r.fault), int(Fault::Cancelled));

        // The GPU serves the next run.
        GpuCompileOutput good = compile_ok(lecture("grayscale_1d.cu"), gray1d_sig());
        GpuRunResult next = run_on_gpu(good, l);
        QVERIFY2(next.ran, next.message.c_str());
    }

    void schedule_is_recorded() {
        if (!gpu()) QSKIP(qPrintable(no_gpu_));
        const int w = 97, h = 61, bx = 16, by = 8;
        std::vector<unsigned char> rgb = random_values<unsigned char>(3 * std::size_t(w) * h, 7), out(std::size_t(w) * h, 0), ref(out.size(), 0);
        GrayscaleImage im{rgb.data(), ref.data(), std::uint32_t(w), std::uint32_t(h), PixelLayout::Interleaved};
        grayscale_reference(im);
        GpuCompileOutput c = compile_ok(kGray2dCopy, gray2d_sig());  // returns early in the guard
        QVERIFY(c.compiled());
        const UserLaunch l = gray2d_launch(bx, by, rgb, out, w, h);
        GpuRunOptions o;
        o.record_schedule = true;
        GpuRunResult r = run_on_gpu(c, l, o);
        QVERIFY2(r.ran, r.message.c_str());
        QVERIFY2(r.message.empty(), r.message.c_str());
        QVERIFY(out == ref);
        QCOMPARE(r.registers, c.registers);  // the driver agrees with ptxas
        QCOMPARE(r.schedule.size(), std::size_t(l.grid.volume()));
        QVERIFY(r.sms > 0);
        BlockSchedule schedule;
        schedule.sms = r.sms;
        const std::string problem = make_block_schedule(l.grid, r.schedule, &schedule);
        QVERIFY2(problem.empty(), problem.c_str());
        QCOMPARE(check_block_schedule(schedule), std::string());
        qInfo("schedule of %zu blocks on %s (%d SMs): block 0 on SM %d, last end at %llu ns", r.schedule.size(), r.device.c_str(), r.sms,
              schedule.blocks[0].sm, (unsigned long long)schedule.blocks.back().end_ns);
    }

    // The user's copies of gray_2d and matmul_naive give the built-ins' bytes on the GPU. One launch
    // each, so that Nsight Compute can profile this case alone and compare their memory figures
    // (scripts: `ncu --target-processes all -k regex:"grayscale_kernel|gray_2d|matmul_kernel|matmul_naive"`).
    void user_copies_equal_builtins() {
        if (!gpu()) QSKIP(qPrintable(no_gpu_));
        const int w = 1920, h = 1080;
        std::vector<unsigned char> rgb = random_values<unsigned char>(3 * std::size_t(w) * h, 11), mine(std::size_t(w) * h, 1), theirs(mine.size(), 2);
        GrayscaleImage im{rgb.data(), theirs.data(), std::uint32_t(w), std::uint32_t(h), PixelLayout::Interleaved};
        Status s = grayscale_cuda(im, LaunchShape::two_d(16, 16));
        QVERIFY2(s, s.message().c_str());
        const UserLaunch gl = gray2d_launch(16, 16, rgb, mine, w, h);
        GpuRunResult r = run_on_gpu(compile_ok(kGray2dCopy, gray2d_sig()), gl);
        QVERIFY2(r.ran, r.message.c_str());
        QVERIFY(mine == theirs);

        const int n = 257;
        std::vector<float> a = random_values<float>(std::size_t(n) * n, 12), b = random_values<float>(std::size_t(n) * n, 13);
        std::vector<float> cm(std::size_t(n) * n, 1.f), cb(cm.size(), 2.f);
        s = matmul_cuda(MatmulProblem{a.data(), b.data(), cb.data(), std::uint32_t(n), std::uint32_t(n), std::uint32_t(n)}, MatmulLaunch::naive(16, 16));
        QVERIFY2(s, s.message().c_str());
        UserLaunch ml{Dim3{unsigned(cdiv(n, 16)), unsigned(cdiv(n, 16)), 1}, Dim3{16, 16, 1},
                      {UserArg::buffer("a", a.data(), a.size() * 4, 4, false), UserArg::buffer("b", b.data(), b.size() * 4, 4, false),
                       UserArg::buffer("c", cm.data(), cm.size() * 4, 4, true), UserArg::integer("h", n), UserArg::integer("w", n), UserArg::integer("k", n)}};
        r = run_on_gpu(compile_ok(kMatmulNaiveCopy, matmul_sig("matmul_naive", 1, true)), ml);
        QVERIFY2(r.ran, r.message.c_str());
        QVERIFY(std::memcmp(cm.data(), cb.data(), cm.size() * 4) == 0);  // the same fmaf chain: the same bits
    }

    // Figures, not a pass/fail comparison: the user's copies beside the built-ins, timed the same way.
    void timing_against_builtins() {
        if (!gpu()) QSKIP(qPrintable(no_gpu_));
        TimingOptions t;
        t.warmup = 5;
        t.repeats = 50;
        t.rounds = 3;
        t.budget_ms = 500;

        for (auto [w, h] : {std::pair{1920, 1080}, std::pair{3840, 2160}, std::pair{7680, 4320}}) {
            std::vector<unsigned char> rgb = random_values<unsigned char>(3 * std::size_t(w) * h, 8), out(std::size_t(w) * h);
            GrayscaleImage im{rgb.data(), out.data(), std::uint32_t(w), std::uint32_t(h), PixelLayout::Interleaved};
            TimingSweep builtin = time_grayscale_shapes(im, {LaunchShape::two_d(16, 16)}, t);
            QVERIFY2(builtin.status && builtin.shapes[0].timed, builtin.status.message().c_str());
            GpuCompileOutput c = compile_ok(kGray2dCopy, gray2d_sig());
            const UserLaunch l = gray2d_launch(16, 16, rgb, out, w, h);
            GpuRunOptions o;
            o.time = true;
            o.timing = t;
            GpuRunResult r = run_on_gpu(c, l, o);
            QVERIFY2(r.ran && r.timing.timed, r.message.c_str());
            const double b = builtin.shapes[0].median_ms, u = r.timing.median_ms;
            std::printf("TIMING gray_2d %dx%d @16x16: built-in %.4f ms, user %.4f ms, user/built-in %.3f (%d / %d launches)\n", w, h, b, u, u / b,
                        builtin.shapes[0].launches, r.timing.launches);
        }
        for (int n : {1024, 2048, 4096}) {
            std::vector<float> a = random_values<float>(std::size_t(n) * n, 9), bm = random_values<float>(std::size_t(n) * n, 10), cm(std::size_t(n) * n);
            MatmulProblem p{a.data(), bm.data(), cm.data(), std::uint32_t(n), std::uint32_t(n), std::uint32_t(n)};
            TimingSweep builtin = time_matmul_launches(p, {MatmulLaunch::naive(16, 16)}, t);
            QVERIFY2(builtin.status && builtin.shapes[0].timed, builtin.status.message().c_str());
            GpuCompileOutput c = compile_ok(kMatmulNaiveCopy, matmul_sig("matmul_naive", 1, true));
            UserLaunch l{Dim3{unsigned(cdiv(n, 16)), unsigned(cdiv(n, 16)), 1}, Dim3{16, 16, 1},
                         {UserArg::buffer("a", a.data(), a.size() * 4, 4, false), UserArg::buffer("b", bm.data(), bm.size() * 4, 4, false),
                          UserArg::buffer("c", cm.data(), cm.size() * 4, 4, true), UserArg::integer("h", n), UserArg::integer("w", n), UserArg::integer("k", n)}};
            GpuRunOptions o;
            o.time = true;
            o.timing = t;
            GpuRunResult r = run_on_gpu(c, l, o);
            QVERIFY2(r.ran && r.timing.timed, r.message.c_str());
            const double b = builtin.shapes[0].median_ms, u = r.timing.median_ms;
            std::printf("TIMING matmul_naive %d^3 @16x16: built-in %.4f ms, user %.4f ms, user/built-in %.3f; user %d registers (ptxas), %d (driver)\n", n, b, u, u / b,
                        c.registers, r.registers);
            if (c.registers == 0) std::printf("NVRTC %s log without registers:\n%s\n", nvrtc_version().c_str(), c.log.c_str());
        }
        std::fflush(stdout);
    }
};

QTEST_GUILESS_MAIN(TestUserKernelGpu)
#include "tst_user_kernel_gpu.moc"
