#pragma once
#include <QString>
#include <QWidget>

#include <vector>

#include "kernels/user/user_kernel.h"

class QComboBox;
class QLabel;
class QListWidget;
class QListWidgetItem;
class QProgressBar;
class QPushButton;
class QSplitter;
class QTimer;

namespace cvz {

class KernelEditor;
class KernelStore;

// The kernel editor dock's content: the kept kernels listed on the left (the store's folder, again at
// every start), the editor, and under it the messages of the last compile and run (click one to go to
// its line) with the run's progress and Stop. It owns the text's life on disk: a file of the store
// (a new kernel gets a free name there), saved on request, before a run and before another kernel is
// opened, and autosaved, debounced and atomically, while it has unsaved changes, so that a crash of the
// app loses nothing; restore() brings back the unsaved text, else the last file shown.
class KernelEditorPanel : public QWidget {
    Q_OBJECT
public:
    enum class Severity { Info, Warning, Error, Fault, Difference };

    explicit KernelEditorPanel(KernelStore* store, QWidget* parent = nullptr);
    ~KernelEditorPanel() override;

    KernelEditor* editor() const { return editor_; }
    KernelStore* store() const { return store_; }
    QListWidget* kernelList() const { return kernels_; }
    QListWidget* messageList() const { return messages_; }
    QPushButton* stopButton() const { return stop_; }
    QPushButton* runButton() const { return run_; }
    // Which of the file's __global__ functions Compile and Run runs, shown when it has several: those
    // that fit one of the family's forms (setFamilyForms) first, the first of them chosen unless the
    // learner chose another for this file (remembered in the store).
    QComboBox* kernelChoice() const { return kernel_box_; }
    void setFamilyForms(const std::vector<user::CallForm>& forms);
    // The function chosen; empty when the file has one __global__ function or none (the run takes the only one).
    QString chosenKernel() const;
    // Scans the text for its kernels now (edits are scanned once typing pauses).
    void refreshKernelChoice();

    // The autosave's text with its file, else the last file shown; false when there was neither.
    bool restore();
    // A new kernel with `text`, to be saved in the store as `base`.cu (or a free variant of it).
    void newKernel(const QString& base, const QString& text);
    // Opens `path` (the current text is saved first); false and a message naming the file.
    bool openKernel(const QString& path, QString* error);
    // Writes the text to its file; false and a message naming the file.
    bool save(QString* error = nullptr);

    QString file() const { return file_; }   // where the text is (or will be) saved
    QString kernelName() const;              // the file's base name: "grayscale_1d"
    bool isModified() const;
    user::SourceFile source() const;         // the text, named as messages name it (the file's name)

    // The debounce before an edit is autosaved; flushAutosave() writes a pending autosave now.
    void setAutosaveDelay(int ms);
    bool autosavePending() const;
    void flushAutosave();

    // The results of a compile and run, shown in the editor (marks) and the message list.
    void clearMessages();
    void showDiagnostics(const std::vector<user::Diagnostic>& diagnostics);
    // `heading` ("out of bounds") starts the list's line, not the annotation.
    void showFault(unsigned line, const QString& message, const QString& heading = QString());
    // A line of the list; `line` > 0 makes a click go to that line of the kernel.
    void addMessage(Severity severity, const QString& text, unsigned line = 0, unsigned column = 0);
    // An output element that differs from the reference: a click on it emits elementChosen(index).
    void addDifference(const QString& text, quint64 index);
    // Between a run's start and end: the progress bar and Stop are shown, Compile and Run disabled.
    void setRunning(bool running, const QString& text = QString());
    bool isRunning() const { return running_; }

signals:
    void runRequested();
    void stopRequested();
    void elementChosen(quint64 index);  // a difference was clicked: the page marks that element
    void fileChanged(const QString& path);  // another kernel is shown (or the current one was renamed)
    void autosaved();                      // the autosave was written
    void message(const QString& text, bool error);  // for the status bar

private:
    void setFile(const QString& path);
    void setText(const QString& text, bool modified);
    void refreshList();
    void updateTitle();
    void onEdited();
    void onMessageClicked(QListWidgetItem* item);
    void fitMessages();  // the list as tall as its lines, up to half the height: the code keeps the rest

    KernelStore* store_;
    KernelEditor* editor_ = nullptr;
    QListWidget* kernels_ = nullptr;
    QListWidget* messages_ = nullptr;
    QLabel* title_ = nullptr;
    QLabel* run_text_ = nullptr;
    QProgressBar* progress_ = nullptr;
    QPushButton* run_ = nullptr;
    QPushButton* stop_ = nullptr;
    QComboBox* kernel_box_ = nullptr;
    QTimer* scan_ = nullptr;  // the kernel scan after an edit, debounced
    std::vector<user::CallForm> forms_;
    QSplitter* split_ = nullptr;
    QSplitter* code_split_ = nullptr;  // the code over the messages
    QTimer* autosave_ = nullptr;
    QString file_;
    bool loading_ = false;  // setText: not an edit
    bool running_ = false;
};

}  // namespace cvz
