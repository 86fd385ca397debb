// User kernels as variants of their family (issue 27), without running one: the app's registry of
// user variants (refs past the built-in tables, "yours: NAME", replacement keeping the ref), each
// family's binding of its problem to a UserLaunch (forms, parameter order, names, grid rule on odd
// sizes, layouts), the choice of a form with the message listing the accepted ones, and the comparison
// with the reference listing the differing elements with the threads that wrote them.
#include <QtTest>

#include <cstring>

#include <QFile>
#include <QImage>
#include <QSignalSpy>

#include "app/convolution/convolution_app_problem.h"
#include "app/convolution/convolution_session.h"
#include "app/grayscale/grayscale_problem.h"
#include "app/grayscale/grayscale_session.h"
#include "app/io/rgb_buffer.h"
#include "app/jobs/job_runner.h"
#include "app/matmul/matmul_app_problem.h"
#include "app/matmul/matmul_session.h"
#include "app/models/device_profile.h"
#include "app/tuning/block_sweep.h"
#include "app/tuning/ladder.h"
#include "app/user/launch_dims.h"
#include "app/user/user_compile.h"
#include "app/user/user_variants.h"
#include "kernels/catalogue/kernel_catalogue.h"
#include "kernels/convolution/convolution_reference.h"
#include "kernels/convolution/convolution_user_call.h"
#include "kernels/grayscale/grayscale_reference.h"
#include "kernels/grayscale/grayscale_user_call.h"
#include "kernels/matmul/matmul_reference.h"
#include "kernels/matmul/matmul_user_call.h"
#include "kernels/user/user_emulated.h"
#include "support/random_data.h"
#include "support/test_images.h"
#include "test_paths.h"

using namespace cvz;
using namespace cvz::user;

namespace {

KernelParam param(const char* type, const char* name, ParamKind kind) { return KernelParam{type, name, kind}; }

KernelSignature gray_1d_signature() {
    KernelSignature s;
    s.name = "rgb_to_grayscale_kernel";
    s.params = {param("unsigned char*", "x", ParamKind::BytePtr), param("unsigned char*", "out", ParamKind::BytePtr),
                param("int", "n", ParamKind::Int)};
    return s;
}

KernelSignature gray_2d_signature() {
    KernelSignature s;
    s.name = "gray2d";
    s.params = {param("const unsigned char*", "rgb", ParamKind::BytePtr), param("unsigned char*", "g", ParamKind::BytePtr),
                param("int", "width", ParamKind::Int), param("int", "height", ParamKind::Int)};
    return s;
}

KernelSignature float_signature(const char* name, std::vector<const char*> names) {
    KernelSignature s;
    s.name = name;
    for (int i = 0; i < 3; ++i) s.params.push_back(param("float*", names[i], ParamKind::FloatPtr));
    for (int i = 3; i < 6; ++i) s.params.push_back(param("int", names[i], ParamKind::Int));
    return s;
}

std::vector<std::uint8_t> gray_bytes_of(const QImage& image) {
    const QImage g = image.convertToFormat(QImage::Format_Grayscale8);
    std::vector<std::uint8_t> out;
    for (int y = 0; y < g.height(); ++y) out.insert(out.end(), g.constScanLine(y), g.constScanLine(y) + g.width());
    return out;
}

// Emulates a correct 1-D run of the lecture's kernel on the bound launch: what a runner leaves behind.
void run_gray_1d_by_hand(const UserLaunch& launch, std::vector<Writer>* writers) {
    const auto* x = static_cast<const std::uint8_t*>(launch.args[0].data);
    auto* out = static_cast<std::uint8_t*>(launch.args[1].data);
    const int n = launch.args[2].value;
    writers->assign(std::size_t(n), Writer{});
    for (std::uint64_t b = 0; b < launch.grid.x; ++b)
        for (unsigned t = 0; t < launch.block.x; ++t) {
            const std::uint64_t i = b * launch.block.x + t;
            if (i >= std::uint64_t(n)) continue;
            out[i] = std::uint8_t(0.2989 * x[i] + 0.5870 * x[i + n] + 0.1140 * x[i + 2 * n]);
            (*writers)[i] = Writer{b, t};
        }
}

constexpr int kRunTimeoutMs = 120000;  // a bound on a hang, never a measure of speed

user::SourceFile lecture_source(const char* name) {
    QFile f(cvz::test::source_dir() + "/resources/kernels/" + name);
    user::SourceFile s;
    s.name = name;
    if (f.open(QIODevice::ReadOnly)) s.text = f.readAll().toStdString();
    return s;
}

// A user copy of gray_2d: the built-in's accesses and arithmetic, planar.
const char* const kGray2dCopy =
    "__global__ void gray2d(const unsigned char* x, unsigned char* out, int w, int h) {\n"
    "    int c = blockIdx.x*blockDim.x + threadIdx.x;\n"
    "    int r = blockIdx.y*blockDim.y + threadIdx.y;\n"
    "    if (c < w && r < h) {\n"
    "        int i = r*w + c, n = w*h;\n"
    "        float acc = 0.2989f * x[i];\n"
    "        acc = fmaf(0.5870f, x[i + n], acc);\n"
    "        acc = fmaf(0.1140f, x[i + 2*n], acc);\n"
    "        out[i] = (unsigned char)acc;\n"
    "    }\n"
    "}\n";

}  // namespace

class TestUserVariants : public QObject {
    Q_OBJECT

private slots:
    void registry_numbers_past_the_built_ins() {
        for (const KernelInfo& k : kernel_catalogue()) QVERIFY(k.variant < kFirstUserVariant);
        UserVariant v;
        v.name = "my_gray";
        v.source = {"my_gray.cu", "__global__ void my_gray(unsigned char* x, unsigned char* out, int n) {}"};
        v.signature = gray_1d_signature();
        v.form = "gray-1d";
        v.one_d = true;
        const UserVariantPtr a = register_user_variant(KernelFamily::Grayscale, v);
        QVERIFY(a);
        QVERIFY(is_user_ref(a->ref));
        QCOMPARE(a->ref.family, KernelFamily::Grayscale);
        QCOMPARE(a->title(), std::string("yours: my_gray"));
        QCOMPARE(kernel_ref_text(a->ref), std::string("yours: my_gray"));
        const KernelInfo* info = any_kernel_info(a->ref);
        QVERIFY(info);
        QCOMPARE(info->name, std::string("yours: my_gray"));
        QCOMPARE(info->label, std::string("yours"));
        QCOMPARE(info->block, BlockRule::OneD);
        QVERIFY(!kernel_info(a->ref));  // the kernels layer's catalogue knows nothing of it

        // Another name gets the next number; another family counts on its own.
        v.name = "other";
        const UserVariantPtr b = register_user_variant(KernelFamily::Grayscale, v);
        QVERIFY(b && b->ref.variant == a->ref.variant + 1);
        v.name = "my_gray";
        v.one_d = false;
        v.form = "matmul";
        const UserVariantPtr m = register_user_variant(KernelFamily::Matmul, v);
        QVERIFY(m && m->ref.family == KernelFamily::Matmul && m->ref.variant == kFirstUserVariant);
        QCOMPARE(user_variants(KernelFamily::Grayscale).size(), std::size_t(2));
        QCOMPARE(user_variants(KernelFamily::Matmul).size(), std::size_t(1));

        // Compiling the same name again replaces the entry under the same ref; the old info stays valid.
        v.form = "gray-2d";
        const UserVariantPtr again = register_user_variant(KernelFamily::Grayscale, v);
        QVERIFY(again && again->ref == a->ref);
        QCOMPARE(user_variant(a->ref)->form, std::string("gray-2d"));
        QCOMPARE(info->name, std::string("yours: my_gray"));
        QCOMPARE(any_kernel_info(a->ref)->block, BlockRule::TwoD);

        set_user_variant_resources(a->ref, KernelResources{32, 2048});
        QVERIFY(user_variant(a->ref)->resources);
        QCOMPARE(user_variant(a->ref)->resources->static_shared_bytes, 2048);
        QCOMPARE(find_user_variant(KernelFamily::Grayscale, "other")->ref, b->ref);

        remove_user_variant(b->ref);
        QVERIFY(!user_variant(b->ref));
        QVERIFY(!any_kernel_info(b->ref));
        QCOMPARE(kernel_ref_text(b->ref), std::string("a removed kernel of yours"));
        // A removed number is not reused: a stale choice never finds another kernel.
        v.name = "third";
        const UserVariantPtr c = register_user_variant(KernelFamily::Grayscale, v);
        QVERIFY(c && c->ref.variant == b->ref.variant + 1);
    }

    void registry_is_bounded() {
        UserVariant v;
        v.form = "conv";
        int made = 0;
        for (unsigned i = 0; i < kMostUserVariants + 5; ++i) {
            v.name = "k" + std::to_string(i);
            if (register_user_variant(KernelFamily::Convolution, v)) ++made;
        }
        QCOMPARE(made, int(kMostUserVariants));
        // Replacing a registered name still works when the family is full.
        v.name = "k0";
        QVERIFY(register_user_variant(KernelFamily::Convolution, v));
        // Removing makes room; the numbers go round the range rather than coming straight back.
        const KernelRef first = find_user_variant(KernelFamily::Convolution, "k0")->ref;
        for (const UserVariantPtr& e : user_variants(KernelFamily::Convolution)) remove_user_variant(e->ref);
        QVERIFY(user_variants(KernelFamily::Convolution).empty());
        v.name = "again";
        const UserVariantPtr again = register_user_variant(KernelFamily::Convolution, v);
        QVERIFY(again && again->ref != first && is_user_ref(again->ref));
        remove_user_variant(again->ref);
    }

    void grayscale_forms_and_grid_rule() {
        const std::vector<CallForm>& forms = grayscale_call_forms();
        QCOMPARE(forms.size(), std::size_t(2));
        const FormChoice one = pick_form(gray_1d_signature(), forms);
        QVERIFY(one.form && one.form->id == "gray-1d");
        const FormChoice two = pick_form(gray_2d_signature(), forms);
        QVERIFY(two.form && two.form->id == "gray-2d");
        const FormChoice none = pick_form(float_signature("mm", {"a", "b", "c", "h", "w", "k"}), forms);
        QVERIFY(!none.form);
        QVERIFY2(none.error.find("(unsigned char* x, unsigned char* out, int n)") != std::string::npos, none.error.c_str());
        QVERIFY2(none.error.find("(unsigned char* x, unsigned char* out, int w, int h)") != std::string::npos, none.error.c_str());
        QVERIFY2(none.error.find("mm(") != std::string::npos, none.error.c_str());

        // 1-D: cdiv(n, block); 2-D: cdiv(w, bx) x cdiv(h, by), on odd sizes.
        struct Case { std::uint32_t w, h; Dim3 block; Dim3 grid1, grid2; };
        const Case cases[] = {{37, 23, {256, 1, 1}, {4, 1, 1}, {1, 23, 1}}, {1, 13, {7, 1, 1}, {2, 1, 1}, {1, 13, 1}},
                              {13, 1, {16, 16, 1}, {1, 1, 1}, {1, 1, 1}}, {61, 7, {7, 5, 1}, {61, 1, 1}, {9, 2, 1}}};
        for (const Case& c : cases) {
            const auto call = grayscale_user_call(std::vector<std::uint8_t>(3 * c.w * c.h, 1), c.w, c.h, PixelLayout::Planar);
            QVERIFY(call->input_error().empty());
            QCOMPARE(call->grid(*one.form, Dim3{c.block.x, 1, 1}), c.grid1);
            QCOMPARE(call->grid(*two.form, c.block), c.grid2);
            QVERIFY(call->one_d(*one.form) && !call->one_d(*two.form));
        }
    }

    void grayscale_binding_reads_the_chosen_layout() {
        const std::uint32_t w = 5, h = 3, n = w * h;
        const std::vector<std::uint8_t> rgb = ::test::random_bytes(3 * n, 7);
        for (PixelLayout layout : {PixelLayout::Planar, PixelLayout::Interleaved}) {
            const auto call = grayscale_user_call(rgb, w, h, layout);
            const KernelSignature s = gray_1d_signature();
            const UserLaunch l = call->bind(grayscale_call_forms()[0], s, Dim3{1, 1, 1}, Dim3{32, 1, 1});
            QCOMPARE(l.args.size(), std::size_t(3));
            QCOMPARE(l.args[0].kind, UserArg::Kind::Buffer);
            QCOMPARE(l.args[0].name, std::string("x"));
            QCOMPARE(l.args[0].bytes, std::size_t(3 * n));
            QVERIFY(!l.args[0].writable);
            QCOMPARE(l.args[1].name, std::string("out"));
            QVERIFY(l.args[1].writable);
            QCOMPARE(l.args[1].bytes, std::size_t(n));
            QCOMPARE(l.args[2].kind, UserArg::Kind::Int);
            QCOMPARE(l.args[2].value, int(n));
            QCOMPARE(call->output_arg(), std::size_t(1));
            const auto* x = static_cast<const std::uint8_t*>(l.args[0].data);
            for (std::uint32_t i = 0; i < n; ++i)
                for (unsigned c = 0; c < 3; ++c)
                    QCOMPARE(x[layout == PixelLayout::Planar ? i + c * n : 3 * i + c], rgb[3 * i + c]);
        }
        const auto call = grayscale_user_call(rgb, w, h, PixelLayout::Planar);
        const UserLaunch l = call->bind(grayscale_call_forms()[1], gray_2d_signature(), Dim3{1, 1, 1}, Dim3{8, 4, 1});
        QCOMPARE(l.args.size(), std::size_t(4));
        QCOMPARE(l.args[0].name, std::string("rgb"));
        QCOMPARE(l.args[1].name, std::string("g"));
        QCOMPARE(l.args[2].name, std::string("width"));
        QCOMPARE(l.args[2].value, int(w));
        QCOMPARE(l.args[3].value, int(h));
    }

    void matmul_binding_follows_the_lecture() {
        const std::uint32_t rows = 3, inner = 7, cols = 5;  // A 3x7, B 7x5
        const auto call = matmul_user_call(::test::random_floats(rows * inner, 1), ::test::random_floats(inner * cols, 2), rows, inner, cols);
        QVERIFY(call->input_error().empty());
        const std::vector<CallForm>& forms = matmul_call_forms();
        const KernelSignature s = float_signature("matmul_k", {"m", "n", "out", "h", "w", "k"});
        const FormChoice f = pick_form(s, forms);
        QVERIFY(f.form);
        QCOMPARE(call->grid(*f.form, Dim3{2, 2, 1}), (Dim3{3, 2, 1}));  // cdiv(w = 5, 2) x cdiv(h = 3, 2)
        const UserLaunch l = call->bind(*f.form, s, Dim3{3, 2, 1}, Dim3{2, 2, 1});
        QCOMPARE(l.args.size(), std::size_t(6));
        QCOMPARE(l.args[0].bytes, std::size_t(rows * inner * 4));
        QCOMPARE(l.args[1].bytes, std::size_t(inner * cols * 4));
        QCOMPARE(l.args[2].bytes, std::size_t(rows * cols * 4));
        QCOMPARE(l.args[2].element_bytes, std::size_t(4));
        QVERIFY(l.args[2].writable && !l.args[0].writable && !l.args[1].writable);
        QCOMPARE(l.args[3].value, int(rows));   // h
        QCOMPARE(l.args[4].value, int(cols));   // w
        QCOMPARE(l.args[5].value, int(inner));  // k
        QCOMPARE(l.args[5].name, std::string("k"));
        QCOMPARE(call->where(7), std::string("row 1, column 2"));
    }

    void convolution_binding_passes_the_grayscale_as_float() {
        const std::uint32_t w = 7, h = 3;
        const std::vector<std::uint8_t> gray = ::test::random_bytes(w * h, 4);
        ConvolutionMask mask;
        QVERIFY(named_mask("gauss5", &mask));
        const auto call = convolution_user_call(gray, w, h, mask);
        QVERIFY(call->input_error().empty());
        const KernelSignature s = float_signature("conv", {"in", "mask", "out", "w", "h", "r"});
        const FormChoice f = pick_form(s, convolution_call_forms());
        QVERIFY(f.form);
        QCOMPARE(call->grid(*f.form, Dim3{16, 16, 1}), (Dim3{1, 1, 1}));
        QCOMPARE(call->grid(*f.form, Dim3{2, 2, 1}), (Dim3{4, 2, 1}));
        const UserLaunch l = call->bind(*f.form, s, Dim3{4, 2, 1}, Dim3{2, 2, 1});
        const auto* in = static_cast<const float*>(l.args[0].data);
        for (std::size_t i = 0; i < gray.size(); ++i) QCOMPARE(in[i], float(gray[i]));
        QCOMPARE(l.args[1].bytes, std::size_t(25 * 4));
        QCOMPARE(l.args[3].value, int(w));
        QCOMPARE(l.args[4].value, int(h));
        QCOMPARE(l.args[5].value, 2);

        // A bad mask is refused before anything runs.
        ConvolutionMask even;
        even.side = 4;
        even.values.assign(16, 1.0f);
        QVERIFY(!convolution_user_call(gray, w, h, even)->input_error().empty());
    }

    void too_large_for_int_parameters_is_refused() {
        const auto call = grayscale_user_call({}, 40000, 40000, PixelLayout::Planar);
        QVERIFY(call->input_error().find("int") != std::string::npos);
    }

    // The comparison: a correct run matches within one grey level; pixels changed afterwards are
    // listed with the thread that wrote them, and unwritten ones say so.
    void comparison_lists_elements_and_writers() {
        const std::uint32_t w = 13, h = 3, n = w * h;
        std::vector<std::uint8_t> rgb = ::test::random_bytes(3 * n, 9);
        const auto call = grayscale_user_call(rgb, w, h, PixelLayout::Planar);
        const Dim3 block{8, 1, 1};
        const Dim3 grid = call->grid(grayscale_call_forms()[0], block);
        QCOMPARE(grid, (Dim3{5, 1, 1}));
        const UserLaunch l = call->bind(grayscale_call_forms()[0], gray_1d_signature(), grid, block);
        std::vector<Writer> writers;
        run_gray_1d_by_hand(l, &writers);
        Comparison c = call->compare(writers, 10);
        QVERIFY2(c.matches(), comparison_summary(c).c_str());
        QCOMPARE(c.compared, std::uint64_t(n));
        QCOMPARE(comparison_summary(c), std::string("matches the reference (within one grey level)"));

        auto* out = static_cast<std::uint8_t*>(l.args[1].data);
        std::vector<std::uint8_t> ref(n);
        grayscale_reference(GrayscaleImage{rgb.data(), ref.data(), w, h, PixelLayout::Interleaved});
        out[3] = std::uint8_t(ref[3] + 1 <= 255 ? ref[3] + 1 : ref[3] - 1);  // one grey level: within
        out[17] = std::uint8_t(ref[17] ^ 0x40);                                  // far off
        writers[20] = Writer{};
        out[20] = std::uint8_t(ref[20] ^ 0x80);                                  // and nobody wrote it
        c = call->compare(writers, 10);
        QCOMPARE(c.differing, std::uint64_t(2));
        QCOMPARE(c.listed.size(), std::size_t(2));
        QCOMPARE(c.listed[0].index, std::uint64_t(17));
        QCOMPARE(c.listed[0].writer.block, std::uint64_t(2));
        QCOMPARE(c.listed[0].writer.thread, 1u);
        QCOMPARE(c.max_difference, 128.0);
        const std::string text = difference_text(c.listed[0], "out", call->where(17), grid, block);
        QVERIFY2(text.find("out[17] (pixel x 4, y 1)") == 0, text.c_str());
        QVERIFY2(text.find("written by thread (2, 0, 0)/(1, 0, 0)") != std::string::npos, text.c_str());
        const std::string unwritten = difference_text(c.listed[1], "out", "", grid, block);
        QVERIFY2(unwritten.find("no thread wrote it") != std::string::npos, unwritten.c_str());
        QVERIFY(comparison_summary(c).find("2 of 39 elements differ") == 0);

        // Listing is capped; the count is not.
        c = call->compare(writers, 1);
        QCOMPARE(c.listed.size(), std::size_t(1));
        QCOMPARE(c.differing, std::uint64_t(2));
    }

    // A run that records no writers (the GPU's) lists the elements without inventing who wrote them.
    void comparison_without_writers_says_nothing_of_them() {
        const std::vector<double> ref{1.0, 2.0};
        const std::vector<float> got{1.0f, 3.0f};
        const Comparison c = compare_floats(got.data(), ref.data(), 2, 1e-5, {}, 10);
        QCOMPARE(c.differing, std::uint64_t(1));
        QVERIFY(!c.listed[0].writer_known);
        const std::string text = difference_text(c.listed[0], "out", "row 0, column 1", Dim3{1, 1, 1}, Dim3{2, 1, 1});
        QCOMPARE(text, std::string("out[1] (row 0, column 1) is 3, the reference 2"));
    }

    void float_comparison_is_relative_and_catches_nan() {
        const std::vector<double> ref{0.0, 1000.0, -3.0, 0.5};
        std::vector<float> got{5e-6f, 1000.009f, -3.0f, NAN};
        const std::vector<Writer> writers{{0, 0}, {0, 1}, {1, 0}, {1, 1}};
        const Comparison c = compare_floats(got.data(), ref.data(), 4, 1e-5, writers, 10);
        QCOMPARE(c.differing, std::uint64_t(1));  // only the NaN: 0.009 of 1000 is within 1e-5 relative
        QCOMPARE(c.listed[0].index, std::uint64_t(3));
        got[1] = 1000.02f;
        QCOMPARE(compare_floats(got.data(), ref.data(), 4, 1e-5, writers, 10).differing, std::uint64_t(2));
    }

    void writer_text_unlinearises_three_dimensions() {
        const Dim3 grid{3, 2, 2}, block{4, 2, 2};
        // block (2, 1, 1) = 2 + 3 * (1 + 2 * 1) = 11; thread (3, 0, 1) = 3 + 4 * (0 + 2 * 1) = 11
        QCOMPARE(writer_text(Writer{11, 11}, grid, block), std::string("(2, 1, 1)/(3, 0, 1)"));
        QCOMPARE(writer_text(Writer{}, grid, block), std::string("no thread"));
    }

    void compile_registers_a_variant_or_reports_the_error() {
        if (user::kernel_runner_path().empty()) QSKIP("cudaviz-kernel-runner is not built here: user kernels cannot run");
        const UserCompileOutcome ok = compile_user_variant(KernelFamily::Grayscale, grayscale_user_forms(),
                                                           lecture_source("grayscale_1d.cu"));
        QVERIFY2(ok.ok(), qPrintable(ok.error));
        QCOMPARE(ok.variant->name, std::string("rgb_to_grayscale_kernel"));
        QCOMPARE(ok.variant->form, std::string("gray-1d"));
        QVERIFY(ok.variant->one_d);
        QCOMPARE(any_kernel_info(ok.variant->ref)->block, BlockRule::OneD);
        const UserCompileOutcome tiled =
            compile_user_variant(KernelFamily::Matmul, matmul_user_forms(), lecture_source("matmul_tiled.cu"));
        QVERIFY2(tiled.ok(), qPrintable(tiled.error));
        QVERIFY(tiled.variant->barriers);
#if CUDAVIZ_HAVE_CUDA
        // NVRTC compiles without a GPU: its ptxas figures are the occupancy model's inputs.
        QVERIFY(tiled.variant->resources);
        QCOMPARE(tiled.variant->resources->static_shared_bytes, 2 * 16 * 16 * 4);
        QVERIFY(tiled.variant->resources->registers > 0);
        const BlockResources block = app_family(KernelFamily::Matmul).block_resources(LaunchChoice{tiled.variant->ref, Dim3{16, 16, 1}});
        QCOMPARE(block.shared_bytes, 2048);
        QCOMPARE(block.regs_per_thread, tiled.variant->resources->registers);
#endif

        const std::size_t before = user_variants(KernelFamily::Grayscale).size();
        const UserCompileOutcome bad = compile_user_variant(
            KernelFamily::Grayscale, grayscale_user_forms(),
            {"bad.cu", "__global__ void g(unsigned char* x, unsigned char* out, int n) {\n  out[0] = y;\n}\n"});
        QVERIFY(!bad.ok());
        QVERIFY2(bad.error.startsWith("bad.cu:2:"), qPrintable(bad.error));
        QVERIFY(!bad.diagnostics.empty());
        QCOMPARE(bad.diagnostics.front().line, 2u);
        QCOMPARE(user_variants(KernelFamily::Grayscale).size(), before);
        const UserCompileOutcome wrong =
            compile_user_variant(KernelFamily::Matmul, matmul_user_forms(), lecture_source("grayscale_1d.cu"));
        QVERIFY(!wrong.ok());
        QVERIFY2(wrong.error.contains("(float* m, float* n, float* out, int h, int w, int k)"), qPrintable(wrong.error));
    }

    // The generic code's way to a user variant: the family's problem validates, traces and predicts it
    // like a built-in, and its trace equals the built-in's with the same accesses.
    void problem_traces_and_predicts_a_user_variant() {
        if (user::kernel_runner_path().empty()) QSKIP("cudaviz-kernel-runner is not built here: user kernels cannot run");
        const UserCompileOutcome copy =
            compile_user_variant(KernelFamily::Grayscale, grayscale_user_forms(), {"gray2d.cu", kGray2dCopy});
        QVERIFY2(copy.ok(), qPrintable(copy.error));
        const FamilyProblemPtr problem = make_grayscale_problem(to_rgb_buffer(cvz::test::make_test_image(61, 37)), PixelLayout::Planar);
        const LaunchChoice mine{copy.variant->ref, Dim3{16, 8, 1}};
        const LaunchChoice builtin{find_kernel(KernelFamily::Grayscale, "gray_2d")->ref(), Dim3{16, 8, 1}};
        QVERIFY(problem->validate(mine).isEmpty());
        QVERIFY(!problem->validate(LaunchChoice{mine.ref, Dim3{64, 32, 1}}).isEmpty());  // 2048 threads
        const ProblemTrace a = problem->traceSample(mine, nullptr);
        const ProblemTrace b = problem->traceSample(builtin, nullptr);
        QVERIFY2(a.traced.status, a.traced.status.message().c_str());
        QVERIFY(b.traced.status);
        QCOMPARE(a.fmas, b.fmas);
        QCOMPARE(a.traced.trace.totals.global_ld.requests, b.traced.trace.totals.global_ld.requests);
        QCOMPARE(a.traced.trace.totals.global_ld.sectors, b.traced.trace.totals.global_ld.sectors);
        QCOMPARE(a.traced.trace.totals.global_st.requests, b.traced.trace.totals.global_st.requests);
        QCOMPARE(a.traced.trace.totals.global_st.sectors, b.traced.trace.totals.global_st.sectors);
        const DeviceProfile profile = builtin_device_profiles().first();
        const GpuPrediction p = problem->predict(profile, mine);
        QVERIFY2(p.ok(), qPrintable(p.error));
        QVERIFY(p.total_us > 0);
        QCOMPARE(p.sampling.contains("registers assumed"), !copy.variant->resources.has_value());
        const BlockResources r = app_family(KernelFamily::Grayscale).block_resources(mine);
        QCOMPARE(r.threads, 128);

        // The sweep and the ladder list it beside the built-ins, and the ladder traces its row.
        bool swept = false;
        for (const SweepRow& row : sweep_rows(KernelFamily::Grayscale, profile))
            if (row.choice.ref == copy.variant->ref) {
                swept = true;
                QVERIFY(row.label().startsWith("yours"));
            }
        QVERIFY(swept);
        const std::vector<LadderRow> rungs = ladder_rows(KernelFamily::Grayscale, profile);
        const auto rung = std::find_if(rungs.begin(), rungs.end(), [](const LadderRow& r) { return r.name == "yours: gray2d"; });
        QVERIFY(rung != rungs.end());
        QVERIFY(rung->launch.occupancy.blocks_per_sm > 0);
        SweepRequest request;
        request.problem = problem;
        request.profile = profile;
        const LadderFigures figures = trace_ladder_row(request, *rung);
        QVERIFY2(figures.traced, qPrintable(figures.error));
        const ProblemTrace at_16x16 = problem->traceSample(LaunchChoice{builtin.ref, rung->launch.choice.block}, nullptr);
        QCOMPARE(figures.metrics.global_ld.sectors, at_16x16.traced.trace.totals.global_ld.sectors);
        QCOMPARE(figures.metrics.global_st.requests, at_16x16.traced.trace.totals.global_st.requests);

        // Without a GPU, timing a user variant says why beside the built-ins' results.
        if (!cuda_device_available()) {
            TimingOptions options;
            const TimingSweep t = problem->time({builtin, mine}, options);
            QVERIFY(!t.status);
            QCOMPARE(t.shapes.size(), std::size_t(2));
            QVERIFY(!t.shapes[1].timed);
        }
    }

    void grayscale_session_runs_a_user_variant() {
        if (user::kernel_runner_path().empty()) QSKIP("cudaviz-kernel-runner is not built here: user kernels cannot run");
        const UserCompileOutcome v =
            compile_user_variant(KernelFamily::Grayscale, grayscale_user_forms(), lecture_source("grayscale_2d.cu"));
        QVERIFY2(v.ok(), qPrintable(v.error));
        JobRunner jobs;
        GrayscaleSession session(&jobs);
        session.setBackend(BackendChoice::Cpu);
        session.setLayout(PixelLayout::Planar);
        session.setShape(LaunchShape::two_d(7, 5));
        const QImage picture = cvz::test::make_test_image(37, 23, 4);
        QSignalSpy finished(&session, &GrayscaleSession::runFinished);
        session.setImage(picture);
        QVERIFY(finished.count() == 1 || finished.wait(kRunTimeoutMs));
        QSignalSpy user_done(&session, &GrayscaleSession::userRunFinished);
        session.setUserKernel(v.variant->ref);
        QVERIFY(session.runsUserKernel());
        QVERIFY(user_done.wait(kRunTimeoutMs));
        QVERIFY(session.userRun());
        QVERIFY2(session.userRun()->ok(), session.userRun()->status.message().c_str());
        QVERIFY(session.userRun()->comparison.matches());
        QCOMPARE(session.userRun()->grid, (Dim3{6, 5, 1}));
        QCOMPARE(session.userRun()->writers.size(), std::size_t(37 * 23));
        QCOMPARE(session.userRun()->writers[0].thread, 0u);
        QVERIFY(finished.count() == 2 || finished.wait(kRunTimeoutMs));
        const std::vector<std::uint8_t> got = gray_bytes_of(session.result());
        RgbBuffer rgb = to_rgb_buffer(picture);
        std::vector<std::uint8_t> want(37 * 23);
        grayscale_reference(GrayscaleImage{rgb.bytes.data(), want.data(), 37, 23, PixelLayout::Interleaved});
        QCOMPARE(got.size(), want.size());
        for (std::size_t i = 0; i < got.size(); ++i) QVERIFY(std::abs(int(got[i]) - int(want[i])) <= 1);
        // The trace job follows the user kernel.
        const TraceResult trace = session.traceJob()(TraceOptions{});
        QVERIFY2(trace.status, trace.status.message().c_str());
        QVERIFY(trace.trace.totals.global_st.requests > 0);
        // So does the schedule recording: every block once, the output the run's.
        const ScheduleRun recorded = session.scheduleJob()();
        QVERIFY2(recorded.status, recorded.status.message().c_str());
        QCOMPARE(recorded.schedule.blocks.size(), std::size_t(6 * 5));
        QVERIFY(check_block_schedule(recorded.schedule).empty());
        QCOMPARE(recorded.output, got);
        // Back to the built-ins.
        session.setUserKernel(KernelRef{});
        QVERIFY(!session.runsUserKernel());
    }

    void matmul_and_convolution_sessions_run_user_variants() {
        if (user::kernel_runner_path().empty()) QSKIP("cudaviz-kernel-runner is not built here: user kernels cannot run");
        const UserCompileOutcome mm =
            compile_user_variant(KernelFamily::Matmul, matmul_user_forms(), lecture_source("matmul_tiled.cu"));
        QVERIFY2(mm.ok(), qPrintable(mm.error));
        JobRunner jobs;
        MatmulSession matmul(&jobs);
        matmul.setBackend(BackendChoice::Cpu);
        matmul.setLaunch(MatmulLaunch::of(MatmulVariant::Naive, Dim3{16, 16, 1}, 0));
        QSignalSpy mm_done(&matmul, &MatmulSession::userRunFinished);
        matmul.setUserKernel(mm.variant->ref);
        Matrix a, b;
        a.rows = 19, a.cols = 23, b.rows = 23, b.cols = 7;
        a.data = ::test::random_floats(a.size(), 5);
        b.data = ::test::random_floats(b.size(), 6);
        matmul.setMatrices(a, b);
        QVERIFY(mm_done.wait(kRunTimeoutMs));
        QVERIFY2(matmul.userRun()->ok(), matmul.userRun()->status.message().c_str());
        QVERIFY2(matmul.userRun()->comparison.matches(), user::comparison_summary(matmul.userRun()->comparison).c_str());
        QVERIFY(matmul.c());
        QCOMPARE(matmul.c()->rows, 19u);
        QCOMPARE(matmul.c()->cols, 7u);
        const ScheduleRun mm_schedule = matmul.scheduleJob()();
        QVERIFY2(mm_schedule.status, mm_schedule.status.message().c_str());
        QCOMPARE(mm_schedule.schedule.blocks.size(), std::size_t(1 * 2));  // cdiv(7, 16) x cdiv(19, 16)
        QCOMPARE(mm_schedule.output.size(), matmul.c()->data.size() * sizeof(float));
        QVERIFY(std::memcmp(mm_schedule.output.data(), matmul.c()->data.data(), mm_schedule.output.size()) == 0);

        const UserCompileOutcome cv =
            compile_user_variant(KernelFamily::Convolution, convolution_user_forms(), lecture_source("convolution.cu"));
        QVERIFY2(cv.ok(), qPrintable(cv.error));
        ConvolutionSession conv(&jobs);
        conv.setBackend(BackendChoice::Cpu);
        QSignalSpy cv_done(&conv, &ConvolutionSession::userRunFinished);
        conv.setUserKernel(cv.variant->ref);
        conv.setImage(cvz::test::make_test_image(29, 13, 1));
        QVERIFY(cv_done.wait(kRunTimeoutMs));
        QVERIFY2(conv.userRun()->ok(), conv.userRun()->status.message().c_str());
        QVERIFY(conv.userRun()->comparison.matches());
        QCOMPARE(conv.output().size(), std::size_t(29 * 13));
        const ScheduleRun cv_schedule = conv.scheduleJob()();
        QVERIFY2(cv_schedule.status, cv_schedule.status.message().c_str());
        QCOMPARE(cv_schedule.schedule.blocks.size(), std::size_t(2 * 1));  // cdiv(29, 16) x cdiv(13, 16)
        QVERIFY(std::memcmp(cv_schedule.output.data(), conv.output().data(), cv_schedule.output.size()) == 0);
        // Back to the built-in: its schedule job records the built-in's launch.
        conv.setUserKernel(KernelRef{});
        const ScheduleRun builtin = conv.scheduleJob()();
        QVERIFY2(builtin.status, builtin.status.message().c_str());
        QCOMPARE(builtin.output.size(), std::size_t(29 * 13 * 4));
    }

    void dims_text_parses_blocks_and_grids() {
        QString e;
        QCOMPARE(*parse_dims("256", &e), (Dim3{256, 1, 1}));
        QCOMPARE(*parse_dims("7x5", &e), (Dim3{7, 5, 1}));
        QCOMPARE(*parse_dims(" 8 x 4 x 2 ", &e), (Dim3{8, 4, 2}));
        QVERIFY(!parse_dims("0x4", &e));
        QVERIFY(!parse_dims("4y4", &e));
        QVERIFY(!parse_dims("", &e));
        QVERIFY(!e.isEmpty());
        QCOMPARE(dims_text(Dim3{7, 5, 1}), QString("7x5"));
        QVERIFY(block_error(Dim3{32, 32, 1}).isEmpty());
        QVERIFY(!block_error(Dim3{33, 32, 1}).isEmpty());
        QVERIFY(!block_error(Dim3{1, 1, 65}).isEmpty());
        QVERIFY(grid_error(Dim3{100000, 65535, 1}).isEmpty());
        QVERIFY(!grid_error(Dim3{1, 65536, 1}).isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestUserVariants)
#include "tst_user_variants.moc"
