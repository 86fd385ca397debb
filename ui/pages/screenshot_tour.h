#pragma once
// What a page may ask of scripts/screenshots (ui/tools/screenshots.cpp) while it stages its own shots
// (KernelPage::tour): the tool owns the window, the waits and the files, the page knows its family.
#include <QSize>
#include <QString>

#include <functional>

#include "ui/pages/kernel_page.h"

class QWidget;

namespace cvz {

class LadderDialog;
class ScheduleActions;
class SweepDialog;

class ScreenshotTour {
public:
    virtual ~ScreenshotTour() = default;

    // --only NAME: whether the shot `name` is wanted (all are without it).
    virtual bool wanted(const QString& name) const = 0;
    // Writes `widget` (the window by default) as NAME.png once it is drawn, if the shot is wanted.
    virtual void shot(const QString& name, QWidget* widget = nullptr) = 0;
    // Runs the event loop until `done` holds (or a minute passes: false), then lets painting settle.
    virtual bool waitFor(const std::function<bool()>& done) = 0;
    // Until the page in front has drawn its result and the worker is idle.
    virtual bool waitIdle() = 0;
    // Lets pending events and painting settle.
    void settle() { waitFor([] { return true; }); }

    // A dock shown and raised (the Source dock starts closed), or hidden.
    virtual void raiseDock(PageDocks::Dock which) = 0;
    virtual void hideDock(PageDocks::Dock which) = 0;
    // A taller window whose extra height goes to the Memory dock (several requests show), or back to
    // the tool's size.
    virtual void tall() = 0;
    virtual void restoreSize() = 0;
    virtual QWidget* window() = 0;
    // File > Open Schedule and the Schedule dock; the sweep and the ladder, opened for the page.
    virtual ScheduleActions* schedule() = 0;
    virtual SweepDialog* openSweep() = 0;
    virtual LadderDialog* openLadder() = 0;
};

}  // namespace cvz
