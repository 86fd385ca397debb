#include "ui/views/raster_image_view.h"

#include <QPaintEvent>
#include <QPainter>

#include "ui/views/raster_overlay.h"
#include "ui/views/view_navigator.h"
#include "ui/views/view_transform.h"

namespace cvz {

RasterImageView::RasterImageView(ViewTransform* transform, QWidget* parent) : QWidget(parent), transform_(transform) {
    setMinimumSize(64, 64);
    setAttribute(Qt::WA_OpaquePaintEvent);  // paintEvent fills every pixel
    new ViewNavigator(this, transform_);
    connect(transform_, &ViewTransform::changed, this, qOverload<>(&QWidget::update));
}

void RasterImageView::setImage(const QImage& image) {
    image_ = image;
    pixmap_ = image.isNull() ? QPixmap() : QPixmap::fromImage(image);
    update();
}

void RasterImageView::setSourceImage(const QImage& image) {
    source_ = image;
    update();
}

void RasterImageView::setOverlay(const OverlayState& state) {
    overlay_ = state;
    update();
}

QImage RasterImageView::grabImage() { return grab().toImage(); }

QString RasterImageView::displayPath() const { return QStringLiteral("raster fallback"); }

QPointF RasterImageView::widgetToImage(QPointF widget) const { return transform_->widgetToImage(widget, size()); }

QPointF RasterImageView::imageToWidget(QPointF image) const { return transform_->imageToWidget(image, size()); }

void RasterImageView::paintEvent(QPaintEvent* event) {
    QPainter painter(this);
    const bool decorate = overlay_.decorates() && !image_.isNull() &&
                          overlay_.plan.width == std::uint32_t(image_.width()) &&
                          overlay_.plan.height == std::uint32_t(image_.height());
    if (decorate) {
        painter.drawImage(0, 0,
                          render_overlay_frame(overlay_, *transform_, size(), devicePixelRatioF(), image_, source_));
        return;
    }
    painter.fillRect(event->rect(), QColor(0x30, 0x30, 0x30));  // as the GL view clears
    if (pixmap_.isNull()) return;
    // Smooth only when zoomed out; zoomed in, each image pixel stays a crisp square as in the GL view.
    painter.setRenderHint(QPainter::SmoothPixmapTransform, transform_->zoom() < 1);
    painter.setTransform(transform_->imageToWidgetTransform(size()));
    painter.drawPixmap(0, 0, pixmap_);
}

}  // namespace cvz
