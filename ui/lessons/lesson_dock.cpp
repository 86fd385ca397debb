#include "ui/lessons/lesson_dock.h"

#include <QColor>
#include <QFont>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QRegularExpression>
#include <QSplitter>
#include <QTextBrowser>
#include <QTextDocument>
#include <QVBoxLayout>

#include "app/jobs/job_runner.h"
#include "ui/windows/main_window.h"

namespace cvz {

using lessons::AnswerFrom;
using lessons::CheckResult;
using lessons::LessonStep;
using lessons::TaskKind;

namespace {

QString mark_symbol(LessonProgress::Mark mark) {
    switch (mark) {
        case LessonProgress::Mark::Passed: return QStringLiteral("\u2713");  // ✓
        case LessonProgress::Mark::Tried: return QStringLiteral("\u2717");   // ✗
        case LessonProgress::Mark::New: break;
    }
    return QStringLiteral("\u25CB");  // ○
}

QString mark_text(LessonProgress::Mark mark) {
    switch (mark) {
        case LessonProgress::Mark::Passed: return QObject::tr("passed");
        case LessonProgress::Mark::Tried: return QObject::tr("tried, not passed yet");
        case LessonProgress::Mark::New: break;
    }
    return QObject::tr("not tried yet");
}

// A reason or hint as the label shows it: escaped, with Markdown's `code` and **bold** kept (the lesson
// files and the checks write them so).
QString inline_html(const QString& text) {
    QString html = text.toHtmlEscaped();
    static const QRegularExpression code(QStringLiteral("`([^`]+)`"));
    static const QRegularExpression bold(QStringLiteral("\\*\\*([^*]+)\\*\\*"));
    html.replace(code, QStringLiteral("<code>\\1</code>"));
    html.replace(bold, QStringLiteral("<b>\\1</b>"));
    return html;
}

}  // namespace

LessonDock::LessonDock(MainWindow* window, const QString& lessons_dir, QWidget* parent)
    : QWidget(parent), window_(window), dir_(lessons_dir), applier_(window, lessons_dir),
      runner_(std::make_unique<JobRunner>()) {
    steps_ = lessons::load_lessons(dir_, &load_error_);
    buildUi();
    // A check dropped before it started never reaches its continuation: end it here.
    connect(runner_.get(), &JobRunner::cancelled, this, [this](quint64 id) {
        if (checking_ && id == ticket_.id()) finishCheck(QString(), {}, true);
    });
    refreshList();
    showRemembered();
}

LessonDock::~LessonDock() {
    ticket_.cancel();
    runner_.reset();  // joins the worker before the widgets go
}

void LessonDock::buildUi() {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    auto* split = split_ = new QSplitter(Qt::Vertical, this);
    split->setObjectName(QStringLiteral("lessonSplit"));
    split->setChildrenCollapsible(false);

    list_ = new QListWidget(split);
    list_->setObjectName(QStringLiteral("lessonSteps"));
    list_->setMinimumHeight(40);
    list_->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Ignored);
    list_->setToolTip(tr("The path through the lecture: \u2713 passed, \u2717 tried, \u25CB not tried yet"));
    connect(list_, &QListWidget::itemActivated, this, [this](QListWidgetItem* item) { openIndex(list_->row(item)); });
    connect(list_, &QListWidget::itemClicked, this, [this](QListWidgetItem* item) {
        if (list_->row(item) != current_) openIndex(list_->row(item));
    });

    auto* step_box = new QWidget(split);
    auto* step_layout = step_layout_ = new QVBoxLayout(step_box);
    step_layout->setContentsMargins(0, 0, 0, 0);
    title_ = new QLabel(step_box);
    title_->setObjectName(QStringLiteral("lessonTitle"));
    title_->setWordWrap(true);
    QFont bold = title_->font();
    bold.setBold(true);
    title_->setFont(bold);
    text_ = new QTextBrowser(step_box);
    text_->setObjectName(QStringLiteral("lessonText"));
    text_->setOpenExternalLinks(true);
    text_->setMinimumHeight(60);
    // Their wanted heights would make the dock's content taller than a small screen's dock (its word-wrapped
    // labels make the scroll area ask the content's height for its width): they take what is left.
    text_->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Ignored);
    step_layout->addWidget(title_);
    step_layout->addWidget(text_, 1);
    split->addWidget(list_);
    split->addWidget(step_box);
    split->setStretchFactor(0, 0);
    split->setStretchFactor(1, 1);
    split->setSizes({150, 400});
    layout->addWidget(split, 1);

    // The answer, the buttons and the result: under the steps in the wide dock; right under the step's
    // title in the compact one (setCompact), where the text gives way instead of Check.
    actions_ = new QWidget(this);
    actions_->setObjectName(QStringLiteral("lessonActions"));
    auto* actions = new QVBoxLayout(actions_);
    actions->setContentsMargins(0, 0, 0, 0);
    answer_note_ = new QLabel(actions_);
    answer_note_->setObjectName(QStringLiteral("lessonAnswerNote"));
    answer_note_->setWordWrap(true);
    actions->addWidget(answer_note_);
    answer_edit_ = new QLineEdit(actions_);
    answer_edit_->setObjectName(QStringLiteral("lessonAnswer"));
    answer_edit_->setPlaceholderText(tr("Your answer"));
    connect(answer_edit_, &QLineEdit::returnPressed, this, &LessonDock::check);
    actions->addWidget(answer_edit_);

    auto* buttons = new QHBoxLayout;
    back_ = new QPushButton(tr("\u2190 Back"), actions_);
    back_->setObjectName(QStringLiteral("lessonBack"));
    back_->setToolTip(tr("The step before, with its state"));
    check_ = new QPushButton(tr("Check"), actions_);
    check_->setObjectName(QStringLiteral("lessonCheck"));
    check_->setToolTip(tr("Check your answer (kernels run on the emulator: a few seconds)"));
    check_->setDefault(true);
    cancel_ = new QPushButton(tr("Cancel"), actions_);
    cancel_->setObjectName(QStringLiteral("lessonCancel"));
    cancel_->setToolTip(tr("Stop the check in progress"));
    cancel_->hide();
    next_ = new QPushButton(tr("Next \u2192"), actions_);
    next_->setObjectName(QStringLiteral("lessonNext"));
    next_->setToolTip(tr("The next step, with its state"));
    // Show Solution in the same row: the dock stays short enough for a small screen.
    solution_ = new QPushButton(tr("Solution"), actions_);
    solution_->setObjectName(QStringLiteral("lessonSolution"));
    connect(solution_, &QPushButton::clicked, this, &LessonDock::showSolution);
    buttons->addWidget(back_);
    buttons->addWidget(check_, 1);
    buttons->addWidget(cancel_, 1);
    buttons->addWidget(solution_);
    buttons->addWidget(next_);
    actions->addLayout(buttons);
    connect(back_, &QPushButton::clicked, this, &LessonDock::back);
    connect(next_, &QPushButton::clicked, this, &LessonDock::next);
    connect(check_, &QPushButton::clicked, this, &LessonDock::check);
    connect(cancel_, &QPushButton::clicked, this, &LessonDock::cancel);

    result_ = new QLabel(actions_);
    result_->setObjectName(QStringLiteral("lessonResult"));
    result_->setWordWrap(true);
    result_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    result_->setTextFormat(Qt::RichText);
    actions->addWidget(result_);
    layout->addWidget(actions_);
}

void LessonDock::setCompact(bool compact) {
    // Compact: the answer, Check and the result under the title, the text (which scrolls) last, so a
    // short dock squeezes the text and never hides Check below the fold.
    if (compact) step_layout_->insertWidget(1, actions_);
    else layout()->addWidget(actions_);
    const int rows_height = list_->fontMetrics().height() * 3 + 2 * list_->frameWidth() + 4;
    list_->setMaximumHeight(compact ? rows_height : QWIDGETSIZE_MAX);
    split_->setSizes({compact ? rows_height : 150, 400});
}

const LessonStep* LessonDock::currentStep() const {
    return current_ >= 0 && current_ < int(steps_.size()) ? &steps_[std::size_t(current_)] : nullptr;
}

void LessonDock::refreshList() {
    const QSignalBlocker quiet(list_);
    list_->clear();
    for (std::size_t i = 0; i < steps_.size(); ++i) {
        const LessonStep& s = steps_[i];
        const LessonProgress::Mark mark = progress_.mark(s.id);
        auto* item = new QListWidgetItem(QStringLiteral("%1  %2. %3").arg(mark_symbol(mark)).arg(i + 1).arg(s.title), list_);
        item->setData(Qt::UserRole, s.id);
        item->setToolTip(tr("%1 (topic: %2) \u2014 %3").arg(s.id, s.topic, mark_text(mark)));
        if (mark == LessonProgress::Mark::Passed) item->setForeground(QColor(0x2e, 0x7d, 0x32));
        else if (mark == LessonProgress::Mark::Tried) item->setForeground(QColor(0xc6, 0x28, 0x28));
    }
    if (current_ >= 0) list_->setCurrentRow(current_);
}

void LessonDock::setSteps(std::vector<LessonStep> steps) {
    if (checking_) cancel();
    steps_ = std::move(steps);
    load_error_.clear();
    applied_ = false;
    current_ = -1;
    refreshList();
    showRemembered();
}

void LessonDock::showRemembered() {
    if (steps_.empty()) {
        current_ = -1;
        showStep();
        return;
    }
    current_ = 0;
    const QString remembered = progress_.currentStep();
    for (std::size_t i = 0; i < steps_.size(); ++i)
        if (steps_[i].id == remembered) current_ = int(i);
    list_->setCurrentRow(current_);
    showStep();
}

bool LessonDock::openStep(const QString& id) {
    for (std::size_t i = 0; i < steps_.size(); ++i)
        if (steps_[i].id == id) {
            openIndex(int(i));
            return true;
        }
    return false;
}

void LessonDock::openIndex(int index) {
    if (index < 0 || index >= int(steps_.size())) return;
    if (checking_) cancel();
    current_ = index;
    solution_shown_ = false;
    progress_.setCurrentStep(steps_[std::size_t(index)].id);
    {
        const QSignalBlocker quiet(list_);
        list_->setCurrentRow(index);
    }
    showStep();
    applied_ = true;  // before applying: a step that shows the lessons panel must not apply it again
    apply_problems_ = applier_.apply(steps_[std::size_t(index)]);
    if (!apply_problems_.isEmpty())
        showResult(QStringLiteral("<span style='color:#c62828'>%1</span>")
                       .arg(tr("Could not set up all of this step: %1").arg(apply_problems_.join(QStringLiteral("; ")).toHtmlEscaped())));
    emit stepApplied(steps_[std::size_t(index)].id);
}

void LessonDock::ensureApplied() {
    if (!applied_ && currentStep()) openIndex(current_);
}

void LessonDock::next() { openIndex(current_ + 1); }

void LessonDock::back() { openIndex(current_ - 1); }

void LessonDock::showStep() {
    showResult(QString());
    const LessonStep* step = currentStep();
    if (!step) {
        title_->setText(tr("No lessons"));
        text_->setPlainText(load_error_.isEmpty() ? tr("The lessons folder %1 has no steps.").arg(dir_) : load_error_);
        answer_note_->hide();
        answer_edit_->hide();
        updateButtons();
        return;
    }
    title_->setText(tr("Step %1 of %2: %3").arg(current_ + 1).arg(steps_.size()).arg(step->title));
    QString markdown = step->body.trimmed();
    if (!step->task.trimmed().isEmpty()) markdown += QStringLiteral("\n\n---\n\n**Your task.** ") + step->task.trimmed();
    if (solution_shown_ && step->kind != TaskKind::Kernel && !step->solution.isEmpty())
        markdown += QStringLiteral("\n\n---\n\n**Solution.** ") + step->solution.trimmed();
    text_->setMarkdown(markdown);
    answer_note_->setText(LessonStateApplier::answerSource(step->answer_from));
    answer_note_->show();
    answer_edit_->setVisible(step->answer_from == AnswerFrom::Text);
    if (step->answer_from != AnswerFrom::Text) answer_edit_->clear();
    updateButtons();
}

void LessonDock::updateButtons() {
    const LessonStep* step = currentStep();
    back_->setEnabled(!checking_ && current_ > 0);
    next_->setEnabled(!checking_ && step && current_ + 1 < int(steps_.size()));
    check_->setVisible(!checking_);
    cancel_->setVisible(checking_);
    check_->setEnabled(step != nullptr);
    const int failures = step ? progress_.failures(step->id) : 0;
    solution_->setEnabled(step && !checking_ && failures >= LessonProgress::kTriesBeforeSolution && !step->solution.isEmpty());
    solution_->setToolTip(solution_->isEnabled() || !step
                              ? tr("Show this step's solution (a kernel's opens in the editor as a new kernel)")
                              : tr("Offered after %1 failed checks (%2 so far)").arg(LessonProgress::kTriesBeforeSolution).arg(failures));
}

void LessonDock::setChecking(bool on) {
    checking_ = on;
    list_->setEnabled(!on);
    updateButtons();
}

void LessonDock::check() {
    const LessonStep* step = currentStep();
    if (!step || checking_) return;
    QString error;
    const QString answer = applier_.answer(*step, answer_edit_->text(), &error);
    if (!error.isEmpty()) {
        showResult(QStringLiteral("<span style='color:#c62828'>%1</span>").arg(error.toHtmlEscaped()));
        return;
    }
    const LessonStep copy = *step;
    const QString file = applier_.kernelFileName(*step);
    showResult(tr("Checking\u2026"));
    setChecking(true);
    ticket_ = runner_->submit(QStringLiteral("lesson-check"), this, [this, copy, answer, file](JobControl& control) -> JobRunner::Continuation {
        const CheckResult result = copy.kind == TaskKind::Kernel
                                       ? lessons::check_kernel(copy, answer, file, &control.cancelToken())
                                       : lessons::check_answer(copy, answer, &control.cancelToken());
        const bool cancelled = control.cancelRequested();
        return [this, id = copy.id, result, cancelled] { finishCheck(id, result, cancelled); };
    });
    emit checkStarted();
}

void LessonDock::cancel() {
    if (!checking_) return;
    showResult(tr("Cancelling\u2026"));
    ticket_.cancel();
}

void LessonDock::finishCheck(const QString& id, const CheckResult& result, bool cancelled) {
    if (!checking_) return;
    setChecking(false);
    if (cancelled) {
        showResult(tr("Check cancelled."));
        emit checkCancelled();
        return;
    }
    progress_.record(id, result.passed);
    refreshList();
    const LessonStep* step = currentStep();
    if (result.passed) {
        QString html = QStringLiteral("<b style='color:#2e7d32'>\u2713 %1</b>").arg(tr("Passed."));
        if (!result.reason.isEmpty()) html += QLatin1Char(' ') + inline_html(result.reason);
        if (current_ + 1 < int(steps_.size())) html += QLatin1Char(' ') + tr("On to the next step.").toHtmlEscaped();
        showResult(html);
        emit message(tr("Lesson step %1 passed").arg(id), false);
    } else {
        QString html = QStringLiteral("<b style='color:#c62828'>\u2717 %1</b> %2").arg(tr("Not yet:"), inline_html(result.reason));
        const QString hint = !result.hint.isEmpty() ? result.hint : (step && step->id == id ? step->hint : QString());
        if (!hint.isEmpty()) html += QStringLiteral("<br><i>%1</i> %2").arg(tr("Hint:"), inline_html(hint));
        showResult(html);
    }
    updateButtons();
    emit checkFinished(result.passed);
}

// Hidden while empty: no blank line between the buttons and the step's text.
void LessonDock::showResult(const QString& html) {
    result_->setText(html);
    result_->setVisible(!html.isEmpty());
}

QString LessonDock::resultText() const {
    QTextDocument doc;
    doc.setHtml(result_->text());
    return doc.toPlainText();
}

void LessonDock::showSolution() {
    const LessonStep* step = currentStep();
    if (!step || !solution_->isEnabled()) return;
    if (step->kind == TaskKind::Kernel) {
        QString error;
        if (!applier_.openSolution(*step, &error))
            showResult(QStringLiteral("<span style='color:#c62828'>%1</span>").arg(error.toHtmlEscaped()));
        else
            showResult(tr("The solution is open in the Kernel Editor as a new kernel; yours is kept in its list.").toHtmlEscaped());
        return;
    }
    solution_shown_ = true;
    const QString kept = result_->text();
    showStep();
    showResult(kept);
    text_->moveCursor(QTextCursor::End);
    text_->ensureCursorVisible();
}

}  // namespace cvz
