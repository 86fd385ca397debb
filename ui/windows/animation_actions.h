#pragma once
#include <QObject>

class QAction;
class QMenu;

namespace cvz {

class TimelineBar;

// The Animation menu's stepping entries, for whichever page drives the timeline: Step Forward (.)
// and Step Back (,), Jump to Start (Home) and Jump to End (End), Jump to Step (Ctrl+J: the
// timeline's step field), Faster (]) and Slower ([). The keys are window shortcuts that text
// fields claim for themselves (Qt's ShortcutOverride): typed into a focused spin box they edit the
// number and move nothing. The playing speed is remembered (QSettings "animation/speed").
class AnimationActions : public QObject {
    Q_OBJECT
public:
    AnimationActions(QMenu* menu, QObject* parent);
    // The timeline the entries drive; restores the remembered speed and saves it as it changes.
    void bind(TimelineBar* timeline);

    QAction* stepForwardAction() const { return forward_; }
    QAction* stepBackAction() const { return back_; }
    QAction* jumpToStartAction() const { return start_; }
    QAction* jumpToEndAction() const { return end_; }
    QAction* jumpToStepAction() const { return jump_; }

private:
    QAction* add(QMenu* menu, const QString& text, const QKeySequence& key, const QString& name, void (AnimationActions::*slot)());
    void stepForward();
    void stepBack();
    void jumpToStart();
    void jumpToEnd();
    void jumpToStep();
    void faster();
    void slower();

    TimelineBar* timeline_ = nullptr;
    QAction* forward_ = nullptr;
    QAction* back_ = nullptr;
    QAction* start_ = nullptr;
    QAction* end_ = nullptr;
    QAction* jump_ = nullptr;
};

}  // namespace cvz
