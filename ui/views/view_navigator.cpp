#include "ui/views/view_navigator.h"

#include <QMouseEvent>
#include <QWheelEvent>
#include <QWidget>

#include <cmath>

#include "ui/views/view_transform.h"

namespace cvz {

ViewNavigator::ViewNavigator(QWidget* view, ViewTransform* transform)
    : QObject(view), view_(view), transform_(transform) {
    view_->installEventFilter(this);
    view_->setCursor(Qt::OpenHandCursor);
    view_->setMouseTracking(true);  // hover reports without a button held
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
        last_pos_ = press_pos_ = mouse->position();
        view_->setCursor(Qt::ClosedHandCursor);
        return true;
    }
    case QEvent::MouseMove: {
        auto* mouse = static_cast<QMouseEvent*>(event);
        if (!dragging_) {
            if (mouse->buttons() == Qt::NoButton) emit hovered(mouse->position());
            return false;
        }
        transform_->panBy(mouse->position() - last_pos_);
        last_pos_ = mouse->position();
        return true;
    }
    case QEvent::MouseButtonRelease: {
        if (!dragging_) return false;
        dragging_ = false;
        view_->setCursor(Qt::OpenHandCursor);
        auto* mouse = static_cast<QMouseEvent*>(event);
        if ((mouse->position() - press_pos_).manhattanLength() < kClickSlop) emit clicked(mouse->position());
        return true;
    }
    case QEvent::Leave:
        emit left();
        return false;
    default:
        return false;
    }
}

}  // namespace cvz
