#include "ui/views/source_view.h"

#include <algorithm>

#include <QComboBox>
#include <QFontDatabase>
#include <QLabel>
#include <QPainter>
#include <QPlainTextEdit>
#include <QScrollBar>
#include <QTextBlock>
#include <QToolTip>
#include <QHBoxLayout>
#include <QScrollArea>
#include <QVBoxLayout>

#include "ui/views/kernel_sources.h"

namespace cvz {

namespace {

QColor currentLineColor() { return QColor(255, 236, 140); }
QColor excessColor() { return QColor(192, 0, 0); }

}  // namespace

// The code with its margin: line numbers and figures painted left of the text, the column headers in
// a strip above it (it stays put while the code scrolls). QPlainTextEdit's block geometry is
// protected, hence the subclass.
class SourceEditor : public QPlainTextEdit {
public:
    explicit SourceEditor(QWidget* parent) : QPlainTextEdit(parent), margin_(new Margin(this)) {
        setReadOnly(true);
        setLineWrapMode(QPlainTextEdit::NoWrap);
        setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
        setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
        connect(this, &QPlainTextEdit::updateRequest, this, [this](const QRect& rect, int dy) {
            if (dy) margin_->scroll(0, dy);
            else margin_->update(0, rect.y(), margin_->width(), rect.height());
        });
    }

    QStringList headers, tips;
    const QHash<int, SourceLineFigures>* figures = nullptr;

    void relayout() {
        widths_.clear();
        const QFontMetrics fm(font());
        widths_ << fm.horizontalAdvance(QString::number(std::max(1, blockCount()))) + 8;
        for (int c = 0; c < headers.size(); ++c) {
            int w = fm.horizontalAdvance(headers[c]);
            if (figures)
                for (const SourceLineFigures& f : *figures)
                    if (c < f.cells.size()) w = std::max(w, fm.horizontalAdvance(f.cells[c]));
            widths_ << w + 10;
        }
        int total = 6;
        for (int w : widths_) total += w;
        setViewportMargins(total, fm.height() + 6, 0, 0);
        const QRect cr = contentsRect();
        margin_->setGeometry(cr.left(), cr.top(), total, cr.height());
        margin_->update();
    }

    int headerHeight() const { return QFontMetrics(font()).height() + 6; }

protected:
    void resizeEvent(QResizeEvent* e) override {
        QPlainTextEdit::resizeEvent(e);
        relayout();
    }

private:
    class Margin : public QWidget {
    public:
        explicit Margin(SourceEditor* editor) : QWidget(editor), editor_(editor) { setMouseTracking(true); }

    protected:
        void paintEvent(QPaintEvent*) override { editor_->paintMargin(this); }
        bool event(QEvent* e) override {
            if (e->type() == QEvent::ToolTip) {
                editor_->showMarginTip(static_cast<QHelpEvent*>(e));
                return true;
            }
            return QWidget::event(e);
        }

    private:
        SourceEditor* editor_;
    };

    // The column whose header or cell lies at x (-1: the line numbers or nothing).
    int columnAt(int x) const {
        int left = 6 + (widths_.isEmpty() ? 0 : widths_[0]);
        for (int c = 1; c < widths_.size(); ++c) {
            if (x >= left && x < left + widths_[c]) return c - 1;
            left += widths_[c];
        }
        return -1;
    }

    void showMarginTip(QHelpEvent* e) {
        const int column = columnAt(e->pos().x());
        QString tip;
        if (e->pos().y() < headerHeight()) {
            if (column >= 0 && column < tips.size()) tip = tips[column];
        } else {
            const QTextBlock block = cursorForPosition(QPoint(0, e->pos().y() - headerHeight())).block();
            if (figures && figures->contains(block.blockNumber() + 1)) tip = figures->value(block.blockNumber() + 1).tip;
        }
        if (tip.isEmpty()) QToolTip::hideText();
        else QToolTip::showText(e->globalPos(), tip, margin_);
    }

    void paintMargin(QWidget* margin) {
        QPainter p(margin);
        p.fillRect(margin->rect(), palette().color(QPalette::AlternateBase));
        const QFontMetrics fm(font());
        const int top = headerHeight();
        // The rows scroll under the header strip.
        p.setClipRect(0, top, margin->width(), margin->height() - top);
        QTextBlock block = firstVisibleBlock();
        int y = int(blockBoundingGeometry(block).translated(contentOffset()).top()) + top;
        while (block.isValid() && y < margin->height()) {
            const int h = int(blockBoundingRect(block).height());
            const int line = block.blockNumber() + 1;
            int x = 4;
            p.setPen(palette().color(QPalette::PlaceholderText));
            p.drawText(QRect(x, y, widths_[0] - 6, h), Qt::AlignRight | Qt::AlignVCenter, QString::number(line));
            x += widths_[0];
            if (figures && figures->contains(line)) {
                const SourceLineFigures& f = (*figures)[line];
                for (int c = 0; c < f.cells.size() && c + 1 < widths_.size(); ++c) {
                    p.setPen(f.excess && c > 0 ? excessColor() : palette().color(QPalette::Text));
                    p.drawText(QRect(x, y, widths_[c + 1] - 6, h), Qt::AlignRight | Qt::AlignVCenter, f.cells[c]);
                    x += widths_[c + 1];
                }
            }
            y += h;
            block = block.next();
        }
        p.setClipping(false);
        p.fillRect(0, 0, margin->width(), top, palette().color(QPalette::Button));
        p.setPen(palette().color(QPalette::ButtonText));
        QFont bold = font();
        bold.setBold(true);
        p.setFont(bold);
        int x = 4 + widths_.value(0);
        for (int c = 0; c < headers.size() && c + 1 < widths_.size(); ++c) {
            p.drawText(QRect(x, 0, widths_[c + 1] - 6, top), Qt::AlignRight | Qt::AlignVCenter, headers[c]);
            x += widths_[c + 1];
        }
    }

    Margin* margin_;
    QList<int> widths_;
};

SourceView::SourceView(QWidget* parent) : QWidget(parent) {
    auto* v = new QVBoxLayout(this);
    v->setContentsMargins(4, 4, 4, 4);
    launch_ = new QLabel(this);
    launch_->setObjectName(QStringLiteral("launchLine"));
    launch_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    launch_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    launch_->setToolTip(tr("The launch as CUDA C++ writes it: the kernel, then <<<gridDim, blockDim>>> of this launch"));
    file_box_ = new QComboBox(this);
    file_box_->setObjectName(QStringLiteral("sourceFile"));
    file_box_->setToolTip(tr("The kernel's source files that hold its loads and stores (embedded from kernels/)"));
    // Its longest path whole: "kernels/grayscale/g" named no file.
    file_box_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    editor_ = new SourceEditor(this);
    editor_->setObjectName(QStringLiteral("sourceText"));
    // Five lines at least; the dock gives it the rest. More would make the window taller than a
    // 700 px screen with every panel open.
    editor_->setMinimumHeight(5 * editor_->fontMetrics().lineSpacing() + 2 * editor_->frameWidth() + 4);
    gpu_note_ = new QLabel(this);
    gpu_note_->setObjectName(QStringLiteral("gpuNote"));
    gpu_note_->setWordWrap(true);
    gpu_note_->setToolTip(tr("Measured with Nsight Compute on an H200 (bench/ncu_compare): how the compiled kernel's "
                             "requests and wavefronts compare with these per-access figures"));
    // The note can run to several lines (the warptile's: five at 1200 px): at most two show, the
    // rest scrolls, so that a short Source dock never draws the note over the code.
    note_area_ = new QScrollArea(this);
    note_area_->setWidget(gpu_note_);
    note_area_->setWidgetResizable(true);
    note_area_->setFrameShape(QFrame::NoFrame);
    note_area_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    note_area_->hide();
    message_ = new QLabel(this);
    message_->setObjectName(QStringLiteral("sourceMessage"));
    message_->setWordWrap(true);
    // The launch and the file on one row: the code gets the height.
    auto* top = new QHBoxLayout;
    top->addWidget(launch_, 1);
    top->addWidget(file_box_);
    v->addLayout(top);
    v->addWidget(note_area_);
    v->addWidget(editor_, 1);
    v->addWidget(message_);
    connect(file_box_, &QComboBox::activated, this, [this](int index) {
        const QString path = file_box_->itemText(index);
        if (path == emulatorLoopFile()) showEmulatorLoop();
        else showFile(path);
    });
}

void SourceView::fitNote() {
    const int line = gpu_note_->fontMetrics().lineSpacing();
    const int width = std::max(1, note_area_->viewport()->width());
    const int lines = std::clamp((gpu_note_->heightForWidth(width) + line - 1) / line, 1, 2);
    note_area_->setFixedHeight(lines * line + 2);
}

void SourceView::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    fitNote();
}

void SourceView::setLaunchLine(const QString& text) { launch_->setText(text); }

QString SourceView::launchLine() const { return launch_->text(); }

void SourceView::setGpuNote(const QString& text) {
    gpu_note_->setText(text);
    note_area_->setVisible(!text.isEmpty());
    fitNote();
}

QString SourceView::gpuNote() const { return gpu_note_->text(); }

void SourceView::setColumns(const QStringList& headers, const QStringList& tips) {
    headers_ = headers;
    header_tips_ = tips;
    editor_->headers = headers;
    editor_->tips = tips;
    refreshMargin();
}

void SourceView::setFiles(const QStringList& paths) {
    files_ = paths;
    file_box_->clear();
    file_box_->addItems(paths);
    if (!paths.contains(emulatorLoopFile())) {
        file_box_->addItem(emulatorLoopFile());
        file_box_->setItemData(file_box_->count() - 1,
                               tr("How the CPU emulator runs a kernel: a loop over the grid's blocks and, inside, over "
                                  "each block's threads, calling the kernel body with blockIdx and threadIdx"),
                               Qt::ToolTipRole);
    }
    if (!paths.isEmpty() && !paths.contains(file_) && file_ != emulatorLoopFile()) showFile(paths.first());
    else file_box_->setCurrentIndex(file_box_->findText(file_));
}

QString SourceView::emulatorLoopFile() { return QStringLiteral("kernels/emulator/emulate.h"); }

bool SourceView::showEmulatorLoop() {
    if (!showFile(emulatorLoopFile())) return false;
    // The loop over a block's threads that calls the body (run_blocks_plain), found in the embedded text
    // itself: from the first `for (unsigned z` to the body's call.
    const QStringList lines = text().split(QLatin1Char('\n'));
    QList<int> loop;
    for (int i = 0; i < lines.size(); ++i) {
        if (loop.isEmpty() && !lines[i].contains(QStringLiteral("for (std::uint64_t b = first; b < last; ++b)"))) continue;
        loop << i + 1;
        if (lines[i].contains(QStringLiteral("body(static_cast<const EmuContext&>(ctx));"))) break;
    }
    setCurrentLines(emulatorLoopFile(), loop);
    return !loop.isEmpty();
}

void SourceView::setFigures(const QString& path, const QList<SourceLineFigures>& figures) {
    QHash<int, SourceLineFigures>& lines = figures_[path];
    lines.clear();
    for (const SourceLineFigures& f : figures) lines.insert(f.line, f);
    refreshMargin();
}

void SourceView::clearFigures() {
    figures_.clear();
    refreshMargin();
}

bool SourceView::showFile(const QString& path) {
    if (path == file_) return true;
    QString text, error;
    const bool ok = embedded_kernel_source(path, &text, &error);
    file_ = path;
    editor_->setPlainText(ok ? text : error);
    const int index = file_box_->findText(path);
    if (index >= 0) file_box_->setCurrentIndex(index);
    refreshMargin();
    highlight();
    emit fileShown(path);
    return ok;
}

QString SourceView::text() const { return editor_->toPlainText(); }

void SourceView::setCurrentLines(const QString& path, const QList<int>& lines) {
    if (!path.isEmpty()) showFile(path);
    current_file_ = path;
    current_ = lines;
    highlight();
}

QString SourceView::lineText(int line) const {
    const QTextBlock block = editor_->document()->findBlockByNumber(line - 1);
    return block.isValid() ? block.text() : QString();
}

QStringList SourceView::marginCells(int line) const {
    const auto file = figures_.constFind(file_);
    if (file == figures_.cend()) return {};
    return file->value(line).cells;
}

void SourceView::setMessage(const QString& text) {
    message_->setText(text);
    message_->setVisible(!text.isEmpty());
}

QString SourceView::message() const { return message_->text(); }

void SourceView::refreshMargin() {
    const auto file = figures_.constFind(file_);
    editor_->figures = file == figures_.cend() ? nullptr : &*file;
    editor_->relayout();
}

void SourceView::highlight() {
    QList<QTextEdit::ExtraSelection> selections;
    for (int line : currentLines()) {
        QTextEdit::ExtraSelection s;
        s.format.setBackground(currentLineColor());
        s.format.setProperty(QTextFormat::FullWidthSelection, true);
        s.cursor = QTextCursor(editor_->document()->findBlockByNumber(line - 1));
        selections.append(s);
    }
    editor_->setExtraSelections(selections);
    const QList<int> lines = currentLines();
    if (!lines.isEmpty()) {
        // The first current line near the top, so the lines after it show too (the dock may be short).
        const int first = *std::min_element(lines.begin(), lines.end());
        editor_->verticalScrollBar()->setValue(std::max(0, first - 1 - 1));
    }
}

void SourceView::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    emit visibilityChanged(true);
}

void SourceView::hideEvent(QHideEvent* event) {
    QWidget::hideEvent(event);
    emit visibilityChanged(false);
}

}  // namespace cvz
