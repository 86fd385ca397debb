#pragma once
#include <QObject>
#include <QPointF>
#include <QRectF>
#include <QSize>
#include <QSizeF>
#include <QTransform>

namespace cvz {

// Where the image sits in a view: one zoom factor and the image point shown at the view's centre.
// Both views of the main window follow one instance, so they zoom and pan in step even when their
// sizes differ by a pixel (each centres the same image point). Image coordinates are pixels with
// (0,0) at the top-left corner of the top-left pixel; pixel (x, y) covers [x, x+1) x [y, y+1).
// Widget coordinates are logical (device-independent) pixels.
class ViewTransform : public QObject {
    Q_OBJECT
public:
    static constexpr double kMinZoom = 1.0 / 8192;  // a 2^20-pixel-wide image still fits a screen
    static constexpr double kMaxZoom = 256;         // one image pixel fills a small window
    static constexpr double kStep = 1.25;           // View > Zoom in / out

    explicit ViewTransform(QObject* parent = nullptr);

    double zoom() const { return zoom_; }
    QPointF center() const { return center_; }
    QSize imageSize() const { return image_size_; }
    // True after fitTo() until the user zooms or pans: the window refits when it is resized.
    bool fitting() const { return fitting_; }

    // Widget position of image point (0,0) in a view of `view` size. Rounded to whole widget pixels
    // so that at integer zooms every screen pixel samples the middle of an image pixel (no seams).
    QPointF origin(QSizeF view) const;
    QPointF imageToWidget(QPointF image, QSizeF view) const;
    QPointF widgetToImage(QPointF widget, QSizeF view) const;
    QRectF imageRectInWidget(QSizeF view) const;
    QTransform imageToWidgetTransform(QSizeF view) const;

    // The zoom at which `image` fits inside `view` (whole image visible, aspect kept).
    static double fitZoom(QSize image, QSizeF view);

    void setImageSize(QSize size);
    void setZoom(double zoom);       // about the view centre
    void setCenter(QPointF center);  // image point shown at the view centre
    void zoomBy(double factor);      // about the view centre
    // Zooms by `factor` keeping the image point under `widget` where it is (mouse-wheel zoom).
    void zoomAbout(QPointF widget, QSizeF view, double factor);
    void panBy(QPointF widget_delta);  // the image follows the mouse
    void fitTo(QSizeF view);
    // Fits `content` (image pixels from the image's top-left corner, e.g. the launch grid's extent
    // past the image) instead of the image.
    void fitTo(QSizeF view, QSizeF content);

signals:
    void changed();
    void zoomChanged(double zoom);

private:
    static double clampZoom(double zoom);
    void set(double zoom, QPointF center, bool fitting);

    double zoom_ = 1;
    QPointF center_;
    QSize image_size_;
    bool fitting_ = true;
};

}  // namespace cvz
