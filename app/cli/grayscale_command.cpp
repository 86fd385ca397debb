#include "grayscale_command.h"

#include <QCommandLineParser>
#include <QDir>

#include "app/backend_choice.h"
#include "app/grayscale_runner.h"
#include "app/image_loader.h"
#include "app/launch_config.h"
#include "app/rgb_buffer.h"
#include "exit_codes.h"
#include "help_text.h"
#include "gray_output.h"
#include "pixel_layout_option.h"

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
                                      "a 2-D launch (at most 1024 threads).",
                             "N|XxY", "256"};
};

QString description() {
    return QString("Converts IN to grayscale with the lecture's kernel (0.2989 R + 0.5870 G + 0.1140 B, "
                   "truncated to uint8)\nand writes OUT. Alpha is dropped; every backend and block shape "
                   "gives the same bytes.\n\n") +
           exit_code_help();
}

void describe(QCommandLineParser& parser, const GrayscaleOptions& options) {
    parser.setApplicationDescription(description());
    parser.addOptions({options.backend, options.layout, options.block});
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

    const LaunchConfigParse block = parse_launch_config(parser.value(options.block));
    const QString block_error = block.ok() ? validate_launch_config(block.shape) : block.error;
    if (!block_error.isEmpty())
        return fail(ExitCode::InputRejected, "invalid --block '" + parser.value(options.block) + "': " + block_error);

    const std::optional<GrayOutputKind> out_kind = gray_output_kind(out_path);
    if (!out_kind)
        return fail(ExitCode::InputRejected,
                    "cannot write '" + QDir::toNativeSeparators(out_path) + "': OUT must end in .png or .npy");

    const LoadedImage image = load_image(in_path);
    if (!image.ok()) return fail(ExitCode::InputRejected, image.error);

    GrayscaleRequest request;
    request.input = to_rgb_buffer(image.rgb);
    request.layout = *layout;
    request.shape = block.shape;
    request.backend = *backend;
    const GrayscaleResult result = run_grayscale(request);
    if (!result.status)
        return fail(exit_code_for(result.status.kind()), QString::fromStdString(result.status.message()));

    const QString write_error = write_gray_output(out_path, *out_kind, result.gray, result.width, result.height);
    if (!write_error.isEmpty()) return fail(ExitCode::InputRejected, write_error);

    out << result.summary() << "\n";
    return exit_status(ExitCode::Success);
}

}  // namespace cvz::cli
