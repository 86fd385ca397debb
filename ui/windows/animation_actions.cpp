#include "ui/windows/animation_actions.h"

#include <QAction>
#include <QMenu>
#include <QSettings>

#include "ui/panels/timeline_bar.h"

namespace cvz {

namespace {
const QString kSpeedKey = QStringLiteral("animation/speed");
constexpr double kSpeedFactor = 1.5;  // Faster / Slower
}  // namespace

AnimationActions::AnimationActions(QMenu* menu, QObject* parent) : QObject(parent) {
    menu->addSeparator();
    forward_ = add(menu, tr("Step &Forward"), QKeySequence(Qt::Key_Period), QStringLiteral("stepForwardAction"),
                   &AnimationActions::stepForward);
    back_ = add(menu, tr("Step &Back"), QKeySequence(Qt::Key_Comma), QStringLiteral("stepBackAction"),
                &AnimationActions::stepBack);
    start_ = add(menu, tr("Jump to &Start"), QKeySequence(Qt::Key_Home), QStringLiteral("jumpToStartAction"),
                 &AnimationActions::jumpToStart);
    end_ = add(menu, tr("Jump to &End"), QKeySequence(Qt::Key_End), QStringLiteral("jumpToEndAction"),
               &AnimationActions::jumpToEnd);
    jump_ = add(menu, tr("&Jump to Wave or Warp..."), QKeySequence(Qt::CTRL | Qt::Key_J), QStringLiteral("jumpToStepAction"),
                &AnimationActions::jumpToStep);
    jump_->setToolTip(tr("Type the wave (or warp) to show in the timeline's step field"));
    menu->addSeparator();
    add(menu, tr("F&aster"), QKeySequence(Qt::Key_BracketRight), QStringLiteral("fasterAction"), &AnimationActions::faster);
    add(menu, tr("S&lower"), QKeySequence(Qt::Key_BracketLeft), QStringLiteral("slowerAction"), &AnimationActions::slower);
}

QAction* AnimationActions::add(QMenu* menu, const QString& text, const QKeySequence& key, const QString& name,
                               void (AnimationActions::*slot)()) {
    QAction* action = menu->addAction(text, this, slot);
    action->setObjectName(name);
    action->setShortcut(key);
    action->setShortcutContext(Qt::WindowShortcut);
    return action;
}

void AnimationActions::bind(TimelineBar* timeline) {
    timeline_ = timeline;
    timeline_->setStepsPerSecond(QSettings().value(kSpeedKey, timeline_->stepsPerSecond()).toDouble());
    connect(timeline_, &TimelineBar::speedChanged, this,
            [](double speed) { QSettings().setValue(kSpeedKey, speed); });
}

void AnimationActions::stepForward() {
    if (timeline_ && timeline_->isEnabled()) timeline_->stepForward();
}
void AnimationActions::stepBack() {
    if (timeline_ && timeline_->isEnabled()) timeline_->stepBack();
}
void AnimationActions::jumpToStart() {
    if (timeline_ && timeline_->isEnabled()) timeline_->jumpToStart();
}
void AnimationActions::jumpToEnd() {
    if (timeline_ && timeline_->isEnabled()) timeline_->jumpToEnd();
}
void AnimationActions::jumpToStep() {
    if (timeline_ && timeline_->isEnabled()) timeline_->focusStepBox();
}
void AnimationActions::faster() {
    if (timeline_) timeline_->setStepsPerSecond(timeline_->stepsPerSecond() * kSpeedFactor);
}
void AnimationActions::slower() {
    if (timeline_) timeline_->setStepsPerSecond(timeline_->stepsPerSecond() / kSpeedFactor);
}

}  // namespace cvz
