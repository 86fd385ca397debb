#include "ui/panels/timeline_bar.h"

#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QSlider>
#include <QStyle>
#include <QTimer>
#include <QToolButton>

namespace cvz {

TimelineBar::TimelineBar(QWidget* parent) : QWidget(parent) {
    auto* h = new QHBoxLayout(this);
    h->setContentsMargins(4, 2, 4, 2);
    back_ = new QToolButton(this);
    back_->setIcon(style()->standardIcon(QStyle::SP_MediaSeekBackward));
    back_->setToolTip(tr("Step back"));
    play_ = new QToolButton(this);
    play_->setIcon(style()->standardIcon(QStyle::SP_MediaPlay));
    play_->setToolTip(tr("Play / pause (Space)"));
    forward_ = new QToolButton(this);
    forward_->setIcon(style()->standardIcon(QStyle::SP_MediaSeekForward));
    forward_->setToolTip(tr("Step forward"));
    scrub_ = new QSlider(Qt::Horizontal, this);
    scrub_->setToolTip(tr("Scrub"));
    label_ = new QLabel(this);
    label_->setMinimumWidth(260);
    h->addWidget(back_);
    h->addWidget(play_);
    h->addWidget(forward_);
    h->addWidget(scrub_, 1);
    h->addWidget(label_);
    timer_ = new QTimer(this);
    timer_->setInterval(600);
    setFocusPolicy(Qt::StrongFocus);

    connect(back_, &QToolButton::clicked, this, &TimelineBar::stepBack);
    connect(forward_, &QToolButton::clicked, this, &TimelineBar::stepForward);
    connect(play_, &QToolButton::clicked, this, &TimelineBar::togglePlay);
    connect(scrub_, &QSlider::valueChanged, this, &TimelineBar::setPosition);
    connect(timer_, &QTimer::timeout, this, [this] {
        if (position_ >= steps_) {
            togglePlay();  // stop at the end
            return;
        }
        stepForward();
    });
    setSteps(1, tr("step"));
}

void TimelineBar::setSteps(int steps, const QString& unit) {
    steps_ = std::max(1, steps);
    unit_ = unit;
    scrub_->setRange(0, steps_);
    setPosition(std::min(position_, steps_));
}

bool TimelineBar::playing() const { return timer_->isActive(); }

void TimelineBar::setPosition(int p) {
    p = std::clamp(p, 0, steps_);
    if (scrub_->value() != p) scrub_->setValue(p);  // re-enters once with the same value
    if (p == position_) return;
    position_ = p;
    emit positionChanged(p);
}

void TimelineBar::togglePlay() {
    if (timer_->isActive()) {
        timer_->stop();
        play_->setIcon(style()->standardIcon(QStyle::SP_MediaPlay));
    } else {
        if (position_ >= steps_) setPosition(0);
        timer_->start();
        play_->setIcon(style()->standardIcon(QStyle::SP_MediaPause));
    }
}

void TimelineBar::stepForward() { setPosition(position_ + 1); }
void TimelineBar::stepBack() { setPosition(position_ - 1); }
void TimelineBar::setLabel(const QString& text) { label_->setText(text); }

void TimelineBar::keyPressEvent(QKeyEvent* e) {
    switch (e->key()) {
        case Qt::Key_Space: togglePlay(); break;
        case Qt::Key_Right: stepForward(); break;
        case Qt::Key_Left: stepBack(); break;
        case Qt::Key_Home: setPosition(0); break;
        case Qt::Key_End: setPosition(steps_); break;
        default: QWidget::keyPressEvent(e); return;
    }
    e->accept();
}

}  // namespace cvz
