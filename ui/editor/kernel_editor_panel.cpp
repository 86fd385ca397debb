#include "ui/editor/kernel_editor_panel.h"

#include <algorithm>

#include <QComboBox>
#include <QDir>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QProgressBar>
#include <QPushButton>
#include <QSplitter>
#include <QTimer>
#include <QVBoxLayout>

#include "kernels/user/source_scan.h"
#include "kernels/user/user_call.h"
#include "ui/editor/kernel_editor.h"
#include "ui/editor/kernel_store.h"

namespace cvz {

namespace {

constexpr int kLineRole = Qt::UserRole + 1;
constexpr int kColumnRole = Qt::UserRole + 2;
constexpr int kPathRole = Qt::UserRole + 3;
constexpr int kElementRole = Qt::UserRole + 4;

QColor severity_colour(KernelEditorPanel::Severity s) {
    switch (s) {
        case KernelEditorPanel::Severity::Error: return QColor(0xc6, 0x28, 0x28);
        case KernelEditorPanel::Severity::Warning: return QColor(0x9a, 0x60, 0x00);
        case KernelEditorPanel::Severity::Fault: return QColor(0x8e, 0x24, 0xaa);
        case KernelEditorPanel::Severity::Difference: return QColor(0xb2, 0x3c, 0x17);
        case KernelEditorPanel::Severity::Info: break;
    }
    return QColor();
}

}  // namespace

KernelEditorPanel::KernelEditorPanel(KernelStore* store, QWidget* parent) : QWidget(parent), store_(store) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 0, 4, 2);
    layout->setSpacing(2);

    auto* bar = new QHBoxLayout;
    title_ = new QLabel(this);
    title_->setObjectName(QStringLiteral("kernelEditorTitle"));
    title_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    title_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    run_text_ = new QLabel(this);
    run_text_->setObjectName(QStringLiteral("kernelRunText"));
    run_text_->hide();
    progress_ = new QProgressBar(this);
    progress_->setObjectName(QStringLiteral("kernelRunProgress"));
    progress_->setRange(0, 0);  // a compile and a run say nothing of how far they are
    progress_->setMaximumWidth(90);
    progress_->setMaximumHeight(14);
    progress_->setTextVisible(false);
    progress_->hide();
    run_ = new QPushButton(tr("Compile and Run"), this);
    run_->setObjectName(QStringLiteral("kernelRunButton"));
    run_->setToolTip(tr("Compile the kernel and run it as the current family's variant \"yours: NAME\" (Ctrl+Enter)"));
    stop_ = new QPushButton(tr("Stop"), this);
    stop_->setObjectName(QStringLiteral("kernelStopButton"));
    stop_->setToolTip(tr("Stop the compile or the run (the kernel is ended; your text stays)"));
    stop_->setEnabled(false);
    kernel_box_ = new QComboBox(this);
    kernel_box_->setObjectName(QStringLiteral("kernelChoice"));
    kernel_box_->setToolTip(tr("The file has several __global__ functions: the one Compile and Run runs"));
    kernel_box_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    kernel_box_->hide();
    bar->addWidget(title_, 1);
    bar->addWidget(kernel_box_);
    bar->addWidget(run_text_);
    bar->addWidget(progress_);
    bar->addWidget(run_);
    bar->addWidget(stop_);
    layout->addLayout(bar);

    split_ = new QSplitter(Qt::Horizontal, this);
    split_->setChildrenCollapsible(false);
    kernels_ = new QListWidget(split_);
    kernels_->setObjectName(QStringLiteral("savedKernels"));
    kernels_->setToolTip(tr("Your kernels, kept in %1").arg(QDir::toNativeSeparators(store_->folder())));
    kernels_->setMinimumWidth(90);
    // Short when the window is: the dock shares the bottom area with the Source view and the
    // Execution bar, and must never make the window taller than the screen.
    kernels_->setMinimumHeight(2 * kernels_->fontMetrics().height());
    auto* right = code_split_ = new QSplitter(Qt::Vertical, split_);
    right->setChildrenCollapsible(false);
    editor_ = new KernelEditor(right);
    editor_->setObjectName(QStringLiteral("kernelEditor"));
    editor_->setMinimumHeight(3 * editor_->fontMetrics().height());
    messages_ = new QListWidget(right);
    messages_->setObjectName(QStringLiteral("kernelMessages"));
    messages_->setWordWrap(true);
    messages_->setMinimumHeight(2 * messages_->fontMetrics().height() + 6);
    messages_->hide();  // until there is something to say: the code has the height
    // The code first; the messages (a run's differences are a dozen lines) a third when there are some.
    right->setStretchFactor(0, 2);
    right->setStretchFactor(1, 1);
    split_->setStretchFactor(0, 0);
    split_->setStretchFactor(1, 1);
    split_->setSizes({150, 800});
    layout->addWidget(split_, 1);

    autosave_ = new QTimer(this);
    autosave_->setSingleShot(true);
    autosave_->setInterval(1500);
    connect(autosave_, &QTimer::timeout, this, &KernelEditorPanel::flushAutosave);
    scan_ = new QTimer(this);
    scan_->setSingleShot(true);
    scan_->setInterval(400);
    connect(scan_, &QTimer::timeout, this, &KernelEditorPanel::refreshKernelChoice);
    connect(kernel_box_, &QComboBox::activated, this, [this](int index) {
        store_->setChosenKernel(file_, kernel_box_->itemData(index).toString());
    });
    connect(editor_, &QsciScintilla::textChanged, this, &KernelEditorPanel::onEdited);
    connect(editor_, &QsciScintilla::modificationChanged, this, &KernelEditorPanel::updateTitle);
    connect(editor_, &KernelEditor::saveRequested, this, [this] {
        QString error;
        if (!save(&error)) emit message(error, true);
    });
    connect(run_, &QPushButton::clicked, this, &KernelEditorPanel::runRequested);
    connect(stop_, &QPushButton::clicked, this, &KernelEditorPanel::stopRequested);
    connect(messages_, &QListWidget::itemClicked, this, &KernelEditorPanel::onMessageClicked);
    connect(messages_, &QListWidget::itemActivated, this, &KernelEditorPanel::onMessageClicked);
    // One click opens a kept kernel (the one shown is saved first), as a file list in an IDE.
    // Opened after the click's signal: opening fills the list again, which deletes the clicked item.
    auto open_item = [this](QListWidgetItem* item) {
        const QString path = item->data(kPathRole).toString();
        if (path == file_) return;
        QTimer::singleShot(0, this, [this, path] {
            QString error;
            if (path != file_ && !openKernel(path, &error)) emit message(error, true);
        });
    };
    connect(kernels_, &QListWidget::itemClicked, this, open_item);
    connect(kernels_, &QListWidget::itemActivated, this, open_item);
    connect(store_, &KernelStore::kernelsChanged, this, &KernelEditorPanel::refreshList);
    refreshList();
    updateTitle();
}

// Whatever is pending is written: quitting while the debounce runs loses nothing.
KernelEditorPanel::~KernelEditorPanel() {
    if (autosavePending()) flushAutosave();
}

bool KernelEditorPanel::restore() {
    QString file, text;
    if (store_->readAutosave(&file, &text)) {
        setFile(file.isEmpty() ? store_->freePath(QStringLiteral("kernel")) : file);
        setText(text, true);
        addMessage(Severity::Info, tr("Restored the unsaved text of %1.").arg(QFileInfo(file_).fileName()));
        return true;
    }
    const QString last = store_->lastFile();
    QString error;
    if (!last.isEmpty() && QFileInfo::exists(last)) {
        if (openKernel(last, &error)) return true;
        addMessage(Severity::Error, error);
    }
    return false;
}

void KernelEditorPanel::newKernel(const QString& base, const QString& text) {
    if (isModified()) {
        QString error;
        if (!save(&error)) emit message(error, true);
    }
    setFile(store_->freePath(base));
    setText(text, true);  // not on disk yet: saved on request, before a run, or autosaved
    clearMessages();
    flushAutosave();
}

bool KernelEditorPanel::openKernel(const QString& path, QString* error) {
    QString text;
    if (!KernelStore::read(path, &text, error)) return false;
    if (isModified() && !save(error)) return false;  // never drop the text shown for another
    setFile(QFileInfo(path).absoluteFilePath());
    setText(text, false);
    clearMessages();
    store_->clearAutosave();
    return true;
}

bool KernelEditorPanel::save(QString* error) {
    if (file_.isEmpty()) setFile(store_->freePath(QStringLiteral("kernel")));
    if (!store_->write(file_, editor_->text(), error)) {
        flushAutosave();  // at least the autosave keeps it
        return false;
    }
    editor_->setModified(false);
    autosave_->stop();
    store_->clearAutosave();
    refreshList();
    emit message(tr("Saved %1").arg(QDir::toNativeSeparators(file_)), false);
    return true;
}

QString KernelEditorPanel::kernelName() const { return QFileInfo(file_).completeBaseName(); }

bool KernelEditorPanel::isModified() const { return editor_->isModified(); }

user::SourceFile KernelEditorPanel::source() const {
    return {QFileInfo(file_).fileName().toStdString(), editor_->text().toStdString()};
}

void KernelEditorPanel::setAutosaveDelay(int ms) { autosave_->setInterval(ms); }

bool KernelEditorPanel::autosavePending() const { return autosave_->isActive(); }

void KernelEditorPanel::flushAutosave() {
    autosave_->stop();
    if (!isModified()) return;
    QString error;
    if (store_->writeAutosave(file_, editor_->text(), &error)) emit autosaved();
    else emit message(error, true);
}

void KernelEditorPanel::onEdited() {
    if (loading_) return;
    autosave_->start();  // restarted by every edit: written once typing pauses
    scan_->start();
}

void KernelEditorPanel::setFamilyForms(const std::vector<user::CallForm>& forms) {
    forms_ = forms;
    refreshKernelChoice();
}

QString KernelEditorPanel::chosenKernel() const {
    return kernel_box_->count() > 1 ? kernel_box_->currentData().toString() : QString();
}

void KernelEditorPanel::refreshKernelChoice() {
    scan_->stop();
    const std::vector<user::KernelSignature> kernels = user::find_kernels(source());
    const QString was = kernel_box_->currentData().toString();
    const QSignalBlocker quiet(kernel_box_);
    kernel_box_->clear();
    if (kernels.size() < 2) {
        kernel_box_->hide();
        return;
    }
    // Those that fit the family first, each group in the file's order.
    std::vector<const user::KernelSignature*> fitting, others;
    for (const user::KernelSignature& k : kernels)
        (forms_.empty() || user::pick_form(k, forms_).form ? fitting : others).push_back(&k);
    auto add = [this](const user::KernelSignature& k, bool fits) {
        const QString name = QString::fromStdString(k.name);
        kernel_box_->addItem(fits ? name : tr("%1 (fits no form here)").arg(name), name);
        kernel_box_->setItemData(kernel_box_->count() - 1, tr("line %1: %2").arg(k.line).arg(QString::fromStdString(k.text())), Qt::ToolTipRole);
    };
    for (const user::KernelSignature* k : fitting) add(*k, true);
    for (const user::KernelSignature* k : others) add(*k, false);
    // The one chosen for this file, or the one shown before, while it fits this family; else the first that fits.
    const int fit = fitting.empty() ? kernel_box_->count() : int(fitting.size());
    int index = kernel_box_->findData(store_->chosenKernel(file_));
    if (index < 0 || index >= fit) index = kernel_box_->findData(was);
    kernel_box_->setCurrentIndex(index < 0 || index >= fit ? 0 : index);
    kernel_box_->show();
}

void KernelEditorPanel::setFile(const QString& path) {
    if (path == file_) return;
    file_ = path;
    store_->setLastFile(path);
    refreshList();
    updateTitle();
    emit fileChanged(path);
}

void KernelEditorPanel::setText(const QString& text, bool modified) {
    loading_ = true;
    editor_->setText(text);
    editor_->setModified(modified);
    loading_ = false;
    editor_->clearMarks();
    updateTitle();
    refreshKernelChoice();
}

void KernelEditorPanel::refreshList() {
    kernels_->clear();
    QStringList paths = store_->kernels();
    // The kernel shown is listed even before its first save.
    if (!file_.isEmpty() && !paths.contains(file_)) paths.prepend(file_);
    for (const QString& path : paths) {
        auto* item = new QListWidgetItem(QFileInfo(path).fileName(), kernels_);
        item->setData(kPathRole, path);
        item->setToolTip(QDir::toNativeSeparators(path));
        if (path == file_) {
            QFont bold = item->font();
            bold.setBold(true);
            item->setFont(bold);
            kernels_->setCurrentItem(item);
        }
    }
}

void KernelEditorPanel::updateTitle() {
    const QString name = file_.isEmpty() ? tr("(no kernel)") : QFileInfo(file_).fileName();
    title_->setText(isModified() ? tr("%1 \u2022 unsaved").arg(name) : name);
    title_->setToolTip(QDir::toNativeSeparators(file_));
}

void KernelEditorPanel::clearMessages() {
    messages_->clear();
    messages_->hide();
    editor_->clearMarks();
}

void KernelEditorPanel::showDiagnostics(const std::vector<user::Diagnostic>& diagnostics) {
    editor_->showDiagnostics(diagnostics);
    for (const user::Diagnostic& d : diagnostics) {
        QString where = QString::fromStdString(d.file);
        if (d.line) where += QStringLiteral(":%1").arg(d.line);
        if (d.line && d.column) where += QStringLiteral(":%1").arg(d.column);
        addMessage(d.error ? Severity::Error : Severity::Warning,
                   QStringLiteral("%1: %2: %3").arg(where, d.error ? tr("error") : tr("warning"), QString::fromStdString(d.message)),
                   d.line, d.column);
    }
    const auto first_error = std::find_if(diagnostics.begin(), diagnostics.end(), [](const user::Diagnostic& d) { return d.error && d.line; });
    if (first_error != diagnostics.end()) editor_->goToLine(int(first_error->line), int(first_error->column));
}

void KernelEditorPanel::showFault(unsigned line, const QString& message, const QString& heading) {
    editor_->showFault(line, message);
    addMessage(Severity::Fault, heading.isEmpty() ? message : heading + QStringLiteral(": ") + message, line);
}

void KernelEditorPanel::addMessage(Severity severity, const QString& text, unsigned line, unsigned column) {
    messages_->show();
    auto* item = new QListWidgetItem(text, messages_);
    item->setToolTip(text);
    if (severity_colour(severity).isValid()) item->setForeground(severity_colour(severity));
    if (line) {
        item->setData(kLineRole, line);
        item->setData(kColumnRole, column);
    }
    fitMessages();
}

void KernelEditorPanel::fitMessages() {
    const int total = code_split_->height();
    if (total <= 0) return;
    int rows = 0;
    for (int i = 0; i < messages_->count() && i < 8; ++i) rows += qMax(1, messages_->sizeHintForRow(i));
    // Half the split at most, but never below the list's minimum (a short split: qBound would assert).
    const int wanted = qMax(messages_->minimumHeight(), qMin(rows + 2 * messages_->frameWidth() + 4, total / 2));
    code_split_->setSizes({total - wanted, wanted});
}

void KernelEditorPanel::addDifference(const QString& text, quint64 index) {
    addMessage(Severity::Difference, text);
    messages_->item(messages_->count() - 1)->setData(kElementRole, index);
}

void KernelEditorPanel::onMessageClicked(QListWidgetItem* item) {
    if (const QVariant element = item->data(kElementRole); element.isValid()) emit elementChosen(element.toULongLong());
    const int line = item->data(kLineRole).toInt();
    if (line <= 0) return;
    editor_->goToLine(line, item->data(kColumnRole).toInt());
    editor_->setFocus();
}

void KernelEditorPanel::setRunning(bool running, const QString& text) {
    running_ = running;
    progress_->setVisible(running);
    run_text_->setText(text);
    run_text_->setVisible(!text.isEmpty());
    run_->setEnabled(!running);
    stop_->setEnabled(running);
}

}  // namespace cvz
