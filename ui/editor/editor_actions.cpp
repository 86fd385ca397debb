#include "ui/editor/editor_actions.h"

#include <algorithm>

#include <QAction>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QRegularExpression>
#include <QTabWidget>
#include <QTimer>

#include "app/family/app_family.h"
#include "app/jobs/job_runner.h"
#include "app/user/launch_dims.h"
#include "app/user/user_problem.h"
#include "app/user/user_run.h"
#include "app/user/user_variants.h"
#include "kernels/user/source_scan.h"
#include "ui/editor/kernel_editor.h"
#include "ui/editor/kernel_editor_panel.h"
#include "ui/editor/kernel_store.h"
#include "ui/editor/lecture_kernels.h"
#include "ui/panels/launch_panel.h"
#include "ui/windows/dock_scroll_area.h"
#include "ui/windows/main_window.h"

namespace cvz {

namespace {

// The line a fault's message names: at its start on the emulator ("line 3: thread (12, 0, 0)/(255, 0, 0)
// writes ..."), after the GPU's own words when the emulator confirmed a GPU fault ("out[851..1023] were
// written, ...; on the emulator: line 4: thread ..."); 0 when none.
unsigned fault_line(const QString& message) {
    static const QRegularExpression line(QStringLiteral("(?:^|: )line (\\d+): "));
    const QRegularExpressionMatch m = line.match(message);
    return m.hasMatch() ? m.captured(1).toUInt() : 0;
}

QString dims(const Dim3& d) { return dims_text(d); }

}  // namespace

EditorActions::EditorActions(MainWindow* window)
    : QObject(window),
      window_(window),
      store_(new KernelStore(QString(), this)),
      runner_(std::make_unique<JobRunner>()) {
    new_ = new QAction(tr("&New Kernel"), this);
    new_->setObjectName(QStringLiteral("newKernelAction"));
    new_->setToolTip(tr("Start a kernel of your own from the lecture's kernel of the current family"));
    open_ = new QAction(tr("Open &Kernel..."), this);
    open_->setObjectName(QStringLiteral("openKernelAction"));
    save_ = new QAction(tr("Sa&ve Kernel"), this);
    save_->setObjectName(QStringLiteral("saveKernelAction"));
    // Ctrl+S is Save Result As in the window; the editor takes it while it has the focus
    // (KernelEditor), so the menu only names it.
    save_->setText(save_->text() + QLatin1Char('\t') + QKeySequence(QKeySequence::Save).toString(QKeySequence::NativeText));
    run_ = new QAction(tr("&Compile and Run"), this);
    run_->setObjectName(QStringLiteral("compileRunAction"));
    run_->setShortcuts({QKeySequence(Qt::CTRL | Qt::Key_Return), QKeySequence(Qt::CTRL | Qt::Key_Enter)});
    run_->setShortcutContext(Qt::WindowShortcut);
    run_->setToolTip(tr("Compile your kernel and run it as the current family's variant \"yours: NAME\" (Ctrl+Enter)"));
    stop_ = new QAction(tr("S&top Kernel"), this);
    stop_->setObjectName(QStringLiteral("stopKernelAction"));
    stop_->setEnabled(false);
    connect(new_, &QAction::triggered, this, [this] { newKernel(); });
    connect(open_, &QAction::triggered, this, &EditorActions::openKernelDialog);
    connect(save_, &QAction::triggered, this, [this] { saveKernel(); });
    connect(run_, &QAction::triggered, this, &EditorActions::compileAndRun);
    connect(stop_, &QAction::triggered, this, &EditorActions::stop);
}

// The worker first: a run still going is asked to stop (its child process is ended) and joined.
EditorActions::~EditorActions() { runner_.reset(); }

void EditorActions::addToFileMenu(QMenu* file_menu) {
    file_menu->addAction(new_);
    // Every lecture kernel of the page in front's family, listed when the menu opens.
    new_from_ = file_menu->addMenu(tr("New Kernel &From"));
    new_from_->setObjectName(QStringLiteral("newKernelFromMenu"));
    connect(new_from_, &QMenu::aboutToShow, this, [this] {
        new_from_->clear();
        for (const QString& path : lecture_kernel_files(window_->launchPanel()->family()))
            new_from_->addAction(QFileInfo(path).fileName(), this, [this, path] { newKernelFrom(path); });
    });
    file_menu->addAction(open_);
    file_menu->addAction(save_);
}

void EditorActions::addToRunMenu(QMenu* run_menu) {
    run_menu->addAction(run_);
    run_menu->addAction(stop_);
    window_->addAction(run_);  // Ctrl+Enter wherever the focus is
}

void EditorActions::createDock() {
    panel_ = new KernelEditorPanel(store_, window_);
    panel_->setObjectName(QStringLiteral("kernelEditorPanel"));
    dock_ = new QDockWidget(tr("Kernel Editor"), window_);
    dock_->setObjectName(QStringLiteral("kernelEditorDock"));
    // Scrolls when short, as every dock: no combination of open panels makes the window taller than the screen.
    dock_->setWidget(new DockScrollArea(panel_, window_));
    window_->addDockWidget(Qt::BottomDockWidgetArea, dock_);
    // In the Source view's place, above the Execution bar (not beside it).
    if (QDockWidget* source = window_->dock(PageDocks::Source)) window_->tabifyDockWidget(source, dock_);
    dock_->hide();
    // Under the pages, a tab beside the Source view: the code wants the window's width, and the two
    // stacked would take the page's height. Made whenever both are open (tabbing a dock with a hidden
    // one does not last).
    if (QDockWidget* source = window_->dock(PageDocks::Source)) {
        // Only on opening: closing also comes while the window is being destroyed.
        // After the show event that toggled the action: tabifying inside it does not take.
        // The one opened last stays in front.
        auto tab = [this, source](QDockWidget* opened) {
            QTimer::singleShot(0, this, [this, source, opened] {
                if (dock_->isHidden() || source->isHidden()) return;
                if (!window_->tabifiedDockWidgets(dock_).contains(source)) window_->tabifyDockWidget(source, dock_);
                opened->raise();
            });
        };
        connect(dock_->toggleViewAction(), &QAction::toggled, this, [this, tab](bool open) {
            if (open) tab(dock_);
        });
        connect(source->toggleViewAction(), &QAction::toggled, this, [source, tab](bool open) {
            if (open) tab(source);
        });
    }
    if (QMenu* panels = window_->panelsMenu()) panels->addAction(dock_->toggleViewAction());
    connect(panel_, &KernelEditorPanel::message, this, &EditorActions::message);
    connect(panel_, &KernelEditorPanel::runRequested, run_, &QAction::trigger);
    connect(panel_, &KernelEditorPanel::stopRequested, stop_, &QAction::trigger);
    connect(panel_, &KernelEditorPanel::elementChosen, this, &EditorActions::showElement);
    panel_->restore();
    // The kernel chooser lists the kernels that fit the page in front's family first.
    auto forms = [this] {
        const AppFamily& f = app_family(window_->launchPanel()->family());
        panel_->setFamilyForms(f.user_forms ? f.user_forms().forms : std::vector<user::CallForm>{});
    };
    forms();
    connect(window_->tabs(), &QTabWidget::currentChanged, this, [this, forms] { QTimer::singleShot(0, this, forms); });
    // First opened with nothing to show: the current family's lecture kernel, ready to edit.
    connect(dock_->toggleViewAction(), &QAction::toggled, this, [this](bool open) {
        if (open && panel_->file().isEmpty()) newKernel();
    });
}

void EditorActions::showDock() {
    const bool was_hidden = dock_->isHidden();
    dock_->show();
    dock_->raise();
    panel_->editor()->setFocus();
    // Opened, it takes half the window's height (the page keeps at least its minimum) and the Execution
    // bar under it only what it needs: the docks' size hints alone would leave the code a few lines.
    if (was_hidden)
        QTimer::singleShot(0, this, [this] {
            QList<QDockWidget*> docks{dock_};
            QList<int> heights{window_->height() / 2};
            if (QDockWidget* timeline = window_->dock(PageDocks::Timeline); timeline && !timeline->isHidden()) {
                docks << timeline;
                heights << timeline->minimumSizeHint().height();
            }
            window_->resizeDocks(docks, heights, Qt::Vertical);
        });
}

bool EditorActions::newKernel() { return startFrom(lecture_kernel_for(window_->launchPanel()->family())); }

bool EditorActions::newKernelFrom(const QString& lecture_path) { return startFrom(lecture_kernel(lecture_path)); }

bool EditorActions::startFrom(const LectureKernel& lecture) {
    if (!lecture.error.isEmpty()) {
        emit message(lecture.error, true);
        emit failed(lecture.error);
        return false;
    }
    panel_->newKernel(lecture.name, lecture.text);
    showDock();
    emit message(tr("New kernel %1 from the lecture's %2: edit it, then Compile and Run (Ctrl+Enter)")
                     .arg(QFileInfo(panel_->file()).fileName(), lecture.name),
                 false);
    return true;
}

void EditorActions::openKernelDialog() {
    const QString start = panel_->file().isEmpty() ? store_->folder() : QFileInfo(panel_->file()).absolutePath();
    const QString path = QFileDialog::getOpenFileName(window_, tr("Open Kernel"), start,
                                                      tr("CUDA sources (*.cu *.cuh);;All files (*)"));
    if (!path.isEmpty()) openKernel(path);
}

bool EditorActions::openKernel(const QString& path) {
    QString error;
    if (!panel_->openKernel(path, &error)) {
        emit message(error, true);
        emit failed(error);
        return false;
    }
    showDock();
    emit message(tr("Opened %1").arg(QDir::toNativeSeparators(path)), false);
    return true;
}

bool EditorActions::saveKernel() {
    QString error;
    if (panel_->save(&error)) return true;
    emit failed(error);
    return false;
}

}  // namespace cvz

namespace cvz {

void EditorActions::showElement(quint64 index) {
    if (KernelPage* page = window_->currentPage()) page->showOutputElement(index);
}

bool EditorActions::running() const { return panel_ && panel_->isRunning(); }

void EditorActions::stop() {
    if (!running()) return;
    ticket_.cancel();
    panel_->setRunning(true, tr("Stopping\u2026"));
}

void EditorActions::compileAndRun() {
    if (running()) return;
    showDock();
    KernelPage* page = window_->currentPage();
    std::shared_ptr<user::FamilyCall> call(page ? page->userKernelCall() : nullptr);
    if (!call) {
        const QString text = tr("The page in front has no input for your kernel yet: open one first.");
        panel_->addMessage(KernelEditorPanel::Severity::Error, text);
        emit message(text, true);
        return;
    }
    QString error;
    if (!panel_->save(&error)) emit message(error, true);  // the run goes on with the text shown (autosaved)

    const KernelFamily family = window_->launchPanel()->family();
    panel_->setFamilyForms(call->forms());  // the kernel chooser, with what was typed last
    UserRunRequest request;
    request.source = panel_->source();
    request.kernel_name = panel_->chosenKernel().toStdString();  // empty: the file's only kernel
    request.backend = window_->backendChoice();
    request.writers = true;
    // The block the page will launch the kernel with once it is the family's variant, so that the page
    // shows this run rather than running it again (offer_user_run): the block set for it when it is
    // the variant chosen already, else the one choosing it gives. A kernel that fits no form keeps the
    // family's default, and the run says why it cannot go further.
    user::KernelSignature signature;
    if (user::select_kernel(request.source, user::find_kernels(request.source), request.kernel_name, &signature)) {
        if (const user::FormChoice form = user::pick_form(signature, call->forms()); form.form) {
            const LaunchChoice chosen = window_->launchPanel()->choice();
            const UserVariantPtr v = find_user_variant(family, signature.name);
            request.block = v && chosen.ref == v->ref ? user_launched_block(*v, chosen)
                                                      : window_->launchPanel()->blockWhenChosen(call->one_d(*form.form));
        }
    }

    panel_->clearMessages();
    panel_->setRunning(true, tr("Compiling and running %1\u2026").arg(QString::fromStdString(request.source.name)));
    run_->setEnabled(false);
    stop_->setEnabled(true);
    ticket_ = runner_->submit(QStringLiteral("user-kernel"), this, [this, call, request, family](JobControl& control) mutable {
        request.cancel = &control.cancelToken();
        auto result = std::make_shared<UserRunResult>(run_user_kernel(*call, request));
        offer_user_run(*call, request, *result);  // the page's run of its new variant takes this one
        // Texts made here, where the problem is: which element, where it is, who wrote it.
        QStringList differences;
        const std::size_t out = call->output_arg();
        const std::string buffer = out < result->signature.params.size() ? result->signature.params[out].name : "out";
        for (const user::Difference& d : result->comparison.listed)
            differences << QString::fromStdString(
                user::difference_text(d, buffer, call->where(d.index), result->grid, result->block));
        return JobRunner::Continuation([this, family, result, differences, source = request.source] {
            finishRun(family, source, *result, differences);
        });
    });
}

void EditorActions::finishRun(KernelFamily family, const user::SourceFile& source, const UserRunResult& r,
                              const QStringList& differences) {
    using Severity = KernelEditorPanel::Severity;
    panel_->setRunning(false);
    run_->setEnabled(true);
    stop_->setEnabled(false);
    panel_->showDiagnostics(r.diagnostics);
    const QString name = QString::fromStdString(r.signature.name.empty() ? panel_->kernelName().toStdString() : r.signature.name);
    const QString status = QString::fromStdString(r.status.message());

    if (r.stage == UserRunStage::Compile) {
        const auto errors = std::count_if(r.diagnostics.begin(), r.diagnostics.end(), [](const user::Diagnostic& d) { return d.error; });
        emit message(errors == 1 ? tr("%1 did not compile: 1 error, marked in the editor").arg(name)
                                 : tr("%1 did not compile: %2 errors, marked in the editor").arg(name).arg(errors),
                     true);
        emit runFinished(false);
        return;
    }
    if (!r.ok()) {
        if (r.fault != user::Fault::None) {
            const unsigned line = fault_line(status);
            panel_->showFault(line, status, fault_heading(r.fault));
            // The heading and the line: the whole message (thread, buffer, offset) is the editor's, where
            // it has the width; in the status bar of a narrow window it would be cut.
            emit message(line ? tr("%1 stopped: %2 at line %3 (the Kernel Editor says where)").arg(name, fault_heading(r.fault)).arg(line)
                              : tr("%1 stopped: %2 (the Kernel Editor says why)").arg(name, fault_heading(r.fault)),
                         true);
        } else {
            // Before the compile (which kernel, its form, the launch) or the backend.
            panel_->addMessage(Severity::Error, status);
            emit message(status, true);
        }
        emit runFinished(false);
        return;
    }

    panel_->addMessage(Severity::Info, tr("%1 ran on %2: grid %3, block %4, %5 ms (compiled in %6 s)")
                                           .arg(name, r.backend, dims(r.grid), dims(r.block))
                                           .arg(r.run_ms, 0, 'f', 3)
                                           .arg(r.compile_s, 0, 'f', 2));
    const QString summary = QString::fromStdString(user::comparison_summary(r.comparison));
    QString sentence = summary;
    if (!sentence.isEmpty()) sentence[0] = sentence[0].toUpper();
    panel_->addMessage(r.comparison.matches() ? Severity::Info : Severity::Difference, sentence);
    for (int i = 0; i < differences.size() && i < int(r.comparison.listed.size()); ++i)
        panel_->addDifference(differences[i], r.comparison.listed[std::size_t(i)].index);

    // The kernel becomes a variant of the family, chosen in the launch panel; the page's run of it is
    // this one (offer_user_run). Chosen already (a new text of the same kernel), the page runs it again.
    const KernelRef before = window_->launchPanel()->choice().ref;
    UserVariant variant;
    variant.name = r.signature.name;
    variant.source = source;  // the text that ran (it may have been edited since)
    variant.signature = r.signature;
    variant.form = r.form;
    variant.one_d = r.one_d;
    variant.barriers = r.barriers;
    variant.resources = r.resources;
    const UserVariantPtr registered = register_user_variant(family, std::move(variant));
    if (!registered) {
        panel_->addMessage(Severity::Warning, tr("Too many kernels of yours in this family: %1 is not listed").arg(name));
    } else if (window_->launchPanel()->family() == family) {
        window_->launchPanel()->refreshKernels();
        if (before == registered->ref) {
            if (KernelPage* page = window_->currentPage()) page->runAgain();
        } else {
            window_->launchPanel()->chooseKernel(QString::fromStdString(registered->title()));
        }
    }
    // The first difference marked on the output (the others by a click in the list).
    if (!r.comparison.listed.empty()) showElement(r.comparison.listed.front().index);
    emit message(tr("%1 ran: %2").arg(name, summary), !r.comparison.matches());
    emit runFinished(true);
}

}  // namespace cvz
