// The guided lessons (issue 28): the lesson files load, cover the twelve topics and hold the four
// kernel steps; every step's own solution passes its check and a typical wrong answer fails with the
// reason a learner needs; the kernel steps accept the lecture's kernels (resources/kernels/) and refuse
// a kernel with no guard, a wrong formula, a signature that fits nothing, a syntax error, and a matmul
// that does not tile; bad lesson files are refused with the file and the problem named.
#include <QtTest>

#include <QDir>
#include <QFile>
#include <QSet>
#include <QTemporaryDir>

#include "app/lessons/lesson.h"
#include "app/user/launch_dims.h"
#include "kernels/catalogue/kernel_catalogue.h"
#include "kernels/core/cancel_token.h"
#include "test_paths.h"

using namespace cvz;
using namespace cvz::lessons;
using namespace cvz::test;

namespace {

QString lessons_folder() { return source_dir() + QStringLiteral("/resources/lessons"); }

QString read_text(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    return QString::fromUtf8(f.readAll());
}

QString lecture_kernel(const char* name) { return read_text(source_dir() + "/resources/kernels/" + name); }

const std::vector<LessonStep>& steps() {
    static const std::vector<LessonStep> all = [] {
        QString error;
        std::vector<LessonStep> s = load_lessons(lessons_folder(), &error);
        if (!error.isEmpty()) qWarning("%s", qPrintable(error));
        return s;
    }();
    return all;
}

const LessonStep& step(const char* id) {
    const LessonStep* s = find_step(steps(), QString::fromLatin1(id));
    if (!s) qFatal("no lesson step '%s'", id);
    return *s;
}

QString describe(const CheckResult& r) { return (r.passed ? "passed: " : "failed: ") + r.reason; }

bool write_file(const QString& path, const QString& text) {
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly)) return false;
    f.write(text.toUtf8());
    return true;
}

// A good step file, to be broken by each load test.
QString good_file(const QString& header_extra = {}) {
    return QStringLiteral("---\nid: sample\ntitle: A sample\ntopic: layout\nkind: act\nanswer: text\ncheck: multiply-adds\n"
                          "check.size: 2x3x4\n%1---\nText.\n\n## Task\nDo it.\n\n## Hint\nThink.\n\n## Solution\n24\n")
        .arg(header_extra);
}

}  // namespace

class TstLessons : public QObject {
    Q_OBJECT

private slots:
    void loads_every_file_without_error() {
        QString error;
        const std::vector<LessonStep> s = load_lessons(lessons_folder(), &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        const QStringList files = QDir(lessons_folder()).entryList({QStringLiteral("*.md")}, QDir::Files, QDir::Name);
        QCOMPARE(int(s.size()), files.size());
        QVERIFY(s.size() >= 12);
        for (std::size_t i = 0; i < s.size(); ++i) {
            QCOMPARE(s[i].order, int(i));
            QVERIFY2(files[int(i)].endsWith("-" + s[i].id + ".md"), qPrintable(files[int(i)] + " holds " + s[i].id));
            QVERIFY(!s[i].title.isEmpty() && !s[i].body.isEmpty() && !s[i].task.isEmpty() && !s[i].hint.isEmpty() &&
                    !s[i].solution.isEmpty());
            QVERIFY2(QStringList({"image", "matmul", "convolution"}).contains(s[i].state.page), qPrintable(s[i].id));
        }
    }

    // Each step's state names what the app has: a page, a sample image or a size, a catalogue kernel, a
    // valid block, a layout and panels as `cudaviz --show` names them (ui/windows/main_window.cpp).
    void every_state_is_one_the_app_can_apply() {
        const QStringList panels{"launch", "overlay", "inspector", "occupancy", "sms", "memory", "editor",
                                 "source", "schedule", "timeline", "sweep", "ladder"};
        const QRegularExpression size2("^[1-9][0-9]*x[1-9][0-9]*$"), size3("^[1-9][0-9]*x[1-9][0-9]*x[1-9][0-9]*$");
        for (const LessonStep& s : steps()) {
            const LessonState& st = s.state;
            QVERIFY2(st.image.isEmpty() || size2.match(st.image).hasMatch() ||
                         QFile::exists(source_dir() + "/resources/samples/" + st.image),
                     qPrintable(s.id + ": image " + st.image));
            QVERIFY2(st.matrices.isEmpty() || size3.match(st.matrices).hasMatch(), qPrintable(s.id + ": matrices " + st.matrices));
            QVERIFY2((st.page == "matmul") == !st.matrices.isEmpty(), qPrintable(s.id));
            QVERIFY2((st.page == "image") == !st.image.isEmpty(), qPrintable(s.id));
            bool known = st.kernel.isEmpty();
            for (const KernelInfo& k : kernel_catalogue()) known = known || QString::fromStdString(k.name) == st.kernel;
            QVERIFY2(known, qPrintable(s.id + ": kernel " + st.kernel));
            QString why;
            QVERIFY2(st.block.isEmpty() || parse_dims(st.block, &why), qPrintable(s.id + ": block " + why));
            QVERIFY2(st.layout.isEmpty() || st.layout == "planar" || st.layout == "interleaved", qPrintable(s.id));
            for (const QString& p : st.show) QVERIFY2(panels.contains(p), qPrintable(s.id + ": panel " + p));
            QVERIFY2((s.kind == TaskKind::Kernel) == !st.starter.isEmpty(), qPrintable(s.id + ": starter"));
            QVERIFY2(s.kind != TaskKind::Kernel || st.show.contains("editor"), qPrintable(s.id + ": a kernel step shows the editor"));
        }
    }

    void covers_the_twelve_topics() {
        QCOMPARE(topic_ids().size(), 12);
        QSet<QString> covered;
        for (const LessonStep& s : steps()) covered.insert(s.topic);
        for (const QString& topic : topic_ids()) QVERIFY2(covered.contains(topic), qPrintable("no step for topic " + topic));
    }

    void has_the_four_kernel_steps_with_starters() {
        for (const char* id : {"grayscale-1d", "grayscale-2d", "matmul-naive", "matmul-tiled"}) {
            const LessonStep& s = step(id);
            QCOMPARE(s.kind, TaskKind::Kernel);
            QCOMPARE(s.answer_from, AnswerFrom::Kernel);
            QCOMPARE(s.check, QStringLiteral("kernel"));
        }
        for (const LessonStep& s : steps()) {
            if (s.kind != TaskKind::Kernel) continue;
            const QString starter = starter_text(s, lessons_folder());
            QVERIFY2(!starter.isEmpty(), qPrintable(s.id + ": no starter " + s.state.starter));
            QVERIFY2(starter != s.solution, qPrintable(s.id + ": the starter is the solution"));
            QVERIFY(s.solution.contains("__global__"));
        }
        QVERIFY(starter_text(step("flatten"), lessons_folder()).isEmpty());
    }

    // Each act step: the answer its solution gives passes, a typical wrong one fails with its reason.
    void act_step_checks_data() {
        QTest::addColumn<QString>("id");
        QTest::addColumn<QString>("right");
        QTest::addColumn<QString>("wrong");
        QTest::addColumn<QString>("reason");
        QTest::newRow("flatten") << "flatten" << "136207" << "907" << "flat index";
        QTest::newRow("flatten, interleaved") << "flatten" << "136,207" << "2722" << "interleaved layout";
        QTest::newRow("coalescing") << "coalescing" << "planar" << "interleaved" << "touches 3.00 sectors";
        QTest::newRow("blocks-at-once") << "blocks-at-once" << "1056" << "132" << "number of SMs";
        QTest::newRow("simulate-loop") << "simulate-loop" << "2,0,39,0" << "2,0,38,0" << "writes pixel (row 1, column 99)";
        QTest::newRow("guard-cdiv") << "guard-cdiv" << "124" << "529" << "number of blocks";
        QTest::newRow("full-occupancy") << "full-occupancy" << "256" << "32" << "occupancy is 50.0%";
        QTest::newRow("full-occupancy, 1024") << "full-occupancy" << "1024" << "16" << "limited by blocks";
        QTest::newRow("full-occupancy, 2-D") << "full-occupancy" << "64" << "16x16" << "block 16x16 is not 1-D";
        QTest::newRow("waves") << "waves" << "8" << "7" << "leaves out the tail";
        QTest::newRow("matmul-loops") << "matmul-loops" << "39200" << "50" << "number of outputs";
        QTest::newRow("thread-of-pixel-2d") << "thread-of-pixel-2d" << "12,2,8,5" << "2,12,5,8" << "swaps x and y";
        QTest::newRow("thread-of-pixel-2d, idle") << "thread-of-pixel-2d" << "12, 2, 8, 5" << "28,2,8,5" << "is idle: column 456";
        QTest::newRow("thread-of-pixel-2d, off") << "thread-of-pixel-2d" << "12,2,8,5" << "29,2,8,5" << "not in the launch: the grid is 29x19";
        QTest::newRow("flexible-blocks") << "flexible-blocks" << "32x8" << "16x16" << "leaves 768 of";
        QTest::newRow("flexible-blocks, small") << "flexible-blocks" << "96x4" << "8x4" << "take at least 64";
        QTest::newRow("flexible-blocks, 1-D") << "flexible-blocks" << "16x8" << "128" << "leaves";
    }
    void act_step_checks() {
        QFETCH(QString, id);
        QFETCH(QString, right);
        QFETCH(QString, wrong);
        QFETCH(QString, reason);
        const LessonStep& s = step(id.toLatin1().constData());
        QCOMPARE(s.kind, TaskKind::Act);
        const CheckResult ok = check_answer(s, right);
        QVERIFY2(ok.passed, qPrintable(describe(ok)));
        QVERIFY(ok.reason.startsWith("right"));
        const CheckResult no = check_answer(s, wrong);
        QVERIFY2(!no.passed, qPrintable(describe(no)));
        QVERIFY2(no.reason.contains(reason), qPrintable(describe(no)));
        QCOMPARE(no.hint, s.hint);
        // Not a number, not four numbers, not a block, not a layout: said, not passed.
        const CheckResult junk = check_answer(s, QStringLiteral("banana"));
        QVERIFY2(!junk.passed && junk.reason.contains("banana"), qPrintable(describe(junk)));
        QVERIFY(!check_answer(s, QString()).passed);
    }

    // The prediction is checked against the model within its factor, both ways.
    void cpu_vs_gpu_prediction() {
        const LessonStep& s = step("cpu-vs-gpu");
        // Some answer between 0.1 us and 10 ms passes: its message names the model's figure.
        CheckResult at_least;
        for (double t = 0.1; t < 1e4 && !at_least.passed; t *= 1.5) at_least = check_answer(s, QString::number(t));
        QVERIFY2(at_least.passed, qPrintable(describe(at_least)));
        const QRegularExpression us(QStringLiteral("predicts ([0-9.]+) us"));
        const QRegularExpressionMatch m = us.match(at_least.reason);
        QVERIFY2(m.hasMatch(), qPrintable(at_least.reason));
        const double predicted = m.captured(1).toDouble();
        QVERIFY(check_answer(s, QString::number(predicted * 0.55)).passed);
        QVERIFY(check_answer(s, QString::number(predicted * 1.9)).passed);
        const CheckResult high = check_answer(s, QString::number(predicted * 2.2));
        QVERIFY2(!high.passed && high.reason.contains("too high"), qPrintable(describe(high)));
        const CheckResult low = check_answer(s, QString::number(predicted / 2.2) + " us");
        QVERIFY2(!low.passed && low.reason.contains("too low"), qPrintable(describe(low)));
        // The figure the lesson's text reasons from: memory (1.7 us) plus a launch of a few microseconds.
        QVERIFY2(predicted > 1.7 && predicted < 20, qPrintable(QString::number(predicted)));
    }

    // Every kernel step: its own solution passes; its starter fails with the reason its text teaches.
    void kernel_step_solution_and_starter_data() {
        QTest::addColumn<QString>("id");
        QTest::addColumn<QString>("reason");
        QTest::newRow("grayscale-1d") << "grayscale-1d" << "missing guard: line 6: thread";
        QTest::newRow("compile-fix") << "compile-fix" << "line 3:";
        QTest::newRow("errors-bounds") << "errors-bounds" << "missing guard: line 5: thread";
        QTest::newRow("matmul-naive") << "matmul-naive" << "wrong output on size 17x9x13";
        QTest::newRow("grayscale-2d") << "grayscale-2d" << "wrong output on size 37x23";
        QTest::newRow("matmul-tiled") << "matmul-tiled" << "wrong output on size 17x9x13";
        QTest::newRow("missing-barrier") << "missing-barrier" << "wrong output on size 17x40x13";
    }
    void kernel_step_solution_and_starter() {
        QFETCH(QString, id);
        QFETCH(QString, reason);
        const LessonStep& s = step(id.toLatin1().constData());
        const CheckResult ok = check_answer(s, s.solution);
        QVERIFY2(ok.passed, qPrintable(describe(ok)));
        const CheckResult no = check_kernel(s, starter_text(s, lessons_folder()), s.id + ".cu");
        QVERIFY2(!no.passed, qPrintable(describe(no)));
        QVERIFY2(no.reason.contains(reason), qPrintable(describe(no)));
        QCOMPARE(no.hint, s.hint);
    }

    // The lecture's kernels as the notebook writes them (the 1-D one with double constants, planar).
    void accepts_the_lecture_kernels_data() {
        QTest::addColumn<QString>("id");
        QTest::addColumn<QString>("file");
        QTest::newRow("grayscale-1d") << "grayscale-1d" << "grayscale_1d.cu";
        QTest::newRow("grayscale-2d") << "grayscale-2d" << "grayscale_2d.cu";
        QTest::newRow("matmul-naive") << "matmul-naive" << "matmul.cu";
        QTest::newRow("matmul-tiled") << "matmul-tiled" << "matmul_tiled.cu";
    }
    void accepts_the_lecture_kernels() {
        QFETCH(QString, id);
        QFETCH(QString, file);
        const QString text = lecture_kernel(file.toLatin1().constData());
        QVERIFY(!text.isEmpty());
        const CheckResult r = check_kernel(step(id.toLatin1().constData()), text, file);
        QVERIFY2(r.passed, qPrintable(describe(r)));
        if (id == "matmul-tiled") QVERIFY2(r.reason.contains("global load requests per multiply-add"), qPrintable(r.reason));
    }

    void refuses_a_kernel_with_no_guard() {
        QString text = lecture_kernel("grayscale_2d.cu");
        text.replace("if (c<w && r<h) {", "{");
        const CheckResult r = check_kernel(step("grayscale-2d"), text, "nog.cu");
        QVERIFY2(!r.passed && r.reason.startsWith("missing guard: line "), qPrintable(describe(r)));
        QVERIFY2(r.reason.contains("past the end of"), qPrintable(r.reason));

        QString mm = lecture_kernel("matmul.cu");
        mm.replace("if (r>=h || c>=w) return;", "");
        const CheckResult m = check_kernel(step("matmul-naive"), mm, "nog.cu");
        QVERIFY2(!m.passed && m.reason.startsWith("missing guard: "), qPrintable(describe(m)));
    }

    void refuses_a_wrong_formula() {
        QString text = lecture_kernel("grayscale_1d.cu");
        text.replace("0.2989*x[i] + 0.5870*x[i+n]", "0.5870*x[i] + 0.2989*x[i+n]");  // red and green weights swapped
        const CheckResult r = check_kernel(step("grayscale-1d"), text, "formula.cu");
        QVERIFY2(!r.passed && r.reason.startsWith("wrong output on size 37x23"), qPrintable(describe(r)));
        QVERIFY2(r.reason.contains("the reference") && r.reason.contains("written by thread ("), qPrintable(r.reason));

        QString interleaved = lecture_kernel("grayscale_1d.cu");
        interleaved.replace("x[i] + 0.5870*x[i+n] + 0.1140*x[i+2*n]", "x[3*i] + 0.5870*x[3*i+1] + 0.1140*x[3*i+2]");
        const CheckResult l = check_kernel(step("grayscale-1d"), interleaved, "interleaved.cu");
        QVERIFY2(!l.passed, qPrintable(describe(l)));

        QString mm = lecture_kernel("matmul.cu");
        mm.replace("o += m[r*k+i] * n[i*w+c]", "o += m[r*k+i] * n[i*k+c]");
        const CheckResult m = check_kernel(step("matmul-naive"), mm, "formula.cu");
        QVERIFY2(!m.passed && (m.reason.startsWith("wrong output") || m.reason.startsWith("missing guard")), qPrintable(describe(m)));
    }

    void refuses_a_signature_that_fits_nothing() {
        QString text = lecture_kernel("grayscale_1d.cu");
        text.replace("unsigned char* out, int n", "float* out, int n");
        const CheckResult r = check_kernel(step("grayscale-1d"), text, "sig.cu");
        QVERIFY2(!r.passed && r.reason.startsWith("the signature fits no grayscale kernel: "), qPrintable(describe(r)));
        QVERIFY2(r.reason.contains("(unsigned char* x, unsigned char* out, int n)"), qPrintable(r.reason));

        // A grayscale kernel of the other form: it fits the family, not this step.
        const CheckResult form = check_kernel(step("grayscale-1d"), lecture_kernel("grayscale_2d.cu"), "2d.cu");
        QVERIFY2(!form.passed && form.reason.contains("this step asks for (unsigned char* x, unsigned char* out, int n)"),
                 qPrintable(describe(form)));
        // A grayscale kernel where a matmul is asked.
        const CheckResult family = check_kernel(step("matmul-naive"), lecture_kernel("grayscale_1d.cu"), "gray.cu");
        QVERIFY2(!family.passed && family.reason.startsWith("the signature fits no matmul kernel"), qPrintable(describe(family)));
        const CheckResult none = check_kernel(step("matmul-naive"), "int main() { return 0; }\n", "none.cu");
        QVERIFY2(!none.passed && none.reason.contains("__global__"), qPrintable(describe(none)));
    }

    void refuses_a_syntax_error() {
        QString text = lecture_kernel("matmul.cu");
        text.replace("float o = 0;", "float o = 0");
        const CheckResult r = check_kernel(step("matmul-naive"), text, "syntax.cu");
        QVERIFY2(!r.passed, qPrintable(describe(r)));
        // "line 9:16: error: ...": the line of the statement after the missing ';' or its own.
        QVERIFY2(QRegularExpression("^line (8|9):[0-9]+: error: ").match(r.reason).hasMatch(), qPrintable(r.reason));
    }

    void refuses_a_matmul_that_does_not_tile() {
        // The naive kernel is right, but reads everything from global memory.
        const CheckResult naive = check_kernel(step("matmul-tiled"), lecture_kernel("matmul.cu"), "naive.cu");
        QVERIFY2(!naive.passed && naive.reason.startsWith("no shared memory used"), qPrintable(describe(naive)));
        // Shared memory used, but as a detour: each element goes through it and is used once.
        const QString detour = QStringLiteral(
            "__global__ void matmul_detour(float* m, float* n, float* out, int h, int w, int k) {\n"
            "    __shared__ float s[16][16];\n"
            "    int r = blockIdx.y*blockDim.y + threadIdx.y, c = blockIdx.x*blockDim.x + threadIdx.x;\n"
            "    float o = 0.0f;\n"
            "    for (int i = 0; i < k; ++i) {\n"
            "        s[threadIdx.y][threadIdx.x] = (r<h && c<w) ? m[r*k+i] : 0.0f;\n"
            "        if (r<h && c<w) o += s[threadIdx.y][threadIdx.x] * n[i*w+c];\n"
            "    }\n"
            "    if (r<h && c<w) out[r*w+c] = o;\n"
            "}\n");
        const CheckResult d = check_kernel(step("matmul-tiled"), detour, "detour.cu");
        QVERIFY2(!d.passed && d.reason.startsWith("it does not tile: "), qPrintable(describe(d)));
        QVERIFY2(d.reason.contains("TILE 16") && d.reason.contains("matmul_naive"), qPrintable(d.reason));
    }

    void tiles_other_than_the_block_are_named() {
        // The lecture's tiled kernel with TW 32 in a step that checks with 16 x 16 blocks: the failure says
        // why, not only that the output is wrong.
        QString text = step("matmul-tiled").solution;
        QVERIFY(text.contains("#define TW 16"));
        text.replace("#define TW 16", "#define TW 32");
        const CheckResult r = check_kernel(step("matmul-tiled"), text, "tw32.cu");
        QVERIFY2(!r.passed, qPrintable(describe(r)));
        QVERIFY2(r.reason.contains("your kernel's shared tiles are 32 x 32, but this step checks it with 16 x 16 blocks"),
                 qPrintable(r.reason));
        // The right tile says nothing of tiles.
        const CheckResult ok = check_kernel(step("matmul-tiled"), step("matmul-tiled").solution, "tw16.cu");
        QVERIFY2(ok.passed && !ok.reason.contains("shared tiles"), qPrintable(describe(ok)));
    }

    void empty_editor_and_cancel() {
        const CheckResult empty = check_answer(step("grayscale-1d"), "  \n");
        QVERIFY(!empty.passed && empty.reason.contains("empty"));
        CancelToken cancel;
        cancel.request();
        const CheckResult c = check_kernel(step("grayscale-1d"), step("grayscale-1d").solution, "x.cu", &cancel);
        QVERIFY(!c.passed);
        QCOMPARE(c.reason, QStringLiteral("cancelled"));
        QCOMPARE(check_answer(step("waves"), "8", &cancel).reason, QStringLiteral("cancelled"));
    }

    void lessons_dir_is_the_source_tree_or_the_environment() {
        // No resources are embedded in this test: the environment, else the source tree.
        qunsetenv("CUDAVIZ_LESSONS_DIR");
        QVERIFY(QDir(lessons_dir()).exists("06-grayscale-1d.md"));
        qputenv("CUDAVIZ_LESSONS_DIR", "/somewhere/else");
        QCOMPARE(lessons_dir(), QStringLiteral("/somewhere/else"));
        qunsetenv("CUDAVIZ_LESSONS_DIR");
    }

    void refuses_bad_files_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("reason");
        QTest::newRow("no header") << "Text.\n## Task\nx\n## Hint\ny\n## Solution\nz\n" << ":1: the file must start with a header";
        QTest::newRow("unclosed header") << "---\nid: a\n" << "no closing '---'";
        QTest::newRow("unknown topic") << QString(good_file()).replace("topic: layout", "topic: warp-speed")
                                       << "unknown topic 'warp-speed' (the topics are layout, sms,";
        QTest::newRow("unknown key") << good_file("colour: red\n") << ":9: unknown key 'colour'";
        QTest::newRow("not key value") << good_file("just words\n") << ":9: 'just words' is not a 'key: value' line";
        QTest::newRow("twice") << good_file("title: again\n") << "'title' is given twice";
        QTest::newRow("no title") << QString(good_file()).replace("title: A sample\n", "") << "the header has no 'title'";
        QTest::newRow("bad kind") << QString(good_file()).replace("kind: act", "kind: quiz") << "kind 'quiz' is neither";
        QTest::newRow("bad answer") << QString(good_file()).replace("answer: text", "answer: voice") << "answer 'voice' is none of";
        QTest::newRow("kernel answer on act") << QString(good_file()).replace("answer: text", "answer: kernel")
                                              << "a kernel step takes its answer from the kernel";
        QTest::newRow("unknown check") << QString(good_file()).replace("check: multiply-adds", "check: vibes")
                                       << "unknown check 'vibes'";
        QTest::newRow("bad id") << QString(good_file()).replace("id: sample", "id: Sample Step") << "id 'Sample Step' must be";
        QTest::newRow("no hint") << QString(good_file()).replace("## Hint\nThink.\n\n", "") << "'## Task', '## Hint' and '## Solution'";
        QTest::newRow("empty task") << QString(good_file()).replace("Do it.", "") << "the section '## Task' is empty";
        QTest::newRow("kernel without code")
            << QString(good_file()).replace("kind: act\nanswer: text\ncheck: multiply-adds", "kind: kernel\nanswer: kernel\ncheck: kernel")
            << "must hold the kernel in a ``` block";
    }
    void refuses_bad_files() {
        QFETCH(QString, text);
        QFETCH(QString, reason);
        QTemporaryDir dir;
        QVERIFY(write_file(dir.filePath("01-good.md"), QString(good_file()).replace("id: sample", "id: good")));
        QVERIFY(write_file(dir.filePath("02-sample.md"), text));
        QString error;
        const std::vector<LessonStep> s = load_lessons(dir.path(), &error);
        // The good file still loads; the bad one is named with its problem.
        QCOMPARE(int(s.size()), 1);
        QCOMPARE(s[0].id, QStringLiteral("good"));
        QVERIFY2(error.startsWith(QDir::toNativeSeparators(dir.filePath("02-sample.md"))), qPrintable(error));
        QVERIFY2(error.contains(reason), qPrintable(error));
        // The good file's step checks as any other.
        QVERIFY(check_answer(s[0], "24").passed);
    }

    void refuses_a_duplicate_id_and_a_missing_folder() {
        QTemporaryDir dir;
        QVERIFY(write_file(dir.filePath("01-sample.md"), good_file()));
        QVERIFY(write_file(dir.filePath("02-sample.md"), good_file()));
        QString error;
        QCOMPARE(int(load_lessons(dir.path(), &error).size()), 1);
        QVERIFY2(error.contains("02-sample.md: id 'sample' is already another step's"), qPrintable(error));
        QVERIFY(load_lessons(dir.filePath("nowhere"), &error).empty());
        QVERIFY2(error.contains("does not exist"), qPrintable(error));
        QTemporaryDir empty;
        QVERIFY(load_lessons(empty.path(), &error).empty());
        QVERIFY2(error.contains("no lesson files"), qPrintable(error));
    }

    void a_bad_check_argument_blames_the_lesson() {
        LessonStep s = step("waves");
        s.check_args.insert("size", "wide");
        const CheckResult r = check_answer(s, "8");
        QVERIFY(!r.passed);
        QVERIFY2(r.reason.startsWith("lesson 'waves' cannot be checked: check.size: size 'wide' is not 2 numbers"), qPrintable(r.reason));
    }
};

QTEST_GUILESS_MAIN(TstLessons)
#include "tst_lessons.moc"
