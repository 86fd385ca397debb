#include "app/convolution/convolution_app_problem.h"

#include <QHash>

#include <algorithm>

#include "app/convolution/convolution_mask_file.h"
#include "app/convolution/convolution_prediction.h"
#include "app/io/image_loader.h"
#include "app/io/rgb_buffer.h"
#include "app/models/kernel_resources.h"
#include "kernels/convolution/convolution_problem.h"
#include "kernels/convolution/convolution_reference.h"
#include "kernels/convolution/convolution_timing.h"
#include "kernels/convolution/convolution_trace.h"
#include "kernels/convolution/convolution_user_call.h"
#include "kernels/cuda/reference_timing.h"

namespace cvz {

namespace {

// The copy the ladder compares the variants with: large enough that the L2 cache plays no part.
constexpr std::size_t kCopyBytes = std::size_t(256) << 20;

}  // namespace

LaunchChoice convolution_choice(const ConvolutionLaunch& launch) { return {launch.ref(), launch.block}; }

ConvolutionLaunch convolution_launch_of(const LaunchChoice& choice) {
    return ConvolutionLaunch::of(ConvolutionVariant(choice.ref.variant), launched_block(choice));
}

ConvolutionAppProblem::ConvolutionAppProblem(std::vector<std::uint8_t> gray, std::uint32_t width, std::uint32_t height,
                                             ConvolutionMask mask, QString mask_name)
    : gray_(std::move(gray)), width_(width), height_(height), mask_(std::move(mask)), mask_name_(std::move(mask_name)) {}

KernelFamily ConvolutionAppProblem::family() const { return ConvolutionLaunch{}.ref().family; }

QString ConvolutionAppProblem::text() const {
    if (width_ == 0 || height_ == 0) return QStringLiteral("no image");
    // Short: the sweep and the ladder show it after the family and the file, in a box of ~70 characters.
    return QStringLiteral("%1 × %2, mask %3 %4×%4").arg(width_).arg(height_).arg(mask_name_).arg(mask_.side);
}

QString ConvolutionAppProblem::sizeText() const { return QStringLiteral("%1 × %2").arg(width_).arg(height_); }

QString ConvolutionAppProblem::inputError() const {
    if (width_ == 0 || height_ == 0) return QStringLiteral("there is no image to time the kernel on");
    if (std::string e = validate_mask(mask_); !e.empty()) return QString::fromStdString(e);
    if (!gray_.empty() && gray_.size() != std::size_t(width_) * height_)
        return QStringLiteral("the grayscale buffer does not hold width x height pixels");
    return {};
}

double ConvolutionAppProblem::throughput(double ms) const {
    if (ms <= 0) return 0;
    return 5.0 * double(width_) * double(height_) / (ms * 1e6);
}

std::unique_ptr<user::FamilyCall> ConvolutionAppProblem::userCall(bool corner) const {
    // A trace's corner is cut as the built-ins' is (traceSample); addresses do not depend on the pixels.
    std::uint32_t w = width_, h = height_;
    if (corner) {
        w = std::uint32_t(std::min<std::uint64_t>(width_, kLadderTracePixels));
        h = std::uint32_t(std::clamp<std::uint64_t>(kLadderTracePixels / std::max(1u, w), 1, std::max(1u, height_)));
    }
    std::vector<std::uint8_t> gray(std::size_t(w) * h, 0);
    if (gray_.size() >= gray.size()) std::copy_n(gray_.begin(), gray.size(), gray.begin());
    return convolution_user_call(std::move(gray), w, h, mask_);
}

UserWorkHints ConvolutionAppProblem::userHints() const {
    const double pixels = double(width_) * double(height_);
    const double taps = double(mask_.side) * mask_.side;
    UserWorkHints h;
    h.lane_instructions = 2 * taps * pixels;  // an FMA and the ghost-cell test per tap, at the least
    h.fmas = taps * pixels;
    h.buffer_bytes = 8 * pixels + 4 * taps;   // in and out as float, and the mask
    h.size_key = QStringLiteral("%1x%2/%3/%4").arg(width_).arg(height_).arg(mask_.side).arg(qHash(mask_name_));
    return h;
}

QString ConvolutionAppProblem::validate(const LaunchChoice& choice) const {
    if (is_user_ref(choice.ref)) return validate_user_choice(choice, *userCall(true));
    return QString::fromStdString(validate_convolution_launch(convolution_launch_of(choice), width_, height_, mask_.side));
}

GpuPrediction ConvolutionAppProblem::predict(const DeviceProfile& profile, const LaunchChoice& choice) const {
    if (is_user_ref(choice.ref))
        return predict_user_choice(profile, choice, [this](bool corner) { return userCall(corner); }, userHints());
    return predict_convolution(profile, convolution_launch_of(choice), width_, height_, mask_);
}

TimingSweep ConvolutionAppProblem::time(const std::vector<LaunchChoice>& launches, const TimingOptions& options) const {
    if (gray_.empty()) {
        TimingSweep none;
        none.status = Status::error(ErrorKind::InvalidInput, "the image has a size but no pixels to time");
        return none;
    }
    for (const LaunchChoice& c : launches)
        if (is_user_ref(c.ref))
            return time_with_user_choices(launches, options, [&](const std::vector<LaunchChoice>& builtins) {
                return time(builtins, options);
            }, [this](bool corner) { return userCall(corner); });
    std::vector<ConvolutionLaunch> list;
    list.reserve(launches.size());
    for (const LaunchChoice& c : launches) list.push_back(convolution_launch_of(c));
    ConvolutionProblem p;
    p.gray = gray_.data();
    p.mask = mask_.values.data();
    p.width = width_;
    p.height = height_;
    p.mask_side = mask_.side;
    return time_convolution_launches(p, list, options);
}

ProblemTrace ConvolutionAppProblem::traceSample(const LaunchChoice& choice, const CancelToken* cancel) const {
    TraceOptions options;
    options.cancel = cancel;
    ProblemTrace t;
    // Addresses do not depend on the pixels: the trace runs on black (null) input, over the image's
    // first rows when it is large.
    const std::uint32_t w = std::uint32_t(std::min<std::uint64_t>(width_, kLadderTracePixels));
    const std::uint32_t h = std::uint32_t(std::clamp<std::uint64_t>(kLadderTracePixels / std::max(1u, w), 1, height_));
    if (is_user_ref(choice.ref)) {
        t = trace_user_choice(choice, [this](bool corner) { return userCall(corner); }, cancel);
        t.fmas = std::uint64_t(w) * h * mask_.side * mask_.side;
        return t;
    }
    t.traced = trace_convolution(nullptr, mask_.values.data(), mask_.side, w, h, convolution_launch_of(choice), options);
    t.fmas = std::uint64_t(w) * h * mask_.side * mask_.side;
    t.traced_size = QStringLiteral("%1 × %2").arg(w).arg(h);
    return t;
}

ReferenceTiming ConvolutionAppProblem::timeReference(const TimingOptions& options) const {
    ReferenceTiming ref;
    ref.label = QStringLiteral("device-to-device copy, %1 MiB").arg(kCopyBytes >> 20);
    time_device_copy(kCopyBytes, options, &ref.timing);
    if (ref.timing.timed) ref.throughput = 2.0 * double(kCopyBytes) / (ref.timing.median_ms * 1e6);
    return ref;
}

FamilyProblemPtr make_convolution_problem(std::vector<std::uint8_t> gray, std::uint32_t width, std::uint32_t height,
                                          ConvolutionMask mask, QString mask_name) {
    return std::make_shared<const ConvolutionAppProblem>(std::move(gray), width, height, std::move(mask),
                                                         std::move(mask_name));
}

// ---- the registry entry ----

namespace {

const QCommandLineOption& mask_option() {
    static const QCommandLineOption option{"mask", "convolution: a named mask (" + QString::fromStdString(named_mask_list()) +
                                                       ") or a .npy file.",
                                           "NAME|FILE.npy", "gauss5"};
    return option;
}

CliProblem cli_problem(const QCommandLineParser& parser, const QStringList& inputs, bool) {
    CliProblem p;
    const LoadedMask mask = resolve_mask(parser.value(mask_option()));
    if (!mask.ok()) {
        p.error = mask.error;
        return p;
    }
    if (inputs.isEmpty()) {
        p.bad_usage = true;
        p.error = QStringLiteral("sweep convolution needs an IMAGE");
        return p;
    }
    const LoadedImage image = load_image(inputs.front());
    if (!image.ok()) {
        p.error = image.error;
        return p;
    }
    const RgbBuffer rgb = to_rgb_buffer(image.rgb);
    std::vector<std::uint8_t> gray = convolution_input(rgb.bytes.data(), rgb.width, rgb.height, PixelLayout::Interleaved);
    p.problem_text = QStringLiteral("%1x%2 image, mask %3").arg(rgb.width).arg(rgb.height).arg(mask.name);
    p.problem = make_convolution_problem(std::move(gray), rgb.width, rgb.height, mask.mask, mask.name);
    return p;
}

}  // namespace

AppFamily convolution_app_family() {
    AppFamily f;
    f.family = ConvolutionLaunch{}.ref().family;
    f.name = QStringLiteral("convolution");
    f.title = QStringLiteral("Convolution");
    f.no_input = QStringLiteral("no image");
    f.reference_short = QStringLiteral("copy");
    f.reference_long = QStringLiteral("a device-to-device copy");
    f.ladder_unit = QStringLiteral("GB/s");
    // The mask's side sets a tiled variant's shared memory; the registry's hook sees only the choice,
    // so it counts the largest mask's tile (the occupancy the sweep shows is then a lower bound).
    f.block_resources = [](const LaunchChoice& c) {
        if (is_user_ref(c.ref)) return user_block_resources(c);
        const ConvolutionLaunch launch = convolution_launch_of(c);
        return block_resources(launch.ref(), launch.block, convolution_shared_bytes(launch, kMaxMaskSide));
    };
    f.cli_usage = QStringLiteral("sweep convolution IMAGE --json FILE [--mask NAME|FILE.npy] [--kernel NAME] [--device ..] [--backend ..]");
    f.cli_options = [] { return std::vector<QCommandLineOption>{mask_option()}; };
    f.cli_inputs = 1;
    f.cli_problem = cli_problem;
    f.user_forms = convolution_user_forms;
    return f;
}

}  // namespace cvz
