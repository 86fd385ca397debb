// The overlay shader's frame time: an ImageView in a window (run it under Xvfb, or on a display)
// shows an image with the launch grid on (2-D 16x16, block colours, idle threads, the waves
// animation), and draws N frames, each with a new animation frame (a uniform change: the blocks
// done and running move on), waiting for the GPU after each (glFinish). Prints the median, and with
// --json FILE writes the figures as JSON. By default at 7680x4320 (8K) and 1920x1080, each also
// with the overlay off for comparison; the view is 1280x800 at fit-to-view zoom.
//
//   bench_overlay [--size WxH]... [--view WxH] [--frames N] [--zoom fit|Z] [--json FILE]
#include <QApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QWindow>

#include <algorithm>
#include <cstdio>
#include <vector>

#include "app/grayscale/grayscale_resources.h"
#include "app/models/device_profile.h"
#include "app/models/execution_animation.h"
#include "app/models/kernel_resources.h"
#include "app/models/launch_plan.h"
#include "app/models/occupancy_model.h"
#include "app/models/wave_model.h"
#include "ui/views/image_view.h"
#include "ui/views/overlay_state.h"
#include "ui/views/view_transform.h"

using namespace cvz;

namespace {

struct Result {
    QSize image;
    bool overlay = false;
    std::vector<double> ms;
    double quantile(double q) const {
        std::vector<double> s = ms;
        std::sort(s.begin(), s.end());
        return s[std::min(s.size() - 1, std::size_t(q * double(s.size())))];
    }
};

// A colourful image without decoding a file: red across, green down, blue a mix.
QImage make_image(QSize size) {
    QImage image(size, QImage::Format_RGB888);
    for (int y = 0; y < size.height(); ++y) {
        uchar* line = image.scanLine(y);
        for (int x = 0; x < size.width(); ++x) {
            line[3 * x] = uchar(x * 255 / std::max(1, size.width() - 1));
            line[3 * x + 1] = uchar(y * 255 / std::max(1, size.height() - 1));
            line[3 * x + 2] = uchar((x * 7 + y * 13) & 255);
        }
    }
    return image;
}

bool parse_size(const QString& text, QSize* out) {
    static const QRegularExpression re(QStringLiteral("^(\\d+)x(\\d+)$"));
    const auto m = re.match(text);
    if (!m.hasMatch()) return false;
    *out = QSize(m.captured(1).toInt(), m.captured(2).toInt());
    return !out->isEmpty();
}

Result run(ImageView& view, ViewTransform& transform, QSize size, bool overlay, int frames, double zoom) {
    Result r;
    r.image = size;
    r.overlay = overlay;
    view.setImage(make_image(size));
    transform.setImageSize(size);
    if (zoom > 0) transform.setZoom(zoom);
    else transform.fitTo(QSizeF(view.size()));

    const LaunchShape shape = LaunchShape::two_d(16, 16);
    const DeviceProfile device = builtin_device_profiles().first();
    OverlayState state;
    state.enabled = overlay;
    state.plan = plan_grayscale_launch(shape, std::uint32_t(size.width()), std::uint32_t(size.height()));
    const Occupancy occupancy = compute_occupancy(device, grayscale_block_resources(shape));
    const WavePlan waves = plan_waves(state.plan.blocks, device.sm_count, occupancy.blocks_per_sm);
    view.setOverlay(state);
    for (int i = 0; i < 3; ++i) view.drawFrameNow();  // warm-up: texture upload, shader compile

    for (int i = 0; i < frames; ++i) {
        // A new uniform each frame: the animation moves on by a wave.
        if (overlay) {
            state.animation = animation_frame(AnimationMode::Waves, std::uint64_t(i) % (waves.waves + 1), waves, -1,
                                              state.plan.warps_per_block);
            view.setOverlay(state);
        }
        QElapsedTimer timer;
        timer.start();
        view.drawFrameNow();
        r.ms.push_back(double(timer.nsecsElapsed()) / 1e6);
    }
    return r;
}

}  // namespace

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QList<QSize> sizes;
    QSize view_size(1280, 800);
    int frames = 60;
    double zoom = 0;  // fit
    QString json;
    const QStringList args = app.arguments();
    for (int i = 1; i < args.size(); ++i) {
        const QString& a = args[i];
        const bool more = i + 1 < args.size();
        QSize s;
        if (a == QLatin1String("--size") && more && parse_size(args[i + 1], &s)) sizes << s, ++i;
        else if (a == QLatin1String("--view") && more && parse_size(args[i + 1], &view_size)) ++i;
        else if (a == QLatin1String("--frames") && more) frames = std::max(1, args[++i].toInt());
        else if (a == QLatin1String("--zoom") && more) {
            const QString z = args[++i];
            zoom = z == QLatin1String("fit") ? 0 : z.toDouble();
        } else if (a == QLatin1String("--json") && more) json = args[++i];
        else {
            std::fprintf(stderr, "usage: bench_overlay [--size WxH]... [--view WxH] [--frames N] [--zoom fit|Z] [--json FILE]\n");
            return 2;
        }
    }
    if (sizes.isEmpty()) sizes << QSize(7680, 4320) << QSize(1920, 1080);

    ViewTransform transform;
    ImageView view(&transform);
    view.resize(view_size);
    view.show();
    QElapsedTimer waiting;
    waiting.start();
    while (!(view.windowHandle() && view.windowHandle()->isExposed()) && waiting.elapsed() < 5000)
        QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
    if (!view.windowHandle() || !view.windowHandle()->isExposed()) {
        std::fprintf(stderr, "bench_overlay: the window was not shown (no display? run under xvfb-run)\n");
        return 1;
    }
    view.drawFrameNow();
    if (!view.context() || !view.context()->isValid()) {
        std::fprintf(stderr, "bench_overlay: no OpenGL context\n");
        return 1;
    }
    const QString renderer = view.renderer();
    std::printf("renderer: %s, index math: %s, view %dx%d (device pixels %dx%d), %d frames each\n",
                qPrintable(renderer), view.integerIndexMath() ? "int (GLSL 1.30)" : "float (GLSL 1.10)",
                view_size.width(), view_size.height(), int(view_size.width() * view.devicePixelRatioF()),
                int(view_size.height() * view.devicePixelRatioF()), frames);
    std::printf("%-12s %-8s %10s %10s %10s\n", "image", "overlay", "median ms", "p90 ms", "min ms");

    QJsonArray rows;
    for (const QSize& size : sizes) {
        for (bool overlay : {true, false}) {
            const Result r = run(view, transform, size, overlay, frames, zoom);
            std::printf("%-12s %-8s %10.2f %10.2f %10.2f\n",
                        qPrintable(QStringLiteral("%1x%2").arg(size.width()).arg(size.height())),
                        overlay ? "on" : "off", r.quantile(0.5), r.quantile(0.9), r.quantile(0.0));
            rows.append(QJsonObject{{QStringLiteral("width"), size.width()},
                                    {QStringLiteral("height"), size.height()},
                                    {QStringLiteral("overlay"), overlay},
                                    {QStringLiteral("zoom"), transform.zoom()},
                                    {QStringLiteral("frames"), frames},
                                    {QStringLiteral("median_ms"), r.quantile(0.5)},
                                    {QStringLiteral("p90_ms"), r.quantile(0.9)},
                                    {QStringLiteral("min_ms"), r.quantile(0.0)}});
        }
    }
    if (!json.isEmpty()) {
        QFile out(json);
        if (!out.open(QIODevice::WriteOnly)) {
            std::fprintf(stderr, "bench_overlay: cannot write %s\n", qPrintable(json));
            return 1;
        }
        const QJsonObject doc{{QStringLiteral("benchmark"), QStringLiteral("overlay")},
                              {QStringLiteral("renderer"), renderer},
                              {QStringLiteral("integer_index_math"), view.integerIndexMath()},
                              {QStringLiteral("view_width"), view_size.width()},
                              {QStringLiteral("view_height"), view_size.height()},
                              {QStringLiteral("results"), rows}};
        out.write(QJsonDocument(doc).toJson());
    }
    return 0;
}
