#include "ui/windows/animation_export.h"

#include <QDir>
#include <QFileInfo>
#include <QImageWriter>
#include <QSaveFile>

#include <algorithm>

#include "app/io/gif_writer.h"
#include "app/jobs/job_ticket.h"
#include "ui/views/raster_overlay.h"
#include "ui/views/view_transform.h"

namespace cvz {

namespace {

bool is_gif(const QString& path) { return QFileInfo(path).suffix().compare(QLatin1String("gif"), Qt::CaseInsensitive) == 0; }

QString write_png(const QString& path, const QImage& image) {
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return QStringLiteral("Cannot write '%1': %2").arg(QDir::toNativeSeparators(path), file.errorString());
    QImageWriter writer(&file, "png");
    if (!writer.write(image)) {
        const QString why = writer.errorString();
        file.cancelWriting();
        return QStringLiteral("Cannot write '%1': %2").arg(QDir::toNativeSeparators(path), why);
    }
    if (!file.commit()) return QStringLiteral("Cannot write '%1': %2").arg(QDir::toNativeSeparators(path), file.errorString());
    return {};
}

}  // namespace

AnimationMode export_mode(const AnimationExportRequest& request) {
    return request.mode == AnimationMode::Off ? AnimationMode::Waves : request.mode;
}

std::uint64_t animation_export_frames(const AnimationExportRequest& request) {
    return animation_steps(export_mode(request), request.waves, request.overlay.plan.warps_per_block) + 1;
}

QImage render_animation_frame(const AnimationExportRequest& request, std::uint64_t index) {
    OverlayState state = request.overlay;
    state.animation = animation_frame(export_mode(request), index, request.waves, request.block,
                                      request.overlay.plan.warps_per_block);
    ViewTransform transform;  // a private copy: the GUI's may move while the worker draws
    transform.setImageSize(request.image.size());
    transform.setZoom(request.zoom);
    transform.setCenter(request.center);
    QImage frame = render_overlay_frame(state, transform, request.size, 1.0, request.image, request.source);
    frame.setDevicePixelRatio(1.0);
    return frame;
}

QString animation_frame_path(const QString& path, std::uint64_t index, std::uint64_t frames) {
    const QFileInfo info(path);
    const int digits = std::max(4, int(QString::number(frames > 0 ? frames - 1 : 0).size()));
    return info.dir().filePath(QStringLiteral("%1-%2.png").arg(info.completeBaseName()).arg(index, digits, 10, QLatin1Char('0')));
}

AnimationExportResult export_animation(const AnimationExportRequest& request, const JobControl& control) {
    AnimationExportResult result;
    const std::uint64_t frames = animation_export_frames(request);
    if (request.image.isNull() || request.size.isEmpty()) {
        result.error = QStringLiteral("Cannot write '%1': there is no kernel output to animate yet")
                           .arg(QDir::toNativeSeparators(request.path));
        return result;
    }
    const bool gif = is_gif(request.path);
    GifWriter writer;
    if (gif) {
        const int delay_cs = int(std::lround(100.0 / std::max(0.01, request.steps_per_second)));
        if (const QString error = writer.open(request.path, request.size, delay_cs); !error.isEmpty()) {
            result.error = error;
            return result;
        }
    }
    for (std::uint64_t k = 0; k < frames; ++k) {
        if (control.cancelRequested()) {
            result.cancelled = true;
            return result;  // the GIF writer discards its file
        }
        const QImage frame = render_animation_frame(request, k);
        const QString error = gif ? writer.addFrame(frame) : write_png(animation_frame_path(request.path, k, frames), frame);
        if (!error.isEmpty()) {
            result.error = error;
            return result;
        }
        result.frames = int(k + 1);
        control.reportProgress(double(k + 1) / double(frames + (gif ? 1 : 0)));
    }
    if (gif) {
        if (const QString error = writer.finish(); !error.isEmpty()) {
            result.error = error;
            result.frames = 0;
            return result;
        }
        control.reportProgress(1.0);
    }
    return result;
}

}  // namespace cvz
