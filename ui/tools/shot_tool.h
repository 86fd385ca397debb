#pragma once
// What the screenshot tools share: their command line (DIR, where the PNGs go, and --size WxH), the
// window placed at the top left at that size, and its shots written into DIR.
#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QComboBox>
#include <QDir>
#include <QSize>
#include <QString>
#include <QStringList>
#include <QWidget>

#include <utility>

#include "ui/windows/fit_to_screen.h"
#include "ui/windows/window_screenshot.h"

namespace cvz::tools {

class ShotCommandLine {
public:
    // Adds the help option, DIR and --size (default `default_size`, "WxH") to `parser`, before its process().
    ShotCommandLine(QCommandLineParser* parser, const QString& default_size)
        : parser_(parser),
          size_(QStringLiteral("size"), QStringLiteral("window size"), QStringLiteral("WxH"), default_size) {
        parser->addHelpOption();
        parser->addPositionalArgument(QStringLiteral("dir"), QStringLiteral("where to write the PNGs"));
        parser->addOption(size_);
    }

    // After process(): the folder, made if missing ("." when none is given).
    QString dir() const {
        const QString dir = parser_->positionalArguments().value(0, QStringLiteral("."));
        QDir().mkpath(dir);
        return dir;
    }

    QSize size() const {
        const QStringList wh = parser_->value(size_).split(QLatin1Char('x'));
        return QSize(wh.value(0).toInt(), wh.value(1).toInt());
    }

private:
    QCommandLineParser* parser_;
    QCommandLineOption size_;
};

// The window at the top left, `size`, cut to the screen (a size larger than the screen at
// QT_SCALE_FACTOR=1.5), and shown.
template <class Window>
void show_fitted(Window& w, QSize size) {
    w.move(0, 0);
    w.resize(size);
    fit_to_screen(&w, QSize(0, 0));
    w.show();
}

// Runs on the CPU emulator from here on (the backend box), so that the shots are the same on any machine.
inline void choose_cpu_backend(QWidget& window) {
    if (auto* backend = window.findChild<QComboBox*>(QStringLiteral("backendBox")))
        backend->setCurrentIndex(backend->findData(QStringLiteral("cpu")));
}

// The window's shots, written as DIR/NAME_WxH.png (its size when this is made), each reported; counts
// those that could not be written, and any other failure the tool adds.
class WindowShots {
public:
    WindowShots(QWidget& window, QString dir)
        : window_(window), dir_(std::move(dir)), suffix_(QStringLiteral("_%1x%2.png").arg(window.width()).arg(window.height())) {}

    void operator()(const QString& name) {
        const QString path = QDir(dir_).filePath(name + suffix_);
        const QString error = WindowScreenshot::write(window_, path);
        qInfo("%s", qPrintable(error.isEmpty() ? QStringLiteral("wrote %1").arg(path) : error));
        if (!error.isEmpty()) ++failures_;
    }

    void addFailure() { ++failures_; }
    int failures() const { return failures_; }

private:
    QWidget& window_;
    QString dir_, suffix_;
    int failures_ = 0;
};

}  // namespace cvz::tools
