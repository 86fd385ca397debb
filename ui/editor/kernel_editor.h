#pragma once
#include <QList>
#include <QString>

#include <Qsci/qsciscintilla.h>

#include <vector>

#include "kernels/user/user_kernel.h"

namespace cvz {

// The text of the user's kernel: QScintilla with line numbers, C++/CUDA highlighting (CudaLexer),
// and what the last compile or run said about it: a compile's errors and warnings marked in the
// margin at their line, with the message written under the line (an annotation) and the column
// underlined; a fault of the run (an out-of-bounds store, a divergent barrier) marked the same way
// in its own colour. Marks stay until the next compile or an edit of their line's text.
class KernelEditor : public QsciScintilla {
    Q_OBJECT
public:
    enum class Mark { Error, Warning, Fault };

    explicit KernelEditor(QWidget* parent = nullptr);

    // Replaces the marks with these diagnostics' (those naming another file or no line are left to
    // the message list). Returns how many were marked.
    int showDiagnostics(const std::vector<user::Diagnostic>& diagnostics);
    // Marks a run's fault at its 1-based line (nothing when 0), with the message under it.
    void showFault(unsigned line, const QString& message);
    void clearMarks();

    // For tests and the message list: the 1-based lines carrying `mark`, and the text under a line.
    QList<int> markedLines(Mark mark) const;
    QString annotationAt(int line) const;
    // Puts the cursor on a 1-based line (and column, 1-based; 0: the line's start) and shows it.
    void goToLine(int line, int column = 0);

signals:
    void saveRequested();  // Ctrl+S while the editor has the focus

protected:
    bool event(QEvent* e) override;
    void keyPressEvent(QKeyEvent* e) override;

private:
    void mark(Mark mark, int line, int column, const QString& text);
    void fitLineNumbers();

    QList<int> marked_[3];
};

}  // namespace cvz
