#include "ui/windows/fit_to_screen.h"

#include <QGuiApplication>
#include <QScreen>
#include <QWidget>

#include <algorithm>

namespace cvz {

void fit_to_screen(QWidget* window, QSize frame) {
    const QScreen* here = window->screen() ? window->screen() : QGuiApplication::primaryScreen();
    if (!here) return;
    const QRect room = here->availableGeometry();
    const QSize fit = window->size().boundedTo(room.size() - frame);
    if (fit != window->size()) window->resize(fit);
    const QSize outer = fit + frame;
    const QPoint at(std::clamp(window->x(), room.left(), std::max(room.left(), room.right() + 1 - outer.width())),
                    std::clamp(window->y(), room.top(), std::max(room.top(), room.bottom() + 1 - outer.height())));
    if (at != window->pos()) window->move(at);
}

}  // namespace cvz
