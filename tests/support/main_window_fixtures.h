#pragma once
// The main window as the GUI tests start it: shown at a known size, exposed, the page in front with its
// first kernel result on screen and the worker idle. GUI tests only (it includes ui/).
#include <QSize>
#include <QTest>

#include "window_waits.h"
#include "app/jobs/job_runner.h"
#include "ui/pages/grayscale/image_page.h"
#include "ui/pages/kernel_page.h"
#include "ui/windows/main_window.h"

namespace cvz::test {

inline bool show_and_wait(MainWindow& w, QSize size, int timeout_ms) {
    w.resize(size);
    w.show();
    if (!cvz::test::wait_exposed(&w)) return false;
    return QTest::qWaitFor([&] { return w.currentPage() && w.currentPage()->resultShown() && !w.jobs()->busy(); }, timeout_ms);
}

// The image page of `w`: its document and views (the window holds the shell only).
inline ImagePage* image_page(const MainWindow& w) { return w.page<ImagePage>(); }

}  // namespace cvz::test
