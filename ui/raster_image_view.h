#pragma once
#include <QPixmap>
#include <QWidget>

#include "image_surface.h"

namespace cvz {

// The image view where OpenGL is unavailable (no GL driver, remote X without GLX, CUDAVIZ_RASTER=1
// or --raster): QPainter draws the image through the same shared ViewTransform as the GL view.
class RasterImageView : public QWidget, public ImageSurface {
    Q_OBJECT
public:
    explicit RasterImageView(ViewTransform* transform, QWidget* parent = nullptr);

    QWidget* widget() override { return this; }
    ViewTransform* transform() const override { return transform_; }
    void setImage(const QImage& image) override;
    QImage image() const override { return image_; }
    QImage grabImage() override;
    QString displayPath() const override;
    QPointF widgetToImage(QPointF widget) const override;
    QPointF imageToWidget(QPointF image) const override;

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    ViewTransform* transform_;
    QImage image_;
    QPixmap pixmap_;  // converted once: drawing a QImage converts it on every paint
};

}  // namespace cvz
