#include "app/convolution/convolution_command.h"

#include <QCommandLineParser>
#include <QDir>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSaveFile>

#include <cstring>
#include <set>

#include "app/cli/exit_codes.h"
#include "app/cli/help_text.h"
#include "app/cli/kernel_option.h"
#include "app/cli/schedule_option.h"
#include "app/cli/user_kernel_option.h"
#include "app/convolution/convolution_mask_file.h"
#include "app/convolution/convolution_output.h"
#include "app/convolution/convolution_runner.h"
#include "app/convolution/convolution_schedule_run.h"
#include "app/io/image_loader.h"
#include "app/io/memory_metrics_json.h"
#include "app/io/rgb_buffer.h"
#include "app/io/schedule_json.h"
#include "kernels/convolution/convolution_reference.h"
#include "kernels/convolution/convolution_trace.h"
#include "kernels/convolution/convolution_user_call.h"
#include "kernels/convolution/convolution_variants.h"

namespace cvz::cli {

namespace {

constexpr const char* kDefaultMask = "gauss5";
constexpr const char* kDefaultKernel = "conv_tiled";

struct ConvolutionOptions {
    QCommandLineOption mask{"mask",
                            QString("The mask: one of %1 (default %2), or a .npy file holding a 2-D square array of "
                                    "odd side 1 to 15, float32 or float64.")
                                .arg(QString::fromStdString(named_mask_list()), kDefaultMask),
                            "NAME|FILE.npy", kDefaultMask};
    QCommandLineOption kernel{"kernel",
                              "The kernel variant, by its catalogue name: " + kernel_names_text(KernelFamily::Convolution) +
                                  QString(" (default %1; the part after 'conv_' also works).").arg(kDefaultKernel),
                              "NAME", kDefaultKernel};
    QCommandLineOption block{"block", "Threads per block, XxY (one thread per output pixel; at most 1024 threads). "
                                      "Default 16x16.",
                             "XxY", "16x16"};
    QCommandLineOption backend{"backend", "Where the kernel runs: auto (CUDA when a device exists, else the CPU "
                                          "emulator), cpu or cuda.",
                               "auto|cpu|cuda", "auto"};
    QCommandLineOption metrics{"metrics", "Also write the launch's memory figures to FILE (JSON): the ten Nsight "
                                          "Compute figures, in all and per source line, and the constant-memory "
                                          "reads (requests, wavefronts: one per distinct address a warp reads, "
                                          "replays). They come from the CPU emulator's trace of the same launch, "
                                          "whichever backend runs it.",
                               "FILE.json"};
    QCommandLineOption schedule = schedule_option();
    UserKernelOptions user;
};

QString exit_help() {
    return "Exit status:\n"
           "  0  success\n"
           "  1  input rejected: IN is not a readable image; the mask is unknown, or its .npy file is not a 2-D\n"
           "     square float32/float64 array of odd side 1 to 15; OUT or FILE.json has another extension or\n"
           "     cannot be written; --block is not a valid block for the kernel and mask\n"
           "  2  bad usage: unknown option, missing arguments, unknown --backend or --kernel value\n"
           "  3  device or runtime failure: --backend cuda without a CUDA device (or a build without CUDA),\n"
           "     or an error reported by the CUDA runtime";
}

QString description() {
    return QString("Convolves the grayscale of IN (the grayscale command's bytes) with a square mask M of odd side\n"
                   "2R+1: out[r][c] = sum_i sum_j M[i][j] * g[r+i-R][c+j-R], g = 0 outside the image (ghost\n"
                   "cells), accumulated in float32 with fmaf, i outer and j inner; every backend, kernel variant\n"
                   "and block shape gives the same bytes. OUT is .npy (float32, shape (H, W)) or .png (each value\n"
                   "clamped to 0..255 and truncated).\n\n") +
           user_forms_help(convolution_call_forms()) +
           "in is the grayscale as float (h x w), the mask has side 2r+1. Your output is compared with the\n"
           "reference within 1e-5 relative.\n\n" +
           exit_help() +
           "\n  1  also: your kernel (--kernel-file) did not compile (FILE:LINE:COL: error: ... above) or faulted\n"
           "     (out of bounds, invalid access, time limit, divergent __syncthreads); OUT is then not written\n"
           "  3  also: the GPU reported an error running your kernel";
}

// "16x8" into a block; empty on success, else why not.
QString parse_block(const QString& text, Dim3* block) {
    static const QRegularExpression form(QStringLiteral("^\\s*(\\d{1,5})\\s*[xX]\\s*(\\d{1,5})\\s*$"));
    const QRegularExpressionMatch m = form.match(text);
    if (!m.hasMatch()) return QStringLiteral("a convolution block is XxY, two positive integers (e.g. 16x16)");
    const unsigned x = m.captured(1).toUInt(), y = m.captured(2).toUInt();
    if (x == 0 || y == 0) return QStringLiteral("a block has at least one thread in x and in y");
    *block = Dim3{x, y, 1};
    return {};
}

// The memory figures' JSON with the constant-memory reads beside the ten.
QString write_metrics(const QString& path, const MemoryTrace& trace, const QString& kernel) {
    const QString native = QDir::toNativeSeparators(path);
    if (!path.endsWith(QLatin1String(".json"), Qt::CaseInsensitive))
        return "cannot write the memory figures to '" + native + "': --metrics takes a file ending in .json";
    QJsonObject root = memory_metrics_json(trace, kernel);
    const RequestCounts& c = trace.totals.constant_ld;
    QJsonObject constant;
    constant.insert(QStringLiteral("requests"), qint64(c.requests));
    constant.insert(QStringLiteral("wavefronts"), qint64(c.wavefronts));
    constant.insert(QStringLiteral("ideal"), qint64(c.ideal_wavefronts));
    constant.insert(QStringLiteral("replays"), qint64(c.bank_conflicts()));
    root.insert(QStringLiteral("constant_ld"), constant);
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) return "cannot write '" + native + "': " + file.errorString();
    file.write(QJsonDocument(root).toJson(QJsonDocument::Indented));
    if (!file.commit()) return "cannot write '" + native + "': " + file.errorString();
    return {};
}

// The schedule's one-line report, as the other commands print it.
QString schedule_message(const BlockSchedule& s, const QString& path) {
    std::set<int> sms;
    std::uint64_t last_end = 0;
    for (const BlockRecord& b : s.blocks) {
        sms.insert(b.sm);
        last_end = std::max(last_end, b.end_ns);
    }
    return QStringLiteral("schedule: %1 blocks on %2 of %3 %4 of %5, %6 µs from first start to last end, written to %7")
        .arg(qulonglong(s.blocks.size()))
        .arg(qulonglong(sms.size()))
        .arg(s.sms)
        .arg(s.backend == "cuda" ? QStringLiteral("SMs") : QStringLiteral("host workers"))
        .arg(QString::fromStdString(s.device))
        .arg(double(last_end) / 1000.0, 0, 'f', 1)
        .arg(QDir::toNativeSeparators(path));
}

}  // namespace

int run_convolution_command(const QStringList& arguments, QTextStream& out, QTextStream& err) {
    QCommandLineParser parser;
    const QCommandLineOption help = parser.addHelpOption();
    const ConvolutionOptions options;
    parser.setApplicationDescription(description());
    parser.addOptions({options.mask, options.kernel, options.block, options.backend, options.metrics, options.schedule});
    parser.addOptions(options.user.all());
    parser.addPositionalArgument("convolution", "The command.", "convolution");
    parser.addPositionalArgument("IN", "The input image: any format Qt reads (PNG, JPEG, BMP, GIF, TIFF, WebP, ...).");
    parser.addPositionalArgument("OUT", "The output: .npy (float32, shape (H, W)) or .png (clamped to 0..255, truncated).");

    auto fail = [&err](ExitCode code, const QString& message) {
        err << "cudaviz-cli convolution: " << message << "\n";
        if (code == ExitCode::BadUsage) err << "Try 'cudaviz-cli convolution --help'.\n";
        return exit_status(code);
    };

    if (!parser.parse(arguments)) return fail(ExitCode::BadUsage, parser.errorText());
    if (parser.isSet(help)) {
        out << help_text(parser);
        return exit_status(ExitCode::Success);
    }
    const QStringList positional = parser.positionalArguments();  // "convolution", IN, OUT
    if (positional.size() < 3) return fail(ExitCode::BadUsage, "expected IN and OUT");
    if (positional.size() > 3)
        return fail(ExitCode::BadUsage, "unexpected argument '" + positional.at(3) + "' after IN and OUT");
    const QString in_path = positional.at(1), out_path = positional.at(2);

    const std::optional<BackendChoice> backend = parse_backend_choice(parser.value(options.backend));
    if (!backend)
        return fail(ExitCode::BadUsage, "unknown --backend '" + parser.value(options.backend) + "': use auto, cpu or cuda");
    if (const QString e = user_kernel_usage_error(parser, options.user, options.kernel); !e.isEmpty())
        return fail(ExitCode::BadUsage, e);
    const KernelInfo* kernel = find_kernel_option(KernelFamily::Convolution, parser.value(options.kernel));
    if (!kernel) return fail(ExitCode::BadUsage, unknown_kernel_message(KernelFamily::Convolution, parser.value(options.kernel)));

    const LoadedMask mask = resolve_mask(parser.value(options.mask));
    if (!mask.ok()) return fail(ExitCode::InputRejected, mask.error);

    if (parser.isSet(options.user.file)) {
        UserKernelArgs args;
        if (const QString e = read_user_kernel_args(parser, options.user, &args); !e.isEmpty()) return fail(ExitCode::BadUsage, e);
        args.block_text = parser.isSet(options.block) ? parser.value(options.block) : QString();
        args.backend = *backend;
        args.metrics_path = parser.value(options.metrics);
        args.schedule_path = parser.value(options.schedule);
        const std::optional<ConvolutionOutputKind> kind = convolution_output_kind(out_path);
        if (!kind)
            return fail(ExitCode::InputRejected,
                        "cannot write '" + QDir::toNativeSeparators(out_path) + "': OUT must end in .npy or .png");
        const LoadedImage image = load_image(in_path);
        if (!image.ok()) return fail(ExitCode::InputRejected, image.error);
        const RgbBuffer rgb = to_rgb_buffer(image.rgb);
        const std::unique_ptr<user::FamilyCall> call = convolution_user_call(
            convolution_input(rgb.bytes.data(), rgb.width, rgb.height, PixelLayout::Interleaved), rgb.width, rgb.height, mask.mask);
        return run_user_kernel_cli(
            QStringLiteral("convolution"), *call, args,
            [&] {
                const auto* values = static_cast<const float*>(call->output());
                return write_convolution_output(out_path, *kind,
                                                std::vector<float>(values, values + call->output_bytes() / sizeof(float)),
                                                rgb.width, rgb.height);
            },
            out, err);
    }

    ConvolutionLaunch launch;
    launch.kernel = ConvolutionVariant(kernel->variant);
    if (const QString e = parse_block(parser.value(options.block), &launch.block); !e.isEmpty())
        return fail(ExitCode::InputRejected, "invalid --block '" + parser.value(options.block) + "': " + e);

    const std::optional<ConvolutionOutputKind> out_kind = convolution_output_kind(out_path);
    if (!out_kind)
        return fail(ExitCode::InputRejected,
                    "cannot write '" + QDir::toNativeSeparators(out_path) + "': OUT must end in .npy or .png");
    const QString schedule_path = parser.value(options.schedule);
    if (parser.isSet(options.schedule))
        if (const QString e = schedule_path_error(schedule_path); !e.isEmpty()) return fail(ExitCode::InputRejected, e);

    const LoadedImage image = load_image(in_path);
    if (!image.ok()) return fail(ExitCode::InputRejected, image.error);
    const RgbBuffer rgb = to_rgb_buffer(image.rgb);
    // The block is checked against the image and the mask (a tiled block's shared memory grows with R).
    if (const std::string e = validate_convolution_launch(launch, rgb.width, rgb.height, mask.mask.side); !e.empty())
        return fail(ExitCode::InputRejected, "invalid --block '" + parser.value(options.block) + "' for --kernel " +
                                                 QString::fromStdString(kernel->name) + ": " + QString::fromStdString(e));

    ConvolutionRequest request;
    request.gray = convolution_input(rgb.bytes.data(), rgb.width, rgb.height, PixelLayout::Interleaved);
    request.width = rgb.width;
    request.height = rgb.height;
    request.mask = mask.mask;
    request.launch = launch;
    request.backend = *backend;
    request.emulator_repeats = 5;
    const ConvolutionResult result = run_convolution(request);
    if (!result.status) return fail(exit_code_for(result.status.kind()), QString::fromStdString(result.status.message()));

    if (const QString e = write_convolution_output(out_path, *out_kind, result.out, result.width, result.height); !e.isEmpty())
        return fail(ExitCode::InputRejected, e);

    if (parser.isSet(options.metrics)) {
        // Addresses do not depend on the pixels or the mask's values: the trace needs the shapes only.
        const TraceResult trace = trace_convolution(nullptr, nullptr, mask.mask.side, result.width, result.height, launch);
        if (!trace.status) return fail(exit_code_for(trace.status.kind()), QString::fromStdString(trace.status.message()));
        if (const QString e = write_metrics(parser.value(options.metrics), trace.trace, QString::fromStdString(kernel->name));
            !e.isEmpty())
            return fail(ExitCode::InputRejected, e);
    }

    out << result.summary() << " · mask " << mask.name << "\n";
    if (!schedule_path.isEmpty()) {
        const ConvolutionScheduleRun run = record_convolution_schedule(request);
        if (!run.status)
            return fail(exit_code_for(run.status.kind()), "--schedule: " + QString::fromStdString(run.status.message()));
        // Bytes, not floats: bit-identical results are the invariant.
        if (run.out.size() != result.out.size() ||
            std::memcmp(run.out.data(), result.out.data(), result.out.size() * sizeof(float)) != 0)
            return fail(ExitCode::RuntimeFailure, "--schedule: the recorded run's output differs from the timed run's (the "
                                                  "recording must not change the kernel's result)");
        if (const QString e = write_schedule_json(schedule_path, run.schedule); !e.isEmpty())
            return fail(ExitCode::InputRejected, e);
        out << schedule_message(run.schedule, schedule_path) << "\n";
    }
    return exit_status(ExitCode::Success);
}

}  // namespace cvz::cli
