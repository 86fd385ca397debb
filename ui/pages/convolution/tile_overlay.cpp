#include "ui/pages/convolution/tile_overlay.h"

#include <QEvent>
#include <QPainter>
#include <QPainterPath>

#include "ui/views/image_surface.h"
#include "ui/views/overlay_state.h"
#include "ui/views/view_transform.h"

namespace cvz {

namespace {

const QColor kOutput = overlay_style::kSelection;  // the block's own tile: the inspector's colour
const QColor kHalo{0x3d, 0xb7, 0xff};               // the halo it reads around that tile
const QColor kGhost{0xe6, 0x38, 0x33};              // reads outside the image (the guard's red)

}  // namespace

TileOverlay::TileOverlay(ImageSurface* view) : QWidget(view->widget()), view_(view) {
    setAttribute(Qt::WA_TransparentForMouseEvents);
    setAttribute(Qt::WA_NoSystemBackground);
    setObjectName(QStringLiteral("tileOverlay"));
    view->widget()->installEventFilter(this);
    setGeometry(view->widget()->rect());
    connect(view->transform(), &ViewTransform::changed, this, qOverload<>(&QWidget::update));
    raise();
}

void TileOverlay::setState(const State& state) {
    state_ = state;
    update();
}

bool TileOverlay::eventFilter(QObject* watched, QEvent* event) {
    if (watched == parentWidget() && event->type() == QEvent::Resize) setGeometry(parentWidget()->rect());
    return QWidget::eventFilter(watched, event);
}

QRectF TileOverlay::toWidget(const QRect& r) const {
    const QPointF a = view_->imageToWidget(QPointF(r.left(), r.top()));
    const QPointF b = view_->imageToWidget(QPointF(r.left() + r.width(), r.top() + r.height()));
    return QRectF(a, b).normalized();
}

void TileOverlay::paintEvent(QPaintEvent*) {
    if (state_.image.isEmpty()) return;
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing, false);
    const QRect inside(QPoint(0, 0), state_.image);
    if (!state_.input_tile.isEmpty()) {
        // The halo: the input tile less the output tile, tinted; what of it lies outside the image is
        // read as 0 (hatched in the guard's red).
        QPainterPath halo;
        halo.addRect(toWidget(state_.input_tile));
        QPainterPath own;
        own.addRect(toWidget(state_.output_tile));
        QColor fill = kHalo;
        fill.setAlphaF(0.18);
        p.fillPath(halo.subtracted(own), fill);
        const QRect outside_part = state_.input_tile;
        if (!inside.contains(outside_part)) {
            QPainterPath ghosts;
            ghosts.addRect(toWidget(outside_part));
            QPainterPath in_image;
            in_image.addRect(toWidget(outside_part.intersected(inside)));
            p.fillPath(ghosts.subtracted(in_image), QBrush(kGhost, Qt::BDiagPattern));
        }
        p.setPen(QPen(kHalo, 1.5, state_.halo_in_shared ? Qt::SolidLine : Qt::DashLine));
        p.drawRect(toWidget(state_.input_tile));
    }
    if (!state_.output_tile.isEmpty()) {
        p.setPen(QPen(kOutput, 2));
        p.drawRect(toWidget(state_.output_tile));
    }
    if (!state_.window.isEmpty()) {
        const QRectF w = toWidget(state_.window);
        const QRect ghost_window = state_.window;
        if (!inside.contains(ghost_window)) {
            QPainterPath all;
            all.addRect(w);
            QPainterPath in_image;
            in_image.addRect(toWidget(ghost_window.intersected(inside)));
            QColor ghost = kGhost;
            ghost.setAlphaF(0.45);
            p.fillPath(all.subtracted(in_image), QBrush(ghost, Qt::DiagCrossPattern));
        }
        p.setPen(QPen(Qt::white, 1.5));
        p.drawRect(w);
    }
}

}  // namespace cvz
