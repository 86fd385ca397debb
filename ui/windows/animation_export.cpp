#include "ui/windows/animation_export.h"

#include <QDir>
#include <QFileInfo>
#include <QFont>
#include <QFontMetrics>
#include <QImageWriter>
#include <QPainter>
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

QRect animation_export_crop(const AnimationExportRequest& request) {
    ViewTransform transform;
    transform.setImageSize(request.image.size());
    transform.setZoom(request.zoom);
    transform.setCenter(request.center);
    const QSize extent = request.overlay.decorates() ? request.overlay.extent() : request.image.size();
    const QRectF content(transform.imageToWidget(QPointF(0, 0), QSizeF(request.size)),
                         transform.imageToWidget(QPointF(extent.width(), extent.height()), QSizeF(request.size)));
    const QRect crop = content.normalized().toAlignedRect().intersected(QRect(QPoint(0, 0), request.size));
    return crop.isEmpty() ? QRect(QPoint(0, 0), request.size) : crop;
}

QString animation_frame_caption(const AnimationExportRequest& request, std::uint64_t index) {
    const AnimationFrame f = animation_frame(export_mode(request), index, request.waves, request.block,
                                             request.overlay.plan.warps_per_block);
    QString step;
    if (f.mode == AnimationMode::Warps) {
        const std::uint64_t warps = request.overlay.plan.warps_per_block;
        step = f.warp_done_end >= warps ? QStringLiteral("block %1: all %2 warps done").arg(f.block).arg(warps)
                                        : QStringLiteral("block %1: warp %2 of %3 runs").arg(f.block).arg(f.warp_done_end + 1).arg(warps);
    } else {
        step = f.wave >= request.waves.waves
                   ? QStringLiteral("all %1 waves done").arg(request.waves.waves)
                   : QStringLiteral("wave %1 of %2: blocks %3\u2013%4 run").arg(f.wave + 1).arg(request.waves.waves).arg(f.done_end).arg(f.run_end - 1);
    }
    return request.title.isEmpty() ? step : request.title + QStringLiteral(" \u00b7 ") + step;
}

namespace {

int caption_height(const QFont& font) { return QFontMetrics(font).height() * 3 / 2; }

QFont caption_font() {
    QFont font;
    font.setPixelSize(13);  // pixels, not points: the same caption on any screen's DPI
    return font;
}

}  // namespace

QImage export_animation_frame(const AnimationExportRequest& request, std::uint64_t index) {
    const QRect crop = animation_export_crop(request);
    const QFont font = caption_font();
    const int strip = caption_height(font);
    QImage out(crop.width(), crop.height() + strip, QImage::Format_RGB32);
    out.fill(QColor(250, 250, 250));
    QPainter p(&out);
    p.drawImage(QPoint(0, 0), render_animation_frame(request, index), crop);
    p.setFont(font);
    p.setPen(QColor(20, 20, 20));
    const QRect text(4, crop.height(), crop.width() - 8, strip);
    p.drawText(text, Qt::AlignVCenter | Qt::AlignLeft,
               QFontMetrics(font).elidedText(animation_frame_caption(request, index), Qt::ElideRight, text.width()));
    p.end();
    return out;
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
        const QSize size = animation_export_crop(request).size() + QSize(0, caption_height(caption_font()));
        if (const QString error = writer.open(request.path, size, delay_cs); !error.isEmpty()) {
            result.error = error;
            return result;
        }
    }
    for (std::uint64_t k = 0; k < frames; ++k) {
        if (control.cancelRequested()) {
            result.cancelled = true;
            return result;  // the GIF writer discards its file
        }
        const QImage frame = export_animation_frame(request, k);
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
