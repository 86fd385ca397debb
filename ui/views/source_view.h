#pragma once
#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>
#include <QWidget>

class QComboBox;
class QLabel;
class QScrollArea;

namespace cvz {

// One source line's figures in the margin (Nsight Compute's source page): a cell per column, red
// where the line moves more than it needs (sectors above the ideal, bank conflicts).
struct SourceLineFigures {
    int line = 0;  // 1-based
    QStringList cells;
    bool excess = false;
    QString tip;
};

// The kernel's real source (embedded from kernels/, see kernel_sources.h) with the launch line above
// it (`gray_2d<<<dim3(29,19), dim3(16,16)>>>`), a margin of per-line figures, and the lines the
// animation or the inspector is at highlighted. It shows what it is given: the page says which files,
// which figures and which lines.
class SourceView : public QWidget {
    Q_OBJECT
public:
    explicit SourceView(QWidget* parent = nullptr);

    void setLaunchLine(const QString& text);
    // What the hardware counters said about this kernel's compiled code against these figures
    // (kernels/catalogue/gpu_counter_notes.h); hidden when empty.
    void setGpuNote(const QString& text);
    QString gpuNote() const;
    QString launchLine() const;

    // The margin's column headers (and their tooltips), left to right after the line number.
    void setColumns(const QStringList& headers, const QStringList& tips = {});
    QStringList columns() const { return headers_; }

    // The files the kernel's accesses are in, in the order the chooser lists them; shows the first
    // unless the shown one is among them. Figures are per file.
    void setFiles(const QStringList& paths);
    QStringList files() const { return files_; }
    // The emulator's loop over blockIdx and threadIdx (the lecture's blk_kernel, in C++): always the
    // chooser's last entry after the kernel's files; showing it highlights the loop that calls the body.
    static QString emulatorLoopFile();  // "kernels/emulator/emulate.h"
    bool showEmulatorLoop();
    void setFigures(const QString& path, const QList<SourceLineFigures>& figures);
    void clearFigures();
    // Shows an embedded file; a path that is not embedded shows a message naming it and returns false.
    bool showFile(const QString& path);
    QString file() const { return file_; }
    QString text() const;  // the shown file's text

    // Highlights `lines` of `path` (shown first, and scrolled to the first line); empty clears it.
    void setCurrentLines(const QString& path, const QList<int>& lines);
    QList<int> currentLines() const { return current_file_ == file_ ? current_ : QList<int>(); }
    QString lineText(int line) const;    // the text of a 1-based line of the shown file
    QStringList marginCells(int line) const;  // its figures as shown, empty when it has none

    // A line under the source: what is being traced, or why there are no figures.
    void setMessage(const QString& text);
    QString message() const;

signals:
    void visibilityChanged(bool visible);  // shown or hidden (e.g. its dock's tab raised or left)
    void fileShown(const QString& path);

protected:
    void showEvent(QShowEvent* event) override;
    void hideEvent(QHideEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    void highlight();
    void fitNote();  // the note's height: its wrapped lines, at most two (the rest scrolls)
    void refreshMargin();

    QLabel* launch_ = nullptr;
    QLabel* gpu_note_ = nullptr;
    QScrollArea* note_area_ = nullptr;  // holds gpu_note_, at most two lines high
    QComboBox* file_box_ = nullptr;
    class SourceEditor* editor_ = nullptr;
    QLabel* message_ = nullptr;
    QStringList headers_, header_tips_;
    QStringList files_;
    QString file_;
    QHash<QString, QHash<int, SourceLineFigures>> figures_;
    QString current_file_;
    QList<int> current_;
};

}  // namespace cvz
