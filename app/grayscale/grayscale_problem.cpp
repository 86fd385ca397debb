#include "app/grayscale/grayscale_problem.h"

#include "app/grayscale/grayscale_resources.h"

#include <algorithm>

#include "app/grayscale/grayscale_prediction.h"
#include "app/io/image_loader.h"
#include "app/models/kernel_resources.h"
#include "app/grayscale/pixel_layout_option.h"
#include "kernels/cuda/reference_timing.h"
#include "kernels/grayscale/grayscale_launch.h"
#include "kernels/grayscale/grayscale_planar.h"
#include "kernels/grayscale/grayscale_timing.h"
#include "kernels/grayscale/grayscale_trace.h"

namespace cvz {

namespace {

// The copy the ladder compares the variants with: large enough that the L2 cache plays no part.
constexpr std::size_t kCopyBytes = std::size_t(256) << 20;

QString layout_text(PixelLayout layout) {
    return layout == PixelLayout::Planar ? QStringLiteral("planar") : QStringLiteral("interleaved");
}

}  // namespace

double grayscale_gb_per_s(std::uint64_t pixels, double ms) {
    if (ms <= 0) return 0;
    return 4.0 * double(pixels) / (ms * 1e6);
}

GrayscaleProblem::GrayscaleProblem(std::uint32_t width, std::uint32_t height, PixelLayout layout)
    : layout_(layout), pixels_(false) {
    image_.width = width;
    image_.height = height;
}

QString GrayscaleProblem::text() const {
    if (image_.width == 0 || image_.height == 0) return QStringLiteral("no image");
    return QStringLiteral("%1 × %2 image, %3").arg(image_.width).arg(image_.height).arg(layout_text(layout_));
}

QString GrayscaleProblem::sizeText() const { return QStringLiteral("%1 × %2").arg(image_.width).arg(image_.height); }

QString GrayscaleProblem::inputError() const {
    if (image_.width == 0 || image_.height == 0) return QStringLiteral("there is no image to time the kernel on");
    if (!pixels_) return {};
    if (image_.bytes.size() != 3 * std::size_t(image_.width) * image_.height)
        return QStringLiteral("the RGB buffer does not hold width x height pixels");
    return {};
}

double GrayscaleProblem::throughput(double ms) const {
    return grayscale_gb_per_s(std::uint64_t(image_.width) * image_.height, ms);
}

QString GrayscaleProblem::validate(const LaunchChoice& choice) const {
    return QString::fromStdString(validate_grayscale_layout(grayscale_shape(choice), layout_));
}

GpuPrediction GrayscaleProblem::predict(const DeviceProfile& profile, const LaunchChoice& choice) const {
    return predict_grayscale(profile, grayscale_shape(choice), image_.width, image_.height, layout_);
}

TimingSweep GrayscaleProblem::time(const std::vector<LaunchChoice>& launches, const TimingOptions& options) const {
    if (!pixels_) {
        TimingSweep none;
        none.status = Status::error(ErrorKind::InvalidInput, "the image has a size but no pixels to time");
        return none;
    }
    std::vector<LaunchShape> shapes;
    shapes.reserve(launches.size());
    for (const LaunchChoice& c : launches) shapes.push_back(grayscale_shape(c));
    const std::uint64_t n = std::uint64_t(image_.width) * image_.height;
    std::vector<std::uint8_t> planar;
    const std::uint8_t* input = image_.bytes.data();
    if (layout_ == PixelLayout::Planar) {
        planar = interleaved_to_planar(input, n);
        input = planar.data();
    }
    const GrayscaleImage image{input, nullptr, image_.width, image_.height, layout_};
    return time_grayscale_shapes(image, shapes, options);
}

ProblemTrace GrayscaleProblem::traceSample(const LaunchChoice& choice, const CancelToken* cancel) const {
    TraceOptions options;
    options.cancel = cancel;
    ProblemTrace t;
    // Addresses do not depend on the pixels: the trace runs on black (null) input of the same size.
    const std::uint32_t w = std::min<std::uint64_t>(image_.width, kLadderTracePixels);
    const std::uint32_t h = std::uint32_t(std::clamp<std::uint64_t>(kLadderTracePixels / w, 1, image_.height));
    t.traced = trace_grayscale(nullptr, w, h, layout_, grayscale_shape(choice), options);
    t.fmas = 3 * std::uint64_t(w) * h;  // luma: one multiply and two fused multiply-adds a pixel
    t.traced_size = QStringLiteral("%1 × %2").arg(w).arg(h);
    return t;
}

ReferenceTiming GrayscaleProblem::timeReference(const TimingOptions& options) const {
    ReferenceTiming ref;
    ref.label = QStringLiteral("device-to-device copy, %1 MiB").arg(kCopyBytes >> 20);
    time_device_copy(kCopyBytes, options, &ref.timing);
    if (ref.timing.timed) ref.throughput = 2.0 * double(kCopyBytes) / (ref.timing.median_ms * 1e6);
    return ref;
}

FamilyProblemPtr make_grayscale_problem(RgbBuffer image, PixelLayout layout) {
    return std::make_shared<const GrayscaleProblem>(std::move(image), layout);
}

FamilyProblemPtr make_grayscale_problem(std::uint32_t width, std::uint32_t height, PixelLayout layout) {
    return std::make_shared<const GrayscaleProblem>(width, height, layout);
}

// ---- the registry entry ----

namespace {

const QCommandLineOption& layout_option() {
    static const QCommandLineOption option{"layout", "grayscale: how the kernel sees the RGB input, interleaved or planar.",
                                           "interleaved|planar", "interleaved"};
    return option;
}

CliProblem cli_problem(const QCommandLineParser& parser, const QStringList& inputs, bool) {
    CliProblem p;
    const std::optional<PixelLayout> layout = cli::parse_pixel_layout(parser.value(layout_option()));
    if (!layout) {
        p.bad_usage = true;
        p.error = "unknown --layout '" + parser.value(layout_option()) + "': use interleaved or planar";
        return p;
    }
    if (inputs.isEmpty()) {
        p.bad_usage = true;
        p.error = QStringLiteral("sweep grayscale needs an IMAGE");
        return p;
    }
    const LoadedImage image = load_image(inputs.front());
    if (!image.ok()) {
        p.error = image.error;
        return p;
    }
    RgbBuffer rgb = to_rgb_buffer(image.rgb);
    p.problem_text = QStringLiteral("%1x%2 image, %3").arg(rgb.width).arg(rgb.height).arg(parser.value(layout_option()));
    p.problem = make_grayscale_problem(std::move(rgb), *layout);
    return p;
}

}  // namespace

AppFamily grayscale_app_family() {
    AppFamily f;
    f.family = KernelFamily::Grayscale;
    f.name = QStringLiteral("grayscale");
    f.title = QStringLiteral("Grayscale");
    f.no_input = QStringLiteral("no image");
    f.reference_short = QStringLiteral("copy");
    f.reference_long = QStringLiteral("a device-to-device copy");
    f.ladder_unit = QStringLiteral("GB/s");
    f.block_resources = [](const LaunchChoice& c) { return grayscale_block_resources(grayscale_shape(c)); };
    f.cli_usage = QStringLiteral("sweep grayscale IMAGE --json FILE [--kernel NAME] [--layout ..] [--device ..] [--backend ..]");
    f.cli_options = [] { return std::vector<QCommandLineOption>{layout_option()}; };
    f.cli_inputs = 1;
    f.cli_problem = cli_problem;
    return f;
}

}  // namespace cvz
