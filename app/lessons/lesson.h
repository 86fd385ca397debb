#pragma once
// The guided path through the lecture (issue 28): one step per Markdown file in the lessons folder,
// each with the app state it sets, a task, and an automatic check. Qt Core only: the GUI's lessons
// dock and the CLI's `lessons` / `lesson check` both read steps and check answers through this header.
#include <QString>
#include <QStringList>
#include <QVariantMap>

#include <vector>

namespace cvz {
class CancelToken;
}

namespace cvz::lessons {

enum class TaskKind { Act, Kernel };  // act in the app / write or fix a kernel in the editor
enum class AnswerFrom { Block, Layout, Pixel, Kernel, Text, Occupancy };
// What the GUI sends as the answer, by AnswerFrom:
//   Block:  "32x8" or "256" (the launch panel's block)   Layout: "planar" | "interleaved"
//   Pixel:  "bx,by,tx,ty" of the inspected thread        Kernel: the editor's text (check_kernel)
//   Text:   what the learner typed                         Occupancy: the block as for Block

struct LessonState {     // what a step sets in the app; empty/absent fields are left as they are
    QString page;        // the GUI's page name: one of `cudaviz --list-pages`
    QString image;       // a bundled sample (resources/samples file name) or a generated size "WxH"
    QString matrices;    // "MxKxN": generated matrices of that size, or empty
    QString kernel;      // a variant name from the catalogue (`cudaviz-cli kernels`), or empty
    QString block;       // "16x16" / "256", or empty
    QString layout;      // "planar" | "interleaved" | empty
    QStringList show;    // panels, as cudaviz --show names ("overlay", "inspector", "editor", ...)
    QString starter;     // Kernel steps: the starter file, relative to the lessons folder (starters/x.cu)
};

struct LessonStep {
    QString id, title, topic;  // topic: one of the twelve ids of issue 28
    int order = 0;             // position on the path (file order)
    TaskKind kind = TaskKind::Act;
    AnswerFrom answer_from = AnswerFrom::Text;
    QString body;      // Markdown: the teaching text
    QString task;      // one paragraph: what to do
    QString hint;      // shown after a failed check
    QString solution;  // Markdown (kernel steps: the solution kernel's text)
    LessonState state;
    QString check;           // the check's kind, e.g. "no-idle-threads", "kernel:<step id>"
    QVariantMap check_args;  // the check's parameters from the header
};

struct CheckResult {
    bool passed = false;
    QString reason;
    QString hint;
};

// The twelve topic ids of issue 28, in the lecture's order.
const QStringList& topic_ids();
// The check kinds a lesson file's `check:` may name.
const QStringList& check_kinds();

// ":/lessons" when embedded in the binary (GUI), else $CUDAVIZ_LESSONS_DIR, else the source tree's
// resources/lessons.
QString lessons_dir();
// Every good step of the folder, sorted by file name; *error empty, or naming each bad file and why
// (the good steps are still returned).
std::vector<LessonStep> load_lessons(const QString& dir, QString* error);
const LessonStep* find_step(const std::vector<LessonStep>& steps, const QString& id);
// The step's starter kernel text, empty when it has none.
QString starter_text(const LessonStep& step, const QString& dir);

// Both may take seconds (they run kernels on the emulator): call on a worker thread; cancel honoured.
// check_answer on a Kernel step forwards to check_kernel with file name "<id>.cu".
CheckResult check_answer(const LessonStep& step, const QString& answer, const CancelToken* cancel = nullptr);
CheckResult check_kernel(const LessonStep& step, const QString& source_text, const QString& file_name,
                         const CancelToken* cancel = nullptr);

}  // namespace cvz::lessons
