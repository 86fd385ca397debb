#pragma once
#include <QObject>
#include <QPointF>

class QWidget;

namespace cvz {

class ViewTransform;

// Mouse-wheel zoom about the cursor and drag-to-pan for one view widget, applied to the shared
// transform; a press and release without a drag is a click, and moving without a button a hover,
// both reported in widget coordinates (the inspector's pixel). An event filter, so the OpenGL and
// the raster view behave identically.
class ViewNavigator : public QObject {
    Q_OBJECT
public:
    // Installs itself on `view` and is owned by it.
    ViewNavigator(QWidget* view, ViewTransform* transform);

    // One wheel notch (120 eighths of a degree) zooms by this factor.
    static double wheelFactor(int angle_delta_y);
    // A press and release closer than this (widget pixels, Manhattan) is a click, not a drag.
    static constexpr double kClickSlop = 4;

signals:
    void clicked(QPointF widget_pos);
    void hovered(QPointF widget_pos);
    void left();  // the mouse left the view

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    QWidget* view_;
    ViewTransform* transform_;
    bool dragging_ = false;
    QPointF last_pos_;
    QPointF press_pos_;
};

}  // namespace cvz
