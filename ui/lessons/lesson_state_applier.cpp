#include "ui/lessons/lesson_state_applier.h"

#include <QDir>
#include <QDockWidget>
#include <QFileInfo>
#include <QTabWidget>

#include <algorithm>

#include "app/family/launch_choice.h"
#include "ui/editor/editor_actions.h"
#include "ui/editor/kernel_editor.h"
#include "ui/editor/kernel_editor_panel.h"
#include "ui/editor/kernel_store.h"
#include "ui/panels/launch_panel.h"
#include "ui/panels/launch_shape_box.h"
#include "ui/windows/main_window.h"

namespace cvz {

using lessons::AnswerFrom;
using lessons::LessonStep;
using lessons::TaskKind;

namespace {

// "16x16" -> {16, 16, 1}; "256" -> {256, 1, 1} (one_d); nullopt when it is neither.
bool parse_block(const QString& text, Dim3* block, bool* one_d) {
    const QStringList parts = text.trimmed().toLower().split(QLatin1Char('x'));
    if (parts.isEmpty() || parts.size() > 3) return false;
    unsigned d[3] = {1, 1, 1};
    for (int i = 0; i < parts.size(); ++i) {
        bool ok = false;
        d[i] = parts[i].trimmed().toUInt(&ok);
        if (!ok || d[i] == 0) return false;
    }
    *block = Dim3{d[0], d[1], d[2]};
    *one_d = parts.size() == 1;
    return true;
}

// The fenced code of a Markdown text ("```cuda ... ```"), else the text itself.
QString code_of(const QString& markdown) {
    const int open = markdown.indexOf(QLatin1String("```"));
    if (open < 0) return markdown;
    const int start = markdown.indexOf(QLatin1Char('\n'), open);
    const int close = start < 0 ? -1 : markdown.indexOf(QLatin1String("```"), start);
    if (close < 0) return markdown;
    return markdown.mid(start + 1, close - start - 1);
}

}  // namespace

LessonStateApplier::LessonStateApplier(MainWindow* window, QString lessons_dir)
    : window_(window), dir_(std::move(lessons_dir)) {}

QStringList LessonStateApplier::apply(const LessonStep& step) {
    const lessons::LessonState& s = step.state;
    QStringList problems;
    auto note = [&](const QString& what, const QString& why) {
        if (!why.isEmpty()) problems << QObject::tr("%1: %2").arg(what, why);
    };
    if (!s.page.isEmpty()) {
        KernelPage* page = window_->findPage(s.page);
        if (page) window_->tabs()->setCurrentWidget(page);
        else note(QObject::tr("page"), QObject::tr("there is no page \"%1\"").arg(s.page));
    }
    KernelPage* page = window_->currentPage();
    if (!s.image.isEmpty()) note(QObject::tr("image"), page->setLessonInput(s.image));
    if (!s.matrices.isEmpty()) note(QObject::tr("matrices"), page->setLessonInput(s.matrices));
    LaunchPanel* launch = window_->launchPanel();
    if (!s.kernel.isEmpty() && launch->variantInfo() && QString::fromStdString(launch->variantInfo()->name) != s.kernel &&
        !launch->chooseKernel(s.kernel))
        note(QObject::tr("kernel"), QObject::tr("the %1 page has no kernel \"%2\"").arg(page->pageName(), s.kernel));
    if (!s.block.isEmpty()) note(QObject::tr("block"), applyBlock(s.block));
    if (!s.layout.isEmpty()) note(QObject::tr("layout"), page->setOption(QStringLiteral("layout"), s.layout));
    // The editor through its own showDock, which gives it a readable height (a plain show leaves it a
    // few lines under the other docks).
    QStringList show = s.show;
    const bool editor = show.removeAll(QStringLiteral("editor")) > 0 || step.kind == TaskKind::Kernel;
    // The first named is the one the step is about: raised last, so that it is in front of its tab group.
    std::reverse(show.begin(), show.end());
    if (!show.isEmpty()) note(QObject::tr("panels"), window_->showPanels(show));
    if (step.kind == TaskKind::Kernel) note(QObject::tr("kernel editor"), openStarter(step));
    else if (editor) window_->editorActions()->showDock();
    launch->syncNow();
    return problems;
}

// The block through the launch panel, as the learner would set it: a TILE variant takes a square block
// as its TILE, a fixed block is left as it is, a block of the other rule goes to the family's first
// variant of that rule (the shape field's way).
QString LessonStateApplier::applyBlock(const QString& text) {
    Dim3 block;
    bool one_d = false;
    if (!parse_block(text, &block, &one_d)) return QObject::tr("\"%1\" is not a block (\"256\" or \"16x16\")").arg(text);
    LaunchPanel* launch = window_->launchPanel();
    const KernelInfo* info = launch->variantInfo();
    LaunchChoice choice = launch->choice();
    if (info && info->block == BlockRule::Tile) {
        const bool listed = std::find(info->tiles.begin(), info->tiles.end(), block.x) != info->tiles.end();
        if (block.x != block.y || !listed)
            return QObject::tr("the kernel %1 takes a TILE×TILE block of a TILE it is compiled for, not %2")
                .arg(QString::fromStdString(info->name), text);
        choice.ref.tile = block.x;
        launch->setChoice(choice);
        return {};
    }
    if (info && info->block == BlockRule::Fixed) {
        if (launched_block(choice) == block) return {};
        return QObject::tr("the kernel %1 has a fixed block").arg(QString::fromStdString(info->name));
    }
    if (info && info->block == (one_d ? BlockRule::OneD : BlockRule::TwoD)) {
        choice.block = block;
        launch->setChoice(choice);
        return {};
    }
    return launch->shapeBox()->setShapeText(text);
}

QString LessonStateApplier::kernelPath(const LessonStep& step) const {
    return QDir(window_->editorActions()->store()->folder()).filePath(step.id + QStringLiteral(".cu"));
}

// The learner's own kernel for the step when the store keeps one, else the step's starter as a new
// kernel of that name (saved at once, so that coming back to the step finds it).
QString LessonStateApplier::openStarter(const LessonStep& step) {
    EditorActions* editor = window_->editorActions();
    KernelEditorPanel* panel = editor->panel();
    const QString path = kernelPath(step);
    QString error;
    if (QFileInfo(panel->file()).absoluteFilePath() == QFileInfo(path).absoluteFilePath()) {
        // Already in front.
    } else if (QFileInfo::exists(path)) {
        if (!panel->openKernel(path, &error)) return error;
    } else {
        const QString starter = lessons::starter_text(step, dir_);
        if (starter.isEmpty() && !step.state.starter.isEmpty())
            return QObject::tr("the starter %1 cannot be read").arg(step.state.starter);
        if (!editor->store()->ensureFolder(&error)) return error;
        panel->newKernel(step.id, starter);
        if (!panel->save(&error)) return error;
    }
    editor->showDock();
    return {};
}

bool LessonStateApplier::openSolution(const LessonStep& step, QString* error) {
    EditorActions* editor = window_->editorActions();
    KernelEditorPanel* panel = editor->panel();
    if (!editor->store()->ensureFolder(error)) return false;
    // newKernel saves the learner's text first: it stays in the store, a click away in the list.
    panel->newKernel(step.id + QStringLiteral("-solution"), code_of(step.solution));
    if (!panel->save(error)) return false;
    editor->showDock();
    return true;
}

QString LessonStateApplier::kernelFileName(const LessonStep& step) const {
    const QString file = window_->editorActions()->panel()->file();
    return file.isEmpty() ? step.id + QStringLiteral(".cu") : QFileInfo(file).fileName();
}

QString LessonStateApplier::answer(const LessonStep& step, const QString& typed, QString* error) const {
    KernelPage* page = window_->currentPage();
    switch (step.answer_from) {
        case AnswerFrom::Block:
        case AnswerFrom::Occupancy: {
            LaunchPanel* launch = window_->launchPanel();
            const LaunchChoice choice = launch->choice();
            const KernelInfo* info = launch->variantInfo();
            const Dim3 block = launched_block(choice);
            if (info && info->block == BlockRule::OneD) return QString::number(block.x);
            return QStringLiteral("%1x%2").arg(block.x).arg(block.y);
        }
        case AnswerFrom::Layout: {
            const QString layout = page->option(QStringLiteral("layout"));
            if (layout.isEmpty() && error)
                *error = QObject::tr("the %1 page has no pixel layout: go to the image page").arg(page->pageName());
            return layout;
        }
        case AnswerFrom::Pixel: {
            const QString thread = page->pickedThread();
            if (thread.isEmpty() && error) *error = QObject::tr("no thread is picked: click a pixel or an element first");
            return thread;
        }
        case AnswerFrom::Kernel: {
            const QString text = window_->editorActions()->panel()->editor()->text();
            if (text.trimmed().isEmpty() && error) *error = QObject::tr("the kernel editor is empty");
            return text;
        }
        case AnswerFrom::Text:
            if (typed.trimmed().isEmpty() && error) *error = QObject::tr("type your answer first");
            return typed.trimmed();
    }
    return {};
}

QString LessonStateApplier::answerSource(AnswerFrom from) {
    switch (from) {
        case AnswerFrom::Block: return QObject::tr("Your answer is the Launch panel's block.");
        case AnswerFrom::Occupancy: return QObject::tr("Your answer is the Launch panel's block (see the Occupancy panel).");
        case AnswerFrom::Layout: return QObject::tr("Your answer is the Launch panel's pixel layout.");
        case AnswerFrom::Pixel: return QObject::tr("Your answer is the thread you picked: click a pixel (or an element of C).");
        case AnswerFrom::Kernel: return QObject::tr("Your answer is the kernel in the Kernel Editor.");
        case AnswerFrom::Text: return QObject::tr("Type your answer:");
    }
    return {};
}

}  // namespace cvz
