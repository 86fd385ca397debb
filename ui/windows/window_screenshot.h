#pragma once
#include <QObject>
#include <QPointer>
#include <QString>

class QWidget;

namespace cvz {

class MainWindow;

// Writes a window to a PNG once the page in front has its result on screen: the page's run answered,
// the worker idle, the window shown. Every wait is on a signal (the worker's busyChanged, the sessions'
// runFinished), never on a clock, so a slow machine only makes it later. A failed load or run, or a
// file that cannot be written, ends it with finished(false, why). Used by `cudaviz --screenshot` and
// by the README's screenshot script (scripts/screenshots).
class WindowScreenshot : public QObject {
    Q_OBJECT
public:
    WindowScreenshot(MainWindow* window, const QString& path, QObject* parent = nullptr);

    // Starts waiting (and writes at once if the page is already drawn).
    void start();
    // Whether the page in front has drawn its result and nothing is queued that would change it.
    static bool pageDrawn(const MainWindow& window);
    // The window's pixels as they are now, written to `path` (.png); an empty string, or why not.
    static QString write(QWidget& window, const QString& path);

signals:
    void finished(bool ok, const QString& message);

private:
    void check();
    void fail(const QString& why);

    QPointer<MainWindow> window_;
    QString path_;
    bool done_ = false;
    bool settling_ = false;
};

}  // namespace cvz
