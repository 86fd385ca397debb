#pragma once
#include <QSize>

class QWidget;

namespace cvz {

// Cuts a top-level window to its screen's free area and moves it onto it: a size remembered on a
// larger screen, or a default at QT_SCALE_FACTOR=1.5 on a laptop, never leaves part of it off screen.
// `frame` is the size the window manager adds (title bar, borders); before the first show, when
// there is no frame yet, pass a typical one.
void fit_to_screen(QWidget* window, QSize frame);

}  // namespace cvz
