#include "ui/panels/schedule_sm_view.h"

#include <QPainter>

#include <cmath>

#include "ui/views/block_colors.h"

namespace cvz {

ScheduleSmView::ScheduleSmView(Side side, QWidget* parent) : QWidget(parent), side_(side) {
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void ScheduleSmView::setReplay(std::shared_ptr<const ScheduleReplay> replay) {
    replay_ = std::move(replay);
    refresh();
}

void ScheduleSmView::setTime(std::uint64_t t) {
    time_ = t;
    refresh();
}

void ScheduleSmView::refresh() {
    slots_.clear();
    done_fraction_.clear();
    if (replay_ && !replay_->empty()) {
        if (side_ == Side::Recorded) {
            slots_ = replay_->running_by_sm(time_);
            std::vector<std::uint64_t> done(slots_.size(), 0);
            for (std::uint64_t b = 0; b < replay_->grid().volume(); ++b)
                if (replay_->phase(b, time_) == BlockPhase::Done) done[std::size_t(replay_->block(b).sm)]++;
            done_fraction_.resize(slots_.size(), 0);
            for (std::size_t sm = 0; sm < slots_.size(); ++sm)
                if (replay_->blocks_per_sm()[sm]) done_fraction_[sm] = double(done[sm]) / double(replay_->blocks_per_sm()[sm]);
        } else {
            const WavePlan m = replay_->model();
            slots_.assign(std::size_t(m.sm_count), {});
            const std::uint64_t wave = replay_->model_wave_at(time_);
            if (wave < m.waves) {
                const std::uint64_t first = m.wave_first_block(wave), end = m.wave_end_block(wave);
                for (std::uint64_t b = first; b < end; ++b) slots_[std::size_t(m.slot_of(b).sm)].push_back(b);
            }
        }
    }
    update();
}

QRectF ScheduleSmView::smBox(int sm) const {
    const int sms = int(slots_.size());
    if (sms == 0) return {};
    const QRectF area = QRectF(rect()).adjusted(2, 2, -2, -2);
    const int cols = std::max(1, int(std::ceil(std::sqrt(double(sms) * area.width() / std::max(1.0, area.height())))));
    const int rows = (sms + cols - 1) / cols;
    const double cw = area.width() / cols, ch = area.height() / rows;
    return QRectF(area.left() + (sm % cols) * cw, area.top() + (sm / cols) * ch, cw - 1, ch - 1);
}

void ScheduleSmView::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), palette().window());
    if (!replay_ || slots_.empty()) return;
    const int slot_count = replay_->max_resident();
    const int slot_cols = std::max(1, int(std::ceil(std::sqrt(double(slot_count)))));
    const int slot_rows = (slot_count + slot_cols - 1) / slot_cols;
    for (int sm = 0; sm < int(slots_.size()); ++sm) {
        const QRectF box = smBox(sm);
        p.setPen(palette().color(QPalette::Mid));
        p.setBrush(palette().base());
        p.drawRect(box);
        const QRectF inner = box.adjusted(1, 1, -1, -1);
        if (!done_fraction_.empty() && done_fraction_[std::size_t(sm)] > 0) {
            const double h = std::max(1.0, inner.height() * 0.15);
            p.fillRect(QRectF(inner.left(), inner.bottom() - h, inner.width() * done_fraction_[std::size_t(sm)], h),
                       QColor(150, 150, 150));
        }
        const double sw = inner.width() / slot_cols, sh = inner.height() * 0.85 / slot_rows;
        const auto& blocks = slots_[std::size_t(sm)];
        for (std::size_t s = 0; s < blocks.size() && int(s) < slot_count; ++s) {
            const QRectF cell(inner.left() + double(s % std::size_t(slot_cols)) * sw,
                              inner.top() + double(s / std::size_t(slot_cols)) * sh, std::max(1.0, sw - 0.5),
                              std::max(1.0, sh - 0.5));
            p.fillRect(cell, color_for_id(blocks[s]));
        }
    }
}

}  // namespace cvz
