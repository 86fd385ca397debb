#include "view_navigator.h"

#include <QMouseEvent>
#include <QWheelEvent>
#include <QWidget>

#include <cmath>

#include "view_transform.h"

namespace cvz {

ViewNavigator::ViewNavigator(QWidget* view, ViewTransform* transform)
    : QObject(view), view_(view), transform_(transform) {
    view_->installEventFilter(this);
    view_->setCursor(Qt::OpenHandCursor);
}

double ViewNavigator::wheelFactor(int angle_delta_y) {
    return std::pow(2.0, angle_delta_y / 480.0);  // four notches double the zoom
}

bool ViewNavigator::eventFilter(QObject* watched, QEvent* event) {
    if (watched != view_) return false;
    switch (event->type()) {
    case QEvent::Wheel: {
        auto* wheel = static_cast<QWheelEvent*>(event);
        if (wheel->angleDelta().y() == 0) return false;
        transform_->zoomAbout(wheel->position(), view_->size(), wheelFactor(wheel->angleDelta().y()));
        return true;
    }
    case QEvent::MouseButtonPress: {
        auto* mouse = static_cast<QMouseEvent*>(event);
        if (mouse->button() != Qt::LeftButton && mouse->button() != Qt::MiddleButton) return false;
        dragging_ = true;
        last_pos_ = mouse->position();
        view_->setCursor(Qt::ClosedHandCursor);
        return true;
    }
    case QEvent::MouseMove: {
        if (!dragging_) return false;
        auto* mouse = static_cast<QMouseEvent*>(event);
        transform_->panBy(mouse->position() - last_pos_);
        last_pos_ = mouse->position();
        return true;
    }
    case QEvent::MouseButtonRelease:
        if (!dragging_) return false;
        dragging_ = false;
        view_->setCursor(Qt::OpenHandCursor);
        return true;
    default:
        return false;
    }
}

}  // namespace cvz
