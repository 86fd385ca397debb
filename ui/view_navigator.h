#pragma once
#include <QObject>
#include <QPointF>

class QWidget;

namespace cvz {

class ViewTransform;

// Mouse-wheel zoom about the cursor and drag-to-pan for one view widget, applied to the shared
// transform. An event filter, so the OpenGL and the raster view behave identically.
class ViewNavigator : public QObject {
    Q_OBJECT
public:
    // Installs itself on `view` and is owned by it.
    ViewNavigator(QWidget* view, ViewTransform* transform);

    // One wheel notch (120 eighths of a degree) zooms by this factor.
    static double wheelFactor(int angle_delta_y);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    QWidget* view_;
    ViewTransform* transform_;
    bool dragging_ = false;
    QPointF last_pos_;
};

}  // namespace cvz
