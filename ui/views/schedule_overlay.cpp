#include "ui/views/schedule_overlay.h"

#include <QEvent>
#include <QPainter>

#include <algorithm>
#include <limits>

#include "app/models/unit_extent.h"
#include "ui/views/block_colors.h"
#include "ui/views/image_surface.h"
#include "ui/views/overlay_state.h"
#include "ui/views/view_transform.h"

namespace cvz {

ScheduleOverlay::ScheduleOverlay(ImageSurface* view) : QWidget(view->widget()), view_(view) {
    setAttribute(Qt::WA_TransparentForMouseEvents);
    setAttribute(Qt::WA_NoSystemBackground);
    setGeometry(view->widget()->rect());
    view->widget()->installEventFilter(this);
    if (ViewTransform* t = view->transform()) connect(t, &ViewTransform::changed, this, qOverload<>(&QWidget::update));
    show();
    raise();
}

bool ScheduleOverlay::eventFilter(QObject* watched, QEvent* event) {
    if (watched == parentWidget() && event->type() == QEvent::Resize) setGeometry(parentWidget()->rect());
    return QWidget::eventFilter(watched, event);
}

void ScheduleOverlay::setReplay(std::shared_ptr<const ScheduleReplay> replay, const LaunchPlan& plan) {
    replay_ = std::move(replay);
    plan_ = plan;
    matches_ = replay_ && !replay_->empty() && plan_.blocks > 0 && replay_->grid() == plan_.grid;
    buildBlockMap();
    setTime(time_);
}

void ScheduleOverlay::buildBlockMap() {
    block_map_.clear();
    map_size_ = {};
    if (!matches_) return;
    // A sample per image pixel up to kMapSide on the longer side: the greyed blocks are a picture of
    // the grid, redrawn each frame from a lookup, not from the launch's index functions again.
    const double scale = std::min(1.0, double(kMapSide) / std::max(plan_.width, plan_.height));
    map_size_ = QSize(std::max(1, int(plan_.width * scale)), std::max(1, int(plan_.height * scale)));
    block_map_.resize(std::size_t(map_size_.width()) * map_size_.height());
    for (int j = 0; j < map_size_.height(); ++j)
        for (int i = 0; i < map_size_.width(); ++i) {
            const auto x = std::uint32_t((i + 0.5) * plan_.width / map_size_.width());
            const auto y = std::uint32_t((j + 0.5) * plan_.height / map_size_.height());
            block_map_[std::size_t(j) * map_size_.width() + i] = std::uint32_t(plan_.thread_of_pixel(x, y).linear_block);
        }
    done_mask_ = QImage(map_size_, QImage::Format_ARGB32_Premultiplied);
}

void ScheduleOverlay::setTime(std::uint64_t ns) {
    time_ = ns;
    if (matches_) {
        const QRgb grey = qRgba(70, 70, 70, 170);  // premultiplied: 170 alpha over a dark grey
        for (int j = 0; j < map_size_.height(); ++j) {
            auto* line = reinterpret_cast<QRgb*>(done_mask_.scanLine(j));
            for (int i = 0; i < map_size_.width(); ++i) {
                const std::uint32_t b = block_map_[std::size_t(j) * map_size_.width() + i];
                line[i] = replay_->phase(b, ns) == BlockPhase::Done ? grey : 0;
            }
        }
    }
    update();
}

QRectF ScheduleOverlay::runningRect(std::uint64_t b) const {
    const QRect extent = block_extent(plan_, b).intersected(QRect(0, 0, int(plan_.width), int(plan_.height)));
    QRectF r(view_->imageToWidget(extent.topLeft()), view_->imageToWidget(extent.bottomRight() + QPoint(1, 1)));
    r = r.normalized();
    const QPointF c = r.center();
    r.setWidth(std::max(r.width(), kMinRunningPx));
    r.setHeight(std::max(r.height(), kMinRunningPx));
    r.moveCenter(c);
    return r;
}

void ScheduleOverlay::paintEvent(QPaintEvent*) {
    if (!matches_) return;
    QPainter p(this);
    const QRectF image(view_->imageToWidget(QPointF(0, 0)), view_->imageToWidget(QPointF(plan_.width, plan_.height)));
    p.drawImage(image.normalized(), done_mask_);
    std::vector<std::uint64_t> running;
    for (const auto& sm : replay_->running_by_sm(time_)) running.insert(running.end(), sm.begin(), sm.end());
    for (std::uint64_t b : running) {
        const QRectF r = runningRect(b);
        if (!r.intersects(rect())) continue;
        QColor fill = color_for_id(b);
        fill.setAlphaF(0.75);
        p.fillRect(r, fill);
        p.setBrush(Qt::NoBrush);
        p.setPen(QPen(overlay_style::kBoundary, 1));
        p.drawRect(r.adjusted(0.5, 0.5, -0.5, -0.5));
        p.setPen(QPen(overlay_style::kRunning, 1));
        p.drawRect(r.adjusted(1.5, 1.5, -1.5, -1.5));
    }
}

}  // namespace cvz
