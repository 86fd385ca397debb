#pragma once
#include <QImage>
#include <QSize>

namespace cvz {

struct OverlayState;
class ViewTransform;

// The launch overlay drawn on the CPU for the raster fallback: per device pixel, the same picture
// the OpenGL view's fragment shader (resources/shaders/image.frag) draws, step for step, with the
// cells looked up through LaunchPlan::thread_of_pixel (app/overlay_geometry.h). Slower than the
// shader (a few tens of milliseconds for a window-sized view) but independent of the image size:
// only the pixels on screen are computed.
//
// Returns the whole view (`widget_size` logical pixels at `dpr`), background included. `image` is
// what the view shows; `source` what waiting blocks show instead (may be null).
QImage render_overlay_frame(const OverlayState& state, const ViewTransform& transform, QSize widget_size, qreal dpr,
                            const QImage& image, const QImage& source);

}  // namespace cvz
