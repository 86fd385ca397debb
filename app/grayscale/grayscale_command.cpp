#include "grayscale_command.h"

#include <QCommandLineParser>
#include <QDir>

#include "app/jobs/backend_choice.h"
#include "app/grayscale/grayscale_runner.h"
#include "app/io/image_loader.h"
#include "app/models/launch_config.h"
#include "app/io/memory_metrics_json.h"
#include "app/io/rgb_buffer.h"
#include "app/cli/exit_codes.h"
#include "app/grayscale/gray_output.h"
#include "app/cli/help_text.h"
#include "app/cli/kernel_option.h"
#include "kernels/grayscale/grayscale_launch.h"
#include "kernels/grayscale/grayscale_variants.h"
#include "kernels/grayscale/grayscale_trace.h"
#include "app/grayscale/pixel_layout_option.h"
#include "app/cli/schedule_option.h"
#include "app/cli/user_kernel_option.h"
#include "app/grayscale/grayscale_schedule_recorder.h"
#include "kernels/grayscale/grayscale_user_call.h"

namespace cvz::cli {

namespace {

struct GrayscaleOptions {
    QCommandLineOption backend{"backend", "Where the kernel runs: auto (CUDA when a device exists, else the CPU "
                                          "emulator), cpu or cuda.",
                               "auto|cpu|cuda", "auto"};
    QCommandLineOption layout{"layout", "How the kernel sees the RGB input: interleaved (R G B R G B ...) or "
                                        "planar (C x H x W, as in the lecture).",
                              "interleaved|planar", "interleaved"};
    QCommandLineOption block{"block", "Threads per block: N for a 1-D launch over the flattened image, XxY for "
                                      "a 2-D launch (at most 1024 threads). Without --kernel, N runs gray_1d and "
                                      "XxY gray_2d. Default: 256 for a 1-D kernel, 16x16 for a 2-D one.",
                             "N|XxY"};
    QCommandLineOption schedule = schedule_option();
    QCommandLineOption kernel{"kernel", "The kernel variant, by its catalogue name: " +
                                            kernel_names_text(KernelFamily::Grayscale) +
                                            " ('cudaviz-cli kernels' lists them; the part after 'gray_' also works).",
                              "NAME"};
    QCommandLineOption metrics{"metrics", "Also write the launch's memory figures to FILE (JSON): global load and "
                                          "store requests and sectors, shared-memory requests, wavefronts and bank "
                                          "conflicts under Nsight Compute's metric names, in all and per source "
                                          "line. They come from the CPU emulator's trace of the same launch, "
                                          "whichever backend runs it.",
                               "FILE.json"};
    UserKernelOptions user;
};

// The launch of --kernel and --block: the variant's rule decides which block syntax it takes.
// Empty on success, else why the block does not fit the variant.
QString kernel_launch(const KernelInfo& k, const QString& block_text, bool block_set, LaunchShape* shape) {
    const GrayscaleVariant variant = GrayscaleVariant(k.variant);
    const QString name = QString::fromStdString(k.name);
    switch (k.block) {
        case BlockRule::Fixed:
            if (block_set) return name + " runs with its own fixed block; leave out --block";
            *shape = LaunchShape::of(variant, k.fixed_block);
            return {};
        case BlockRule::OneD:
        case BlockRule::TwoD:
        case BlockRule::Tile: break;
    }
    const bool one_d = k.block == BlockRule::OneD;
    const LaunchConfigParse parsed = parse_launch_config(block_set ? block_text : one_d ? QStringLiteral("256") : QStringLiteral("16x16"));
    if (!parsed.ok()) return parsed.error;
    if (one_d != is_one_d(parsed.shape))
        return one_d ? name + " is a 1-D kernel: give --block N (threads per block)"
                     : name + " is a 2-D kernel: give --block XxY";
    *shape = LaunchShape::of(variant, parsed.shape.block);
    return validate_launch_config(*shape);
}

QString description() {
    return QString("Converts IN to grayscale with the lecture's kernel (0.2989 R + 0.5870 G + 0.1140 B, "
                   "truncated to uint8)\nand writes OUT. Alpha is dropped; every backend, kernel variant and block "
                   "shape gives the same bytes.\n\n") +
           user_forms_help(grayscale_call_forms()) +
           "x is the image in --layout (default planar for your kernel, as in the lecture: pixel i at x[i], x[i+n],\n"
           "x[i+2n]); n = w*h. Your output may differ from the reference by one grey level.\n\n" +
           exit_code_help() +
           "\n  1  also: your kernel (--kernel-file) did not compile (FILE:LINE:COL: error: ... above) or faulted\n"
           "     (out of bounds, invalid access, time limit, divergent __syncthreads); OUT is then not written\n"
           "  3  also: the GPU reported an error running your kernel";
}

void describe(QCommandLineParser& parser, const GrayscaleOptions& options) {
    parser.setApplicationDescription(description());
    parser.addOptions({options.backend, options.layout, options.kernel, options.block, options.schedule, options.metrics});
    parser.addOptions(options.user.all());
    parser.addPositionalArgument("grayscale", "The command.", "grayscale");
    parser.addPositionalArgument("IN", "The input image: any format Qt reads (PNG, JPEG, BMP, GIF, TIFF, WebP, ...).");
    parser.addPositionalArgument("OUT", "The output: .png (8-bit grayscale) or .npy (NumPy uint8, shape (H, W)).");
}

}  // namespace

int run_grayscale_command(const QStringList& arguments, QTextStream& out, QTextStream& err) {
    QCommandLineParser parser;
    const QCommandLineOption help = parser.addHelpOption();
    const GrayscaleOptions options;
    describe(parser, options);

    auto fail = [&err](ExitCode code, const QString& message) {
        err << "cudaviz-cli grayscale: " << message << "\n";
        if (code == ExitCode::BadUsage) err << "Try 'cudaviz-cli grayscale --help'.\n";
        return exit_status(code);
    };

    if (!parser.parse(arguments)) return fail(ExitCode::BadUsage, parser.errorText());
    if (parser.isSet(help)) {
        out << help_text(parser);
        return exit_status(ExitCode::Success);
    }
    const QStringList positional = parser.positionalArguments();  // "grayscale", IN, OUT
    if (positional.size() < 3) return fail(ExitCode::BadUsage, "expected IN and OUT");
    if (positional.size() > 3)
        return fail(ExitCode::BadUsage, "unexpected argument '" + positional.at(3) + "' after IN and OUT");
    const QString in_path = positional.at(1);
    const QString out_path = positional.at(2);

    const std::optional<BackendChoice> backend = parse_backend_choice(parser.value(options.backend));
    if (!backend)
        return fail(ExitCode::BadUsage,
                    "unknown --backend '" + parser.value(options.backend) + "': use auto, cpu or cuda");
    const std::optional<PixelLayout> layout = parse_pixel_layout(parser.value(options.layout));
    if (!layout)
        return fail(ExitCode::BadUsage,
                    "unknown --layout '" + parser.value(options.layout) + "': use interleaved or planar");

    if (const QString e = user_kernel_usage_error(parser, options.user, options.kernel); !e.isEmpty())
        return fail(ExitCode::BadUsage, e);
    if (parser.isSet(options.user.file)) {
        // Your kernel: planar unless --layout says otherwise, as the lecture's kernel reads it.
        const PixelLayout user_layout = parser.isSet(options.layout) ? *layout : PixelLayout::Planar;
        const std::optional<GrayOutputKind> kind = gray_output_kind(out_path);
        if (!kind)
            return fail(ExitCode::InputRejected,
                        "cannot write '" + QDir::toNativeSeparators(out_path) + "': OUT must end in .png or .npy");
        UserKernelArgs args;
        if (const QString e = read_user_kernel_args(parser, options.user, &args); !e.isEmpty()) return fail(ExitCode::BadUsage, e);
        args.block_text = parser.value(options.block);
        args.backend = *backend;
        args.metrics_path = parser.value(options.metrics);
        args.schedule_path = parser.value(options.schedule);
        const LoadedImage image = load_image(in_path);
        if (!image.ok()) return fail(ExitCode::InputRejected, image.error);
        RgbBuffer rgb = to_rgb_buffer(image.rgb);
        const std::uint32_t w = rgb.width, h = rgb.height;
        const std::unique_ptr<user::FamilyCall> call = grayscale_user_call(std::move(rgb.bytes), w, h, user_layout);
        return run_user_kernel_cli(
            QStringLiteral("grayscale"), *call, args,
            [&] {
                const auto* bytes = static_cast<const std::uint8_t*>(call->output());
                return write_gray_output(out_path, *kind, std::vector<std::uint8_t>(bytes, bytes + call->output_bytes()), w, h);
            },
            out, err);
    }

    LaunchShape shape;
    const QString block_text = parser.isSet(options.block) ? parser.value(options.block) : QStringLiteral("256");
    if (parser.isSet(options.kernel)) {
        const KernelInfo* kernel = find_kernel_option(KernelFamily::Grayscale, parser.value(options.kernel));
        if (!kernel) return fail(ExitCode::BadUsage, unknown_kernel_message(KernelFamily::Grayscale, parser.value(options.kernel)));
        if (const QString e = kernel_launch(*kernel, block_text, parser.isSet(options.block), &shape); !e.isEmpty())
            return fail(ExitCode::InputRejected, "invalid --block '" + block_text + "' for --kernel " +
                                                     QString::fromStdString(kernel->name) + ": " + e);
    } else {
        // Without --kernel the block chooses, as before the catalogue: N is gray_1d, XxY gray_2d.
        const LaunchConfigParse block = parse_launch_config(block_text);
        const QString block_error = block.ok() ? validate_launch_config(block.shape) : block.error;
        if (!block_error.isEmpty()) return fail(ExitCode::InputRejected, "invalid --block '" + block_text + "': " + block_error);
        shape = block.shape;
    }

    const std::optional<GrayOutputKind> out_kind = gray_output_kind(out_path);
    if (!out_kind)
        return fail(ExitCode::InputRejected,
                    "cannot write '" + QDir::toNativeSeparators(out_path) + "': OUT must end in .png or .npy");

    const QString schedule_path = parser.value(options.schedule);
    if (parser.isSet(options.schedule))
        if (const QString e = schedule_path_error(schedule_path); !e.isEmpty()) return fail(ExitCode::InputRejected, e);

    const LoadedImage image = load_image(in_path);
    if (!image.ok()) return fail(ExitCode::InputRejected, image.error);

    GrayscaleRequest request;
    request.input = to_rgb_buffer(image.rgb);
    request.layout = *layout;
    request.shape = shape;
    request.backend = *backend;
    request.emulator_repeats = 5;
    const GrayscaleResult result = run_grayscale(request);
    if (!result.status)
        return fail(exit_code_for(result.status.kind()), QString::fromStdString(result.status.message()));

    const QString write_error = write_gray_output(out_path, *out_kind, result.gray, result.width, result.height);
    if (!write_error.isEmpty()) return fail(ExitCode::InputRejected, write_error);

    if (parser.isSet(options.metrics)) {
        // Addresses do not depend on the pixels: the trace needs only the launch and the image's shape.
        const TraceResult trace = trace_grayscale(nullptr, result.width, result.height, *layout, shape);
        if (!trace.status)
            return fail(exit_code_for(trace.status.kind()), QString::fromStdString(trace.status.message()));
        const QString name = QString::fromStdString(grayscale_variant_info(shape.kind)->name);
        if (const QString e = write_memory_metrics(parser.value(options.metrics), trace.trace, name); !e.isEmpty())
            return fail(ExitCode::InputRejected, e);
    }

    out << result.summary() << "\n";
    const ScheduleOutcome schedule = write_schedule(
        schedule_path, [&] { return record_grayscale_schedule(request); }, result.gray.data(), result.gray.size());
    if (schedule.code != ExitCode::Success) return fail(schedule.code, schedule.message);
    if (!schedule.message.isEmpty()) out << schedule.message << "\n";
    return exit_status(ExitCode::Success);
}

}  // namespace cvz::cli
