#include "ui/panels/timeline_bar.h"

#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLineEdit>
#include <QLabel>
#include <QSignalBlocker>
#include <QSlider>
#include <QSpinBox>
#include <QStyle>
#include <QTimer>
#include <QToolButton>

#include <algorithm>
#include <cmath>

#include "ui/windows/elided_label.h"

namespace cvz {

namespace {

// The step field: "wave 3" for the third wave (counts for people start at 1), and "all done" past
// the last one, instead of a "wave 9" beside "8 waves". Typing a number jumps to it.
class StepBox : public QSpinBox {
public:
    using QSpinBox::QSpinBox;
    void setUnit(const QString& unit) {
        unit_ = unit;
        updateGeometry();
        lineEdit()->setText(textFromValue(value()));
    }

protected:
    QString textFromValue(int value) const override {
        return value > maximum() - 1 ? TimelineBar::tr("all done") : QStringLiteral("%1 %2").arg(unit_).arg(value);
    }
    int valueFromText(const QString& text) const override {
        const QString digits = number(text);
        return digits.isEmpty() ? maximum() : digits.toInt();
    }
    QValidator::State validate(QString& text, int&) const override {
        if (text == textFromValue(maximum())) return QValidator::Acceptable;
        const QString digits = number(text);
        if (digits.isEmpty()) return QValidator::Intermediate;
        bool ok = false;
        const int v = digits.toInt(&ok);
        return ok && v >= minimum() && v <= maximum() ? QValidator::Acceptable : QValidator::Intermediate;
    }

private:
    static QString number(const QString& text) {
        QString digits;
        for (QChar c : text)
            if (c.isDigit()) digits += c;
        return digits;
    }
    QString unit_;
};

}  // namespace

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
    scrub_->setToolTip(tr("Drag to any step of the animation"));
    step_box_ = new StepBox(this);
    step_box_->setObjectName(QStringLiteral("timelineStep"));
    step_box_->setKeyboardTracking(false);  // typing "412" jumps once, to 412
    step_box_->setAccelerated(true);
    speed_ = new QDoubleSpinBox(this);
    speed_->setObjectName(QStringLiteral("timelineSpeed"));
    speed_->setRange(kMinSpeed, kMaxSpeed);
    speed_->setDecimals(2);
    speed_->setSingleStep(0.5);
    speed_->setSuffix(tr(" /s"));
    speed_->setValue(2);
    speed_->setKeyboardTracking(false);
    speed_->setToolTip(tr("Playing speed: steps (waves or warps) per second"));
    // A long caption ends in "…" (whole in its tooltip) rather than squeezing the slider to its handle.
    label_ = new ElidedLabel(this);
    label_->setObjectName(QStringLiteral("timelineCaption"));
    label_->setMinimumWidth(160);
    label_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    scrub_->setMinimumWidth(120);
    h->addWidget(back_);
    h->addWidget(play_);
    h->addWidget(forward_);
    h->addWidget(scrub_, 2);
    h->addWidget(step_box_);
    h->addWidget(speed_);
    h->addWidget(label_, 3);
    timer_ = new QTimer(this);
    timer_->setInterval(500);
    setFocusPolicy(Qt::StrongFocus);

    connect(back_, &QToolButton::clicked, this, &TimelineBar::stepBack);
    connect(forward_, &QToolButton::clicked, this, &TimelineBar::stepForward);
    connect(play_, &QToolButton::clicked, this, &TimelineBar::togglePlay);
    connect(scrub_, &QSlider::valueChanged, this, &TimelineBar::setPosition);
    connect(step_box_, &QSpinBox::valueChanged, this, [this](int step) { setPosition(step - 1); });
    connect(speed_, &QDoubleSpinBox::valueChanged, this, [this](double speed) {
        timer_->setInterval(std::max(1, int(std::lround(1000.0 / speed))));
        emit speedChanged(speed);
    });
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
    {
        // Position k runs step k + 1; steps + 1 is "all done".
        const QSignalBlocker block(step_box_);
        step_box_->setRange(1, steps_ + 1);
        static_cast<StepBox*>(step_box_)->setUnit(unit);
        step_box_->setToolTip(tr("Jump to a %1, from 1 to %2 (Ctrl+J); past the last, all done").arg(unit).arg(steps_));
    }
    setPosition(std::min(position_, steps_));
    const QSignalBlocker block(step_box_);
    step_box_->setValue(position_ + 1);
}

double TimelineBar::stepsPerSecond() const { return speed_->value(); }

void TimelineBar::setStepsPerSecond(double speed) { speed_->setValue(std::clamp(speed, kMinSpeed, kMaxSpeed)); }

void TimelineBar::focusStepBox() {
    step_box_->setFocus(Qt::ShortcutFocusReason);
    step_box_->selectAll();
}

void TimelineBar::jumpToStart() { setPosition(0); }

void TimelineBar::jumpToEnd() { setPosition(steps_); }

bool TimelineBar::playing() const { return timer_->isActive(); }

void TimelineBar::setPosition(int p) {
    p = std::clamp(p, 0, steps_);
    if (scrub_->value() != p) scrub_->setValue(p);  // re-enters once with the same value
    if (step_box_->value() != p + 1) {
        const QSignalBlocker block(step_box_);
        step_box_->setValue(p + 1);
    }
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
void TimelineBar::setLabel(const QString& text) {
    label_->setText(text);
    label_->setToolTip(text);
}

QString TimelineBar::label() const { return label_->text(); }

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
