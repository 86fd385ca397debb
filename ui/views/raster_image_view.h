#pragma once
#include <QPixmap>
#include <QWidget>

#include "ui/views/image_surface.h"
#include "ui/views/overlay_state.h"

namespace cvz {

// The image view where OpenGL is unavailable (no GL driver, remote X without GLX, CUDAVIZ_RASTER=1
// or --raster): QPainter draws the image through the same shared ViewTransform as the GL view, and
// the launch overlay is computed on the CPU for the pixels on screen (raster_overlay.h): the same
// picture as the shader, more slowly.
class RasterImageView : public QWidget, public ImageSurface {
    Q_OBJECT
public:
    explicit RasterImageView(ViewTransform* transform, QWidget* parent = nullptr);

    QWidget* widget() override { return this; }
    ViewTransform* transform() const override { return transform_; }
    void setImage(const QImage& image) override;
    QImage image() const override { return image_; }
    void setSourceImage(const QImage& image) override;
    void setOverlay(const OverlayState& state) override;
    const OverlayState& overlay() const override { return overlay_; }
    QImage grabImage() override;
    QString displayPath() const override;
    QPointF widgetToImage(QPointF widget) const override;
    QPointF imageToWidget(QPointF image) const override;

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    ViewTransform* transform_;
    QImage image_;
    QImage source_;
    QPixmap pixmap_;  // converted once: drawing a QImage converts it on every paint
    OverlayState overlay_;
};

}  // namespace cvz
