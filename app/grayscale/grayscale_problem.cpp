#include "app/grayscale/grayscale_problem.h"

#include "app/grayscale/grayscale_resources.h"

#include <algorithm>

#include "app/family/problem_size.h"
#include "app/grayscale/grayscale_prediction.h"
#include "app/io/image_loader.h"
#include "app/models/kernel_resources.h"
#include "app/grayscale/pixel_layout_option.h"
#include "app/user/user_problem.h"
#include "kernels/cuda/reference_timing.h"
#include "kernels/grayscale/grayscale_launch.h"
#include "kernels/grayscale/grayscale_planar.h"
#include "kernels/grayscale/grayscale_timing.h"
#include "kernels/grayscale/grayscale_trace.h"
#include "kernels/grayscale/grayscale_user_call.h"

namespace cvz {

namespace {

// The copy the ladder compares the variants with: large enough that the L2 cache plays no part.
constexpr std::size_t kCopyBytes = std::size_t(256) << 20;

QString layout_text(PixelLayout layout) {
    return layout == PixelLayout::Planar ? QStringLiteral("planar") : QStringLiteral("interleaved");
}

// The sized inputs' common part: "WxH" and the "layout" option (planar, the lecture's, when absent).
bool sized_image(const QString& size, const QVariantMap& options, std::uint32_t* w, std::uint32_t* h,
                 PixelLayout* layout, QString* error) {
    const std::vector<std::uint32_t> wh = parse_problem_size(size, 2, 1u << 14, error);
    if (wh.empty()) return false;
    *w = wh[0];
    *h = wh[1];
    const QString name = options.value(QStringLiteral("layout"), QStringLiteral("planar")).toString();
    const std::optional<PixelLayout> parsed = cli::parse_pixel_layout(name);
    if (!parsed) {
        if (error) *error = QStringLiteral("layout '%1' is neither planar nor interleaved").arg(name);
        return false;
    }
    *layout = *parsed;
    return true;
}

// Pixels nobody chose: a fixed pseudo-random picture (a 32-bit LCG), the same on every run.
std::vector<std::uint8_t> generated_rgb(std::uint32_t w, std::uint32_t h) {
    std::vector<std::uint8_t> rgb(3 * std::size_t(w) * h);
    std::uint32_t state = 0x9e3779b9u ^ (w * 73856093u) ^ (h * 19349663u);
    for (std::uint8_t& v : rgb) {
        state = state * 1664525u + 1013904223u;
        v = std::uint8_t(state >> 24);
    }
    return rgb;
}

std::unique_ptr<user::FamilyCall> sized_user_call(const QString& size, const QVariantMap& options, QString* error) {
    std::uint32_t w = 0, h = 0;
    PixelLayout layout = PixelLayout::Planar;
    if (!sized_image(size, options, &w, &h, &layout, error)) return nullptr;
    return grayscale_user_call(generated_rgb(w, h), w, h, layout);
}

FamilyProblemPtr sized_problem(const QString& size, const QVariantMap& options, QString* error) {
    std::uint32_t w = 0, h = 0;
    PixelLayout layout = PixelLayout::Planar;
    if (!sized_image(size, options, &w, &h, &layout, error)) return nullptr;
    RgbBuffer image;
    image.width = w;
    image.height = h;
    image.bytes = generated_rgb(w, h);
    return make_grayscale_problem(std::move(image), layout);
}

std::optional<LaunchPlan> sized_launch_plan(const QString& size, const LaunchChoice& choice, QString* error) {
    const std::vector<std::uint32_t> wh = parse_problem_size(size, 2, 1u << 16, error);
    if (wh.empty()) return std::nullopt;
    const LaunchShape shape = grayscale_shape(choice);
    if (const std::string e = validate_grayscale_launch(shape, wh[0], wh[1]); !e.empty()) {
        if (error) *error = QString::fromStdString(e);
        return std::nullopt;
    }
    return plan_grayscale_launch(shape, wh[0], wh[1]);
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

std::unique_ptr<user::FamilyCall> GrayscaleProblem::userCall(bool corner) const {
    // A trace's corner is cut as the built-ins' is (traceSample); addresses do not depend on the pixels.
    std::uint32_t w = image_.width, h = image_.height;
    if (corner) {
        w = std::uint32_t(std::min<std::uint64_t>(image_.width, kLadderTracePixels));
        h = w == 0 ? 0 : std::uint32_t(std::clamp<std::uint64_t>(kLadderTracePixels / w, 1, image_.height));
    }
    std::vector<std::uint8_t> rgb(3 * std::size_t(w) * h, 0);
    if (pixels_ && image_.bytes.size() >= rgb.size()) std::copy_n(image_.bytes.begin(), rgb.size(), rgb.begin());
    return grayscale_user_call(std::move(rgb), w, h, layout_);
}

UserWorkHints GrayscaleProblem::userHints() const {
    const double pixels = double(image_.width) * double(image_.height);
    UserWorkHints h;
    h.lane_instructions = 7 * pixels;  // the lecture's body, as grayscale_prediction counts it
    h.fmas = 3 * pixels;
    h.buffer_bytes = 4 * pixels;
    h.size_key = QStringLiteral("%1x%2/%3").arg(image_.width).arg(image_.height).arg(int(layout_));
    return h;
}

QString GrayscaleProblem::validate(const LaunchChoice& choice) const {
    if (is_user_ref(choice.ref)) return validate_user_choice(choice, *userCall(true));
    return QString::fromStdString(validate_grayscale_layout(grayscale_shape(choice), layout_));
}

GpuPrediction GrayscaleProblem::predict(const DeviceProfile& profile, const LaunchChoice& choice) const {
    if (is_user_ref(choice.ref))
        return predict_user_choice(profile, choice, [this](bool corner) { return userCall(corner); }, userHints());
    return predict_grayscale(profile, grayscale_shape(choice), image_.width, image_.height, layout_);
}

TimingSweep GrayscaleProblem::time(const std::vector<LaunchChoice>& launches, const TimingOptions& options) const {
    if (!pixels_) {
        TimingSweep none;
        none.status = Status::error(ErrorKind::InvalidInput, "the image has a size but no pixels to time");
        return none;
    }
    for (const LaunchChoice& c : launches)
        if (is_user_ref(c.ref))
            return time_with_user_choices(launches, options, [&](const std::vector<LaunchChoice>& builtins) {
                return time(builtins, options);
            }, [this](bool corner) { return userCall(corner); });
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
    // Addresses do not depend on the pixels: the trace runs on black (null) input of the same size.
    const std::uint32_t w = std::min<std::uint64_t>(image_.width, kLadderTracePixels);
    const std::uint32_t h = std::uint32_t(std::clamp<std::uint64_t>(kLadderTracePixels / w, 1, image_.height));
    if (is_user_ref(choice.ref)) {
        ProblemTrace t = trace_user_choice(choice, [this](bool corner) { return userCall(corner); }, cancel);
        t.fmas = 3 * std::uint64_t(w) * h;  // the corner userCall(true) cuts, as here
        return t;
    }
    TraceOptions options;
    options.cancel = cancel;
    ProblemTrace t;
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
    f.block_resources = [](const LaunchChoice& c) {
        return is_user_ref(c.ref) ? user_block_resources(c) : grayscale_block_resources(grayscale_shape(c));
    };
    f.cli_usage = QStringLiteral("sweep grayscale IMAGE --json FILE [--kernel NAME] [--layout ..] [--device ..] [--backend ..]");
    f.cli_options = [] { return std::vector<QCommandLineOption>{layout_option()}; };
    f.cli_inputs = 1;
    f.cli_problem = cli_problem;
    f.sized_user_call = sized_user_call;
    f.sized_problem = sized_problem;
    f.sized_launch_plan = sized_launch_plan;
    f.user_forms = grayscale_user_forms;
    return f;
}

}  // namespace cvz
