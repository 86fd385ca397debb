#include "lessons_command.h"

#include <QCommandLineParser>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>

#include "app/lessons/lesson.h"
#include "exit_codes.h"
#include "help_text.h"

namespace cvz::cli {

namespace {

// The same limit as --kernel-file of a family's command: a kernel is not a megabyte long.
constexpr qint64 kMostSourceBytes = qint64(1) << 20;

QString kind_text(const lessons::LessonStep& s) {
    switch (s.answer_from) {
        case lessons::AnswerFrom::Kernel: return QStringLiteral("kernel");
        case lessons::AnswerFrom::Block: return QStringLiteral("block");
        case lessons::AnswerFrom::Layout: return QStringLiteral("layout");
        case lessons::AnswerFrom::Pixel: return QStringLiteral("pixel");
        case lessons::AnswerFrom::Occupancy: return QStringLiteral("occupancy");
        case lessons::AnswerFrom::Text: break;
    }
    return QStringLiteral("text");
}

// What --answer takes for a step, in the words of the help.
QString answer_form(const lessons::LessonStep& s) {
    switch (s.answer_from) {
        case lessons::AnswerFrom::Block:
        case lessons::AnswerFrom::Occupancy: return QStringLiteral("a block, e.g. --answer 256 or --answer 32x8");
        case lessons::AnswerFrom::Layout: return QStringLiteral("a layout: --answer planar or --answer interleaved");
        case lessons::AnswerFrom::Pixel: return QStringLiteral("the thread as bx,by,tx,ty, e.g. --answer 2,0,39,0");
        case lessons::AnswerFrom::Kernel: return QStringLiteral("a kernel: --kernel-file FILE.cu");
        case lessons::AnswerFrom::Text: break;
    }
    return QStringLiteral("a number or a word: --answer TEXT");
}

// The steps of lessons_dir(); a bad file is reported on stderr and left out, as the GUI leaves it out.
std::vector<lessons::LessonStep> load(QTextStream& err, const QString& command) {
    QString error;
    std::vector<lessons::LessonStep> steps = lessons::load_lessons(lessons::lessons_dir(), &error);
    if (!error.isEmpty())
        for (const QString& line : error.split(QLatin1Char('\n'))) err << "cudaviz-cli " << command << ": " << line << "\n";
    return steps;
}

QString lessons_table(const std::vector<lessons::LessonStep>& steps) {
    int id_width = 2, topic_width = 5;
    for (const lessons::LessonStep& s : steps) {
        id_width = std::max(id_width, int(s.id.size()));
        topic_width = std::max(topic_width, int(s.topic.size()));
    }
    QString text = QStringLiteral("%1  %2  %3  %4  %5\n")
                       .arg(QStringLiteral("#").rightJustified(2), QStringLiteral("id").leftJustified(id_width),
                            QStringLiteral("topic").leftJustified(topic_width), QStringLiteral("answer   "),
                            QStringLiteral("title"));
    for (const lessons::LessonStep& s : steps)
        text += QStringLiteral("%1  %2  %3  %4  %5\n")
                    .arg(QString::number(s.order + 1).rightJustified(2), s.id.leftJustified(id_width),
                         s.topic.leftJustified(topic_width), kind_text(s).leftJustified(9), s.title);
    return text;
}

}  // namespace

int run_lessons_command(const QStringList& arguments, QTextStream& out, QTextStream& err) {
    QCommandLineParser parser;
    const QCommandLineOption help = parser.addHelpOption();
    const QCommandLineOption json{"json", "Print the steps as JSON: {\"lessons\": [{\"id\", \"title\", \"topic\", "
                                          "\"task\", \"kind\" (act or kernel), \"answer\" (what the check takes: "
                                          "block, layout, pixel, kernel, text or occupancy)}, ...]}."};
    parser.addOption(json);
    parser.setApplicationDescription(
        QString("Lists the guided path through the lecture: every step's id (for 'cudaviz-cli lesson check'), its\n"
                "topic, what its check takes as the answer, and its title. The steps are read from the lessons\n"
                "folder: $CUDAVIZ_LESSONS_DIR, else the source tree's resources/lessons.\n\n") +
        general_exit_code_help());
    parser.addPositionalArgument("lessons", "The command.", "lessons");
    const auto usage = [&err](const QString& message) {
        err << "cudaviz-cli lessons: " << message << "\nTry 'cudaviz-cli lessons --help'.\n";
        return exit_status(ExitCode::BadUsage);
    };
    if (!parser.parse(arguments)) return usage(parser.errorText());
    if (parser.isSet(help)) {
        out << help_text(parser);
        return exit_status(ExitCode::Success);
    }
    if (parser.positionalArguments().size() > 1) return usage("unexpected argument '" + parser.positionalArguments().at(1) + "'");
    const std::vector<lessons::LessonStep> steps = load(err, QStringLiteral("lessons"));
    if (steps.empty()) return exit_status(ExitCode::InputRejected);
    if (parser.isSet(json)) {
        QJsonArray list;
        for (const lessons::LessonStep& s : steps)
            list.append(QJsonObject{{"id", s.id},
                                    {"title", s.title},
                                    {"topic", s.topic},
                                    {"task", s.task},
                                    {"kind", s.kind == lessons::TaskKind::Kernel ? "kernel" : "act"},
                                    {"answer", kind_text(s)}});
        out << QJsonDocument(QJsonObject{{"lessons", list}}).toJson(QJsonDocument::Indented);
    } else {
        out << lessons_table(steps);
    }
    return exit_status(ExitCode::Success);
}

int run_lesson_command(const QStringList& arguments, QTextStream& out, QTextStream& err) {
    QCommandLineParser parser;
    const QCommandLineOption help = parser.addHelpOption();
    const QCommandLineOption kernel_file{"kernel-file", "A kernel step's answer: your kernel's CUDA C.", "FILE.cu"};
    const QCommandLineOption answer{"answer",
                                    "An act step's answer: a number, a block (256, 32x8), a layout (planar, "
                                    "interleaved) or a thread (bx,by,tx,ty), as the step asks.",
                                    "TEXT"};
    const QCommandLineOption json{"json", "Print the result as JSON: {\"id\", \"passed\", \"reason\", \"hint\"}."};
    parser.addOptions({kernel_file, answer, json});
    parser.setApplicationDescription(
        QString("Checks a step of the guided path ('cudaviz-cli lessons' lists them). A kernel step runs your\n"
                "kernel on the CPU emulator on sizes you did not choose (odd sizes, 1xN, Nx1) and compares it\n"
                "with the reference; an act step checks your answer against the app's models. Prints\n"
                "'passed: ...' or 'not passed: ...' with the reason and a hint.\n\n"
                "Exit status:\n"
                "  0  the step is passed\n"
                "  1  not passed (the reason is printed), or --kernel-file cannot be read\n"
                "  2  bad usage: no or an unknown step id, neither or both of --kernel-file and --answer, or the\n"
                "     one the step does not take"));
    parser.addPositionalArgument("lesson", "The command.", "lesson");
    parser.addPositionalArgument("check", "The subcommand.", "check");
    parser.addPositionalArgument("ID", "The step's id.", "ID");
    const auto usage = [&err](const QString& message) {
        err << "cudaviz-cli lesson: " << message << "\nTry 'cudaviz-cli lesson --help'.\n";
        return exit_status(ExitCode::BadUsage);
    };
    if (!parser.parse(arguments)) return usage(parser.errorText());
    if (parser.isSet(help)) {
        out << help_text(parser);
        return exit_status(ExitCode::Success);
    }
    const QStringList positional = parser.positionalArguments();
    if (positional.size() < 2 || positional.at(1) != QLatin1String("check"))
        return usage(positional.size() < 2 ? QStringLiteral("no subcommand given: use 'lesson check ID'")
                                           : "unknown subcommand '" + positional.at(1) + "': use 'lesson check ID'");
    if (positional.size() < 3) return usage(QStringLiteral("no step id given ('cudaviz-cli lessons' lists them)"));
    if (positional.size() > 3) return usage("unexpected argument '" + positional.at(3) + "'");
    if (parser.isSet(kernel_file) == parser.isSet(answer))
        return usage(parser.isSet(answer) ? QStringLiteral("give --kernel-file or --answer, not both")
                                          : QStringLiteral("give the answer: --kernel-file FILE.cu or --answer TEXT"));

    const std::vector<lessons::LessonStep> steps = load(err, QStringLiteral("lesson"));
    if (steps.empty()) return exit_status(ExitCode::InputRejected);
    const lessons::LessonStep* step = lessons::find_step(steps, positional.at(2));
    if (!step) return usage("unknown step '" + positional.at(2) + "' ('cudaviz-cli lessons' lists them)");
    const bool kernel_step = step->kind == lessons::TaskKind::Kernel;
    if (kernel_step != parser.isSet(kernel_file))
        return usage("step '" + step->id + "' takes " + answer_form(*step));

    lessons::CheckResult result;
    if (kernel_step) {
        const QString path = parser.value(kernel_file);
        QFile file(path);
        const auto rejected = [&](const QString& message) {
            err << "cudaviz-cli lesson: " << message << "\n";
            return exit_status(ExitCode::InputRejected);
        };
        if (!file.open(QIODevice::ReadOnly))
            return rejected("cannot read --kernel-file '" + QDir::toNativeSeparators(path) + "': " + file.errorString());
        if (file.size() > kMostSourceBytes)
            return rejected("--kernel-file '" + QDir::toNativeSeparators(path) + "' is larger than 1 MiB: is it a kernel?");
        const QByteArray text = file.readAll();
        if (text.contains('\0')) return rejected("--kernel-file '" + QDir::toNativeSeparators(path) + "' is not a text file");
        result = lessons::check_kernel(*step, QString::fromUtf8(text), QDir::toNativeSeparators(path));
    } else {
        result = lessons::check_answer(*step, parser.value(answer));
    }

    if (parser.isSet(json)) {
        QJsonObject o{{"id", step->id}, {"passed", result.passed}, {"reason", result.reason}};
        if (!result.passed && !result.hint.isEmpty()) o.insert(QStringLiteral("hint"), result.hint);
        out << QJsonDocument(o).toJson(QJsonDocument::Indented);
    } else {
        out << (result.passed ? "passed: " : "not passed: ") << result.reason << "\n";
        if (!result.passed && !result.hint.isEmpty()) out << "hint: " << result.hint.simplified() << "\n";
    }
    return exit_status(result.passed ? ExitCode::Success : ExitCode::InputRejected);
}

}  // namespace cvz::cli
