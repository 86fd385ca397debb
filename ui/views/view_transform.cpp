#include "ui/views/view_transform.h"

#include <algorithm>
#include <cmath>

namespace cvz {

ViewTransform::ViewTransform(QObject* parent) : QObject(parent) {}

QPointF ViewTransform::origin(QSizeF view) const {
    return {std::round(view.width() / 2 - center_.x() * zoom_), std::round(view.height() / 2 - center_.y() * zoom_)};
}

QPointF ViewTransform::imageToWidget(QPointF image, QSizeF view) const { return origin(view) + image * zoom_; }

QPointF ViewTransform::widgetToImage(QPointF widget, QSizeF view) const { return (widget - origin(view)) / zoom_; }

QRectF ViewTransform::imageRectInWidget(QSizeF view) const {
    return {origin(view), QSizeF(image_size_) * zoom_};
}

QTransform ViewTransform::imageToWidgetTransform(QSizeF view) const {
    const QPointF o = origin(view);
    return QTransform(zoom_, 0, 0, zoom_, o.x(), o.y());
}

double ViewTransform::fitZoom(QSize image, QSizeF view) {
    if (image.isEmpty() || view.isEmpty()) return 1;
    return std::min(view.width() / image.width(), view.height() / image.height());
}

double ViewTransform::clampZoom(double zoom) { return std::clamp(zoom, kMinZoom, kMaxZoom); }

void ViewTransform::set(double zoom, QPointF center, bool fitting) {
    fitting_ = fitting;
    const bool zoom_changed = !qFuzzyCompare(zoom, zoom_);
    if (!zoom_changed && center == center_) return;
    zoom_ = zoom;
    center_ = center;
    emit changed();
    if (zoom_changed) emit zoomChanged(zoom_);
}

void ViewTransform::setImageSize(QSize size) {
    if (size == image_size_) return;
    image_size_ = size;
    center_ = QPointF(size.width() / 2.0, size.height() / 2.0);
    emit changed();  // the image rectangle changed even where the centre did not
}

void ViewTransform::setZoom(double zoom) { set(clampZoom(zoom), center_, false); }

void ViewTransform::setCenter(QPointF center) { set(zoom_, center, false); }

void ViewTransform::zoomBy(double factor) { setZoom(zoom_ * factor); }

void ViewTransform::zoomAbout(QPointF widget, QSizeF view, double factor) {
    const double zoom = clampZoom(zoom_ * factor);
    // The unrounded mapping, so that repeated wheel steps do not drift by the rounding.
    const QPointF half(view.width() / 2, view.height() / 2);
    const QPointF under_mouse = center_ + (widget - half) / zoom_;
    set(zoom, under_mouse - (widget - half) / zoom, false);
}

void ViewTransform::panBy(QPointF widget_delta) { set(zoom_, center_ - widget_delta / zoom_, false); }

void ViewTransform::fitTo(QSizeF view) { fitTo(view, QSizeF(image_size_)); }

void ViewTransform::fitTo(QSizeF view, QSizeF content) {
    const QSize whole(int(std::ceil(content.width())), int(std::ceil(content.height())));
    const double zoom = std::max(fitZoom(whole, view), kMinZoom);
    set(zoom, QPointF(content.width() / 2.0, content.height() / 2.0), true);
}

}  // namespace cvz
