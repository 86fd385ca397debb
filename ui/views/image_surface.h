#pragma once
#include <QImage>
#include <QPointF>
#include <QString>

class QWidget;

namespace cvz {

struct OverlayState;
class ViewTransform;

// What the main window needs from an image view, whichever way it draws: the OpenGL ImageView or
// the RasterImageView used where there is no OpenGL. Both follow a shared ViewTransform and draw
// the same launch overlay (OverlayState).
class ImageSurface {
public:
    virtual ~ImageSurface() = default;

    virtual QWidget* widget() = 0;
    virtual ViewTransform* transform() const = 0;

    // RGB888 for colour, Grayscale8 for single-channel results; a null image clears the view.
    virtual void setImage(const QImage& image) = 0;
    virtual QImage image() const = 0;

    // What the pixels of blocks the animation has not finished yet show instead of the image: on
    // the result view, the kernel's input. Null: the image itself.
    virtual void setSourceImage(const QImage& image) = 0;

    // The launch grid over the image: colours, idle threads, animation frame, selection. Drawn only
    // while the state's plan matches the image's size.
    virtual void setOverlay(const OverlayState& state) = 0;
    virtual const OverlayState& overlay() const = 0;

    // What is on screen now, in device pixels.
    virtual QImage grabImage() = 0;

    // "OpenGL" or "raster fallback", as the status bar names it.
    virtual QString displayPath() const = 0;

    // Widget (logical pixels) <-> image pixel coordinates through the shared transform; image pixel
    // (x, y) covers [x, x+1) x [y, y+1). Overlays and the inspector map the mouse with these.
    virtual QPointF widgetToImage(QPointF widget) const = 0;
    virtual QPointF imageToWidget(QPointF image) const = 0;
};

}  // namespace cvz
