#include "ui/editor/kernel_editor.h"

#include <algorithm>

#include <QFontDatabase>
#include <QKeyEvent>

#include <Qsci/qscistyle.h>

#include "ui/editor/cuda_lexer.h"

namespace cvz {

namespace {

constexpr int kNumberMargin = 0;
constexpr int kSymbolMargin = 1;
constexpr int kSquiggle = 8;  // the indicator under an error's column

int marker_of(KernelEditor::Mark mark) { return int(mark); }         // the margin symbol
int background_of(KernelEditor::Mark mark) { return int(mark) + 3; }  // the line's tint

QColor colour_of(KernelEditor::Mark mark) {
    switch (mark) {
        case KernelEditor::Mark::Error: return QColor(0xc6, 0x28, 0x28);
        case KernelEditor::Mark::Warning: return QColor(0xe0, 0x8e, 0x00);
        case KernelEditor::Mark::Fault: return QColor(0x8e, 0x24, 0xaa);
    }
    return Qt::red;
}

QColor tint_of(KernelEditor::Mark mark) {
    switch (mark) {
        case KernelEditor::Mark::Error: return QColor(0xfd, 0xe3, 0xe3);
        case KernelEditor::Mark::Warning: return QColor(0xfe, 0xf3, 0xd6);
        case KernelEditor::Mark::Fault: return QColor(0xf1, 0xe3, 0xf8);
    }
    return Qt::white;
}

bool is_save(const QKeyEvent* e) { return e->matches(QKeySequence::Save); }

}  // namespace

KernelEditor::KernelEditor(QWidget* parent) : QsciScintilla(parent) {
    setUtf8(true);
    setLexer(new CudaLexer(this));
    setIndentationsUseTabs(false);
    setIndentationWidth(4);
    setTabWidth(4);
    setAutoIndent(true);
    setBraceMatching(QsciScintilla::SloppyBraceMatch);
    setCaretLineVisible(true);
    setCaretLineBackgroundColor(QColor(0xf4, 0xf6, 0xfa));
    setEolMode(QsciScintilla::EolUnix);
    // A horizontal scroll bar only when a line is wider than the view.
    SendScintilla(SCI_SETSCROLLWIDTH, 1);
    SendScintilla(SCI_SETSCROLLWIDTHTRACKING, true);

    setMarginType(kNumberMargin, QsciScintilla::NumberMargin);
    setMarginLineNumbers(kNumberMargin, true);
    setMarginsFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    fitLineNumbers();
    connect(this, &QsciScintilla::linesChanged, this, &KernelEditor::fitLineNumbers);

    setMarginType(kSymbolMargin, QsciScintilla::SymbolMargin);
    setMarginWidth(kSymbolMargin, 14);
    setMarginSensitivity(kSymbolMargin, false);
    unsigned mask = 0;
    for (Mark m : {Mark::Error, Mark::Warning, Mark::Fault}) {
        markerDefine(m == Mark::Fault ? QsciScintilla::RightArrow : QsciScintilla::Circle, marker_of(m));
        setMarkerBackgroundColor(colour_of(m), marker_of(m));
        setMarkerForegroundColor(colour_of(m).darker(130), marker_of(m));
        markerDefine(QsciScintilla::Background, background_of(m));
        setMarkerBackgroundColor(tint_of(m), background_of(m));
        mask |= 1u << marker_of(m);
    }
    setMarginMarkerMask(kSymbolMargin, int(mask));
    setMarginMarkerMask(kNumberMargin, 0);

    indicatorDefine(QsciScintilla::SquiggleIndicator, kSquiggle);
    setIndicatorForegroundColor(colour_of(Mark::Error), kSquiggle);
    setAnnotationDisplay(QsciScintilla::AnnotationBoxed);
}

void KernelEditor::fitLineNumbers() {
    setMarginWidth(kNumberMargin, QStringLiteral("0%1").arg(qMax(lines(), 99)));
}

void KernelEditor::clearMarks() {
    for (Mark m : {Mark::Error, Mark::Warning, Mark::Fault}) {
        markerDeleteAll(marker_of(m));
        markerDeleteAll(background_of(m));
        marked_[int(m)].clear();
    }
    clearAnnotations();
    clearIndicatorRange(0, 0, qMax(0, lines() - 1), qMax(0, lineLength(lines() - 1)), kSquiggle);
}

int KernelEditor::showDiagnostics(const std::vector<user::Diagnostic>& diagnostics) {
    clearMarks();
    int marked = 0;
    for (const user::Diagnostic& d : diagnostics) {
        if (d.line == 0 || int(d.line) > lines()) continue;
        mark(d.error ? Mark::Error : Mark::Warning, int(d.line), int(d.column),
             QStringLiteral("%1: %2").arg(d.error ? tr("error") : tr("warning"), QString::fromStdString(d.message)));
        ++marked;
    }
    return marked;
}

void KernelEditor::showFault(unsigned line, const QString& message) {
    if (line == 0 || int(line) > lines()) return;
    mark(Mark::Fault, int(line), 0, message);
    goToLine(int(line));
}

void KernelEditor::mark(Mark m, int line, int column, const QString& text) {
    const int at = line - 1;
    if (!marked_[int(m)].contains(line)) {
        markerAdd(at, marker_of(m));
        // One tint per line: an error's over a warning's.
        if (!(m == Mark::Warning && markedLines(Mark::Error).contains(line))) markerAdd(at, background_of(m));
        marked_[int(m)].append(line);
    }
    // Several messages on one line are written one under the other.
    const QString before = annotation(at);
    QsciStyle style(-1, QStringLiteral("annotation"), colour_of(m).darker(140), tint_of(m),
                    QFontDatabase::systemFont(QFontDatabase::FixedFont));
    annotate(at, before.isEmpty() ? text : before + QLatin1Char('\n') + text, style);
    if (column > 0 && m != Mark::Fault) {
        // The token at the column (a word, else one character).
        const int index = column - 1;
        int end = SendScintilla(SCI_WORDENDPOSITION, positionFromLineIndex(at, index), true);
        int end_line = 0, end_index = 0;
        lineIndexFromPosition(end, &end_line, &end_index);
        if (end_line != at || end_index <= index) end_index = index + 1;
        fillIndicatorRange(at, index, at, end_index, kSquiggle);
    }
}

QList<int> KernelEditor::markedLines(Mark m) const {
    QList<int> lines = marked_[int(m)];
    std::sort(lines.begin(), lines.end());
    return lines;
}

QString KernelEditor::annotationAt(int line) const { return line >= 1 ? annotation(line - 1) : QString(); }

void KernelEditor::goToLine(int line, int column) {
    if (line < 1) return;
    setCursorPosition(line - 1, qMax(0, column - 1));
    ensureLineVisible(line - 1);
    // The annotation under it too.
    ensureLineVisible(qMin(lines() - 1, line));
}

// Ctrl+S is the window's Save Result As elsewhere; here it saves the kernel. Taking the override
// gives the key to this widget before any window shortcut sees it.
bool KernelEditor::event(QEvent* e) {
    if (e->type() == QEvent::ShortcutOverride && is_save(static_cast<QKeyEvent*>(e))) {
        e->accept();
        return true;
    }
    return QsciScintilla::event(e);
}

void KernelEditor::keyPressEvent(QKeyEvent* e) {
    if (is_save(e)) {
        emit saveRequested();
        e->accept();
        return;
    }
    QsciScintilla::keyPressEvent(e);
}

}  // namespace cvz
