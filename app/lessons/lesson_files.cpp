// Reading the lesson files (resources/lessons/NN-ID.md, in file-name order). A file is Markdown with a
// header between two "---" lines of `key: value` pairs, then the teaching text and three sections,
// "## Task", "## Hint" and "## Solution" (a kernel step's solution is the first fenced code block of
// its section: the kernel's text). The header's keys:
//   id, title, topic (one of topic_ids()), kind (act | kernel), answer (block | layout | pixel | kernel |
//   text | occupancy), check (one of check_kinds()): required;
//   page, image, matrices, kernel, block, layout, show (comma-separated), starter: the LessonState;
//   check.NAME: the check's arguments (check_args), e.g. check.size: 451x300, check.sizes: 37x23, 1x61.
// A bad file is named with its line and the problem, and left out; the other steps still load.
#include "app/lessons/lesson.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>

#include <algorithm>
#include <optional>

namespace cvz::lessons {

namespace {

const QStringList& state_keys() {
    static const QStringList keys{QStringLiteral("page"),   QStringLiteral("image"),  QStringLiteral("matrices"),
                                  QStringLiteral("kernel"), QStringLiteral("block"),  QStringLiteral("layout"),
                                  QStringLiteral("show"),   QStringLiteral("starter")};
    return keys;
}

const QStringList& step_keys() {
    static const QStringList keys{QStringLiteral("id"),   QStringLiteral("title"),  QStringLiteral("topic"),
                                  QStringLiteral("kind"), QStringLiteral("answer"), QStringLiteral("check")};
    return keys;
}

std::optional<AnswerFrom> parse_answer_from(const QString& text) {
    static const QList<QPair<QString, AnswerFrom>> names{
        {QStringLiteral("block"), AnswerFrom::Block},   {QStringLiteral("layout"), AnswerFrom::Layout},
        {QStringLiteral("pixel"), AnswerFrom::Pixel},   {QStringLiteral("kernel"), AnswerFrom::Kernel},
        {QStringLiteral("text"), AnswerFrom::Text},     {QStringLiteral("occupancy"), AnswerFrom::Occupancy}};
    for (const auto& n : names)
        if (n.first == text) return n.second;
    return std::nullopt;
}

// Splits the text after the header into the body and its three sections.
struct Sections {
    QString body, task, hint, solution;
};

bool split_sections(const QString& text, Sections* out, QString* why) {
    static const QRegularExpression heading(QStringLiteral("^## (Task|Hint|Solution)\\s*$"),
                                            QRegularExpression::MultilineOption);
    QList<QPair<QString, qsizetype>> found;  // name, start of the heading
    QRegularExpressionMatchIterator it = heading.globalMatch(text);
    while (it.hasNext()) {
        const QRegularExpressionMatch m = it.next();
        found.append({m.captured(1), m.capturedStart()});
    }
    const QStringList order{QStringLiteral("Task"), QStringLiteral("Hint"), QStringLiteral("Solution")};
    if (found.size() != 3 || found[0].first != order[0] || found[1].first != order[1] || found[2].first != order[2]) {
        *why = QStringLiteral("the text must have the sections '## Task', '## Hint' and '## Solution', once each, in that order");
        return false;
    }
    auto section = [&](int i) {
        const qsizetype start = text.indexOf(QLatin1Char('\n'), found[i].second);
        const qsizetype end = i + 1 < found.size() ? found[i + 1].second : text.size();
        return start < 0 ? QString() : text.mid(start + 1, end - start - 1).trimmed();
    };
    out->body = text.left(found[0].second).trimmed();
    out->task = section(0);
    out->hint = section(1);
    out->solution = section(2);
    for (int i = 0; i < 3; ++i)
        if (section(i).isEmpty()) {
            *why = QStringLiteral("the section '## %1' is empty").arg(found[i].first);
            return false;
        }
    if (out->body.isEmpty()) {
        *why = QStringLiteral("there is no teaching text before '## Task'");
        return false;
    }
    return true;
}

// The first fenced code block of `markdown` (```cuda ... ```), empty when there is none.
QString fenced_code(const QString& markdown) {
    static const QRegularExpression fence(QStringLiteral("^```[A-Za-z+]*\\s*\\n(.*?)^```"),
                                          QRegularExpression::MultilineOption |
                                              QRegularExpression::DotMatchesEverythingOption);
    const QRegularExpressionMatch m = fence.match(markdown);
    return m.hasMatch() ? m.captured(1) : QString();
}

// One step from one file's text; empty id with *why on a bad file. `order` is its place on the path.
LessonStep parse_step(const QString& text, const QString& name, QString* why) {
    LessonStep step;
    QStringList lines = text.split(QLatin1Char('\n'));
    for (QString& l : lines)
        if (l.endsWith(QLatin1Char('\r'))) l.chop(1);
    if (lines.isEmpty() || lines[0].trimmed() != QLatin1String("---")) {
        *why = name + QStringLiteral(":1: the file must start with a header: a line '---', key: value lines, and '---'");
        return {};
    }
    int end = -1;
    for (int i = 1; i < lines.size(); ++i)
        if (lines[i].trimmed() == QLatin1String("---")) {
            end = i;
            break;
        }
    if (end < 0) {
        *why = name + QStringLiteral(": the header has no closing '---' line");
        return {};
    }
    QMap<QString, QString> header;
    for (int i = 1; i < end; ++i) {
        const QString line = lines[i].trimmed();
        if (line.isEmpty() || line.startsWith(QLatin1Char('#'))) continue;
        const qsizetype colon = line.indexOf(QLatin1Char(':'));
        const QString key = colon < 0 ? QString() : line.left(colon).trimmed();
        if (key.isEmpty()) {
            *why = QStringLiteral("%1:%2: '%3' is not a 'key: value' line").arg(name).arg(i + 1).arg(line);
            return {};
        }
        if (!step_keys().contains(key) && !state_keys().contains(key) && !key.startsWith(QLatin1String("check."))) {
            *why = QStringLiteral("%1:%2: unknown key '%3' (the keys are %4, %5 and check.NAME)")
                       .arg(name)
                       .arg(i + 1)
                       .arg(key, step_keys().join(QStringLiteral(", ")), state_keys().join(QStringLiteral(", ")));
            return {};
        }
        if (header.contains(key)) {
            *why = QStringLiteral("%1:%2: '%3' is given twice").arg(name).arg(i + 1).arg(key);
            return {};
        }
        header.insert(key, line.mid(colon + 1).trimmed());
    }
    for (const QString& key : step_keys())
        if (header.value(key).isEmpty()) {
            *why = QStringLiteral("%1: the header has no '%2'").arg(name, key);
            return {};
        }
    step.id = header.value(QStringLiteral("id"));
    static const QRegularExpression id_form(QStringLiteral("^[a-z0-9]+(-[a-z0-9]+)*$"));
    if (!id_form.match(step.id).hasMatch()) {
        *why = QStringLiteral("%1: id '%2' must be lower-case words joined by '-'").arg(name, step.id);
        return {};
    }
    step.title = header.value(QStringLiteral("title"));
    step.topic = header.value(QStringLiteral("topic"));
    if (!topic_ids().contains(step.topic)) {
        *why = QStringLiteral("%1: unknown topic '%2' (the topics are %3)")
                   .arg(name, step.topic, topic_ids().join(QStringLiteral(", ")));
        return {};
    }
    const QString kind = header.value(QStringLiteral("kind"));
    if (kind == QLatin1String("act")) step.kind = TaskKind::Act;
    else if (kind == QLatin1String("kernel")) step.kind = TaskKind::Kernel;
    else {
        *why = QStringLiteral("%1: kind '%2' is neither act nor kernel").arg(name, kind);
        return {};
    }
    const std::optional<AnswerFrom> from = parse_answer_from(header.value(QStringLiteral("answer")));
    if (!from) {
        *why = QStringLiteral("%1: answer '%2' is none of block, layout, pixel, kernel, text, occupancy")
                   .arg(name, header.value(QStringLiteral("answer")));
        return {};
    }
    step.answer_from = *from;
    if ((step.kind == TaskKind::Kernel) != (step.answer_from == AnswerFrom::Kernel)) {
        *why = QStringLiteral("%1: a kernel step takes its answer from the kernel, and only a kernel step does").arg(name);
        return {};
    }
    step.state.page = header.value(QStringLiteral("page"));
    step.state.image = header.value(QStringLiteral("image"));
    step.state.matrices = header.value(QStringLiteral("matrices"));
    step.state.kernel = header.value(QStringLiteral("kernel"));
    step.state.block = header.value(QStringLiteral("block"));
    step.state.layout = header.value(QStringLiteral("layout"));
    for (const QString& s : header.value(QStringLiteral("show")).split(QLatin1Char(','), Qt::SkipEmptyParts))
        step.state.show.append(s.trimmed());
    step.state.starter = header.value(QStringLiteral("starter"));
    step.check = header.value(QStringLiteral("check"));
    if (!check_kinds().contains(step.check)) {
        *why = QStringLiteral("%1: unknown check '%2' (the checks are %3)")
                   .arg(name, step.check, check_kinds().join(QStringLiteral(", ")));
        return {};
    }
    for (auto it = header.cbegin(); it != header.cend(); ++it)
        if (it.key().startsWith(QLatin1String("check."))) step.check_args.insert(it.key().mid(6), it.value());

    Sections sections;
    QString section_error;
    if (!split_sections(lines.mid(end + 1).join(QLatin1Char('\n')), &sections, &section_error)) {
        *why = name + QStringLiteral(": ") + section_error;
        return {};
    }
    step.body = sections.body;
    step.task = sections.task;
    step.hint = sections.hint;
    step.solution = sections.solution;
    if (step.kind == TaskKind::Kernel) {
        step.solution = fenced_code(sections.solution);
        if (step.solution.trimmed().isEmpty()) {
            *why = name + QStringLiteral(": a kernel step's '## Solution' must hold the kernel in a ``` block");
            return {};
        }
    }
    return step;
}

}  // namespace

const QStringList& topic_ids() {
    static const QStringList ids{QStringLiteral("layout"),   QStringLiteral("sms"),        QStringLiteral("simulate"),
                                 QStringLiteral("kernel"),   QStringLiteral("blocks"),     QStringLiteral("compile"),
                                 QStringLiteral("errors"),   QStringLiteral("matmul"),     QStringLiteral("blocks2d"),
                                 QStringLiteral("cpu-vs-gpu"), QStringLiteral("shared"),   QStringLiteral("flexible")};
    return ids;
}

QString lessons_dir() {
    if (QFileInfo(QStringLiteral(":/lessons")).isDir()) return QStringLiteral(":/lessons");
    const QByteArray env = qgetenv("CUDAVIZ_LESSONS_DIR");
    if (!env.isEmpty()) return QString::fromLocal8Bit(env);
    return QStringLiteral(CUDAVIZ_SOURCE_DIR "/resources/lessons");
}

std::vector<LessonStep> load_lessons(const QString& dir, QString* error) {
    std::vector<LessonStep> steps;
    QStringList problems;
    const QDir folder(dir);
    if (!folder.exists()) {
        if (error) *error = QStringLiteral("the lessons folder '%1' does not exist").arg(QDir::toNativeSeparators(dir));
        return steps;
    }
    const QStringList files = folder.entryList({QStringLiteral("*.md")}, QDir::Files, QDir::Name);
    for (const QString& file : files) {
        const QString path = folder.filePath(file);
        QFile f(path);
        if (!f.open(QIODevice::ReadOnly)) {
            problems.append(QStringLiteral("%1: cannot read: %2").arg(QDir::toNativeSeparators(path), f.errorString()));
            continue;
        }
        const QByteArray bytes = f.readAll();
        QString why;
        LessonStep step = parse_step(QString::fromUtf8(bytes), QDir::toNativeSeparators(path), &why);
        if (step.id.isEmpty()) {
            problems.append(why);
            continue;
        }
        if (find_step(steps, step.id)) {
            problems.append(QStringLiteral("%1: id '%2' is already another step's").arg(QDir::toNativeSeparators(path), step.id));
            continue;
        }
        step.order = int(steps.size());
        steps.push_back(std::move(step));
    }
    if (files.isEmpty()) problems.append(QStringLiteral("no lesson files (*.md) in '%1'").arg(QDir::toNativeSeparators(dir)));
    if (error) *error = problems.join(QLatin1Char('\n'));
    return steps;
}

const LessonStep* find_step(const std::vector<LessonStep>& steps, const QString& id) {
    for (const LessonStep& s : steps)
        if (s.id == id) return &s;
    return nullptr;
}

QString starter_text(const LessonStep& step, const QString& dir) {
    if (step.state.starter.isEmpty()) return {};
    QFile f(QDir(dir).filePath(step.state.starter));
    if (!f.open(QIODevice::ReadOnly)) return {};
    return QString::fromUtf8(f.readAll());
}

}  // namespace cvz::lessons
