// cudaviz-cli lessons [--json] and cudaviz-cli lesson check ID (--kernel-file FILE | --answer TEXT)
// (issue 28), run as a learner runs them: the list (JSON and table) holds every step of the lessons
// folder; a passed check exits 0, a failed one 1 with its reason and hint; usage errors (no or an
// unknown id, both or neither answer option, the option the step does not take) exit 2; an unreadable
// kernel file exits 1; a bad lesson file is reported and left out.
#include <QtTest>

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

#include "app/lessons/lesson.h"
#include "cli_runner.h"
#include "support/text_file.h"

using namespace cvz;
using namespace cvz::test;

namespace {

QString lessons_folder() { return source_dir() + QStringLiteral("/resources/lessons"); }

}  // namespace

class TstCliLessons : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { qputenv("CUDAVIZ_LESSONS_DIR", lessons_folder().toLocal8Bit()); }

    void lessons_json_lists_every_step() {
        const CliRun run = run_cli({"lessons", "--json"});
        QVERIFY2(run.code == 0, qPrintable(describe(run)));
        QJsonParseError error;
        const QJsonDocument doc = QJsonDocument::fromJson(run.out.toUtf8(), &error);
        QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString()));
        const QJsonArray list = doc.object().value("lessons").toArray();
        QString load_error;
        const std::vector<lessons::LessonStep> steps = lessons::load_lessons(lessons_folder(), &load_error);
        QVERIFY(load_error.isEmpty());
        QCOMPARE(list.size(), int(steps.size()));
        QVERIFY(list.size() >= 12);
        for (int i = 0; i < list.size(); ++i) {
            const QJsonObject o = list.at(i).toObject();
            QCOMPARE(o.value("id").toString(), steps[std::size_t(i)].id);
            QCOMPARE(o.value("title").toString(), steps[std::size_t(i)].title);
            QCOMPARE(o.value("topic").toString(), steps[std::size_t(i)].topic);
            QCOMPARE(o.value("task").toString(), steps[std::size_t(i)].task);
            QVERIFY(lessons::topic_ids().contains(o.value("topic").toString()));
        }
        QCOMPARE(run.err, QString());
    }

    void lessons_table_has_a_line_per_step() {
        const CliRun run = run_cli({"lessons"});
        QVERIFY2(run.code == 0, qPrintable(describe(run)));
        const QStringList lines = run.out.split('\n', Qt::SkipEmptyParts);
        QVERIFY(lines.first().contains("id") && lines.first().contains("topic") && lines.first().contains("title"));
        QVERIFY(lines.size() >= 13);
        QVERIFY(run.out.contains(QRegularExpression("\\n 6  grayscale-1d +kernel +kernel +Your first kernel")));
        const CliRun extra = run_cli({"lessons", "more"});
        QCOMPARE(extra.code, 2);
        QVERIFY(run_cli({"lessons", "--help"}).out.contains("--json"));
    }

    void check_an_answer() {
        const CliRun right = run_cli({"lesson", "check", "waves", "--answer", "8"});
        QVERIFY2(right.code == 0, qPrintable(describe(right)));
        QVERIFY2(right.out.startsWith("passed: right: 8100 blocks"), qPrintable(right.out));
        const CliRun wrong = run_cli({"lesson", "check", "waves", "--answer", "7"});
        QVERIFY2(wrong.code == 1, qPrintable(describe(wrong)));
        QVERIFY2(wrong.out.startsWith("not passed: 7 leaves out the tail"), qPrintable(wrong.out));
        QVERIFY2(wrong.out.contains("\nhint: Blocks: `cdiv(1920 * 1080, 256)`."), qPrintable(wrong.out));
        const CliRun json = run_cli({"lesson", "check", "flexible-blocks", "--answer", "16x16", "--json"});
        QCOMPARE(json.code, 1);
        const QJsonObject o = QJsonDocument::fromJson(json.out.toUtf8()).object();
        QCOMPARE(o.value("id").toString(), QStringLiteral("flexible-blocks"));
        QCOMPARE(o.value("passed").toBool(true), false);
        QVERIFY(o.value("reason").toString().contains("leaves 768 of 4608 threads idle"));
        QVERIFY(!o.value("hint").toString().isEmpty());
    }

    void check_a_kernel_file() {
        QTemporaryDir dir;
        const CliRun lecture = run_cli({"lesson", "check", "grayscale-1d", "--kernel-file", source_dir() + "/resources/kernels/grayscale_1d.cu"});
        QVERIFY2(lecture.code == 0, qPrintable(describe(lecture)));
        QVERIFY2(lecture.out.startsWith("passed: right: the output matches the reference on 37x23, 1x61, 53x1"), qPrintable(lecture.out));
        const CliRun starter = run_cli({"lesson", "check", "grayscale-1d", "--kernel-file", lessons_folder() + "/starters/grayscale_1d.cu"});
        QVERIFY2(starter.code == 1, qPrintable(describe(starter)));
        QVERIFY2(starter.out.startsWith("not passed: missing guard: line 6: thread ("), qPrintable(starter.out));
        // A syntax error: its line and column.
        const QString broken = write_text(dir, "broken.cu",
                                          "__global__ void k(float* m, float* n, float* out, int h, int w, int k) {\n"
                                          "    int r = blockIdx.y*blockDim.y + threadIdx.y\n"
                                          "    out[r] = 0;\n}\n");
        const CliRun syntax = run_cli({"lesson", "check", "matmul-naive", "--kernel-file", broken});
        QVERIFY2(syntax.code == 1, qPrintable(describe(syntax)));
        QVERIFY2(syntax.out.contains(QRegularExpression("^not passed: line [23]:[0-9]+: error: ")), qPrintable(syntax.out));
        // The naive kernel where tiling is asked.
        const CliRun untiled = run_cli({"lesson", "check", "matmul-tiled", "--kernel-file", source_dir() + "/resources/kernels/matmul.cu"});
        QVERIFY2(untiled.code == 1 && untiled.out.startsWith("not passed: no shared memory used"), qPrintable(describe(untiled)));
    }

    void usage_errors_exit_2_data() {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("message");
        QTest::newRow("no subcommand") << QStringList{"lesson"} << "no subcommand given";
        QTest::newRow("unknown subcommand") << QStringList{"lesson", "show", "waves"} << "unknown subcommand 'show'";
        QTest::newRow("no id") << QStringList{"lesson", "check", "--answer", "8"} << "no step id given";
        QTest::newRow("unknown id") << QStringList{"lesson", "check", "warp-drive", "--answer", "8"} << "unknown step 'warp-drive'";
        QTest::newRow("neither") << QStringList{"lesson", "check", "waves"} << "give the answer: --kernel-file FILE.cu or --answer TEXT";
        QTest::newRow("both") << QStringList{"lesson", "check", "waves", "--answer", "8", "--kernel-file", "k.cu"}
                              << "not both";
        QTest::newRow("answer for a kernel step") << QStringList{"lesson", "check", "matmul-naive", "--answer", "8"}
                                                  << "step 'matmul-naive' takes a kernel: --kernel-file FILE.cu";
        QTest::newRow("kernel for an act step") << QStringList{"lesson", "check", "coalescing", "--kernel-file", "k.cu"}
                                                << "step 'coalescing' takes a layout";
        QTest::newRow("unknown option") << QStringList{"lesson", "check", "waves", "--answr", "8"} << "Unknown option 'answr'";
    }
    void usage_errors_exit_2() {
        QFETCH(QStringList, arguments);
        QFETCH(QString, message);
        const CliRun run = run_cli(arguments);
        QVERIFY2(run.code == 2, qPrintable(describe(run)));
        QVERIFY2(run.err.contains(message), qPrintable(run.err));
        QVERIFY(run.err.contains("Try 'cudaviz-cli lesson --help'."));
        QCOMPARE(run.out, QString());
    }

    void unreadable_kernel_file_exits_1() {
        QTemporaryDir dir;
        const CliRun missing = run_cli({"lesson", "check", "grayscale-1d", "--kernel-file", dir.filePath("none.cu")});
        QVERIFY2(missing.code == 1 && missing.err.contains("cannot read --kernel-file"), qPrintable(describe(missing)));
        const QString binary = write_text(dir, "bin.cu", QByteArray("\x7f" "ELF\0\0\0", 7));
        const CliRun bin = run_cli({"lesson", "check", "grayscale-1d", "--kernel-file", binary});
        QVERIFY2(bin.code == 1 && bin.err.contains("is not a text file"), qPrintable(describe(bin)));
    }

    void a_bad_lesson_file_is_reported_and_left_out() {
        QTemporaryDir dir;
        QFile::copy(lessons_folder() + "/10-waves.md", dir.filePath("10-waves.md"));
        write_text(dir, "11-broken.md", "---\nid: broken\ntopic: nowhere\n---\n");
        qputenv("CUDAVIZ_LESSONS_DIR", dir.path().toLocal8Bit());
        const CliRun list = run_cli({"lessons", "--json"});
        const CliRun check = run_cli({"lesson", "check", "waves", "--answer", "8"});
        QTemporaryDir empty;
        qputenv("CUDAVIZ_LESSONS_DIR", empty.path().toLocal8Bit());
        const CliRun none = run_cli({"lessons"});
        qputenv("CUDAVIZ_LESSONS_DIR", lessons_folder().toLocal8Bit());
        QVERIFY2(list.code == 0, qPrintable(describe(list)));
        QCOMPARE(QJsonDocument::fromJson(list.out.toUtf8()).object().value("lessons").toArray().size(), 1);
        QVERIFY2(list.err.contains("11-broken.md: the header has no 'title'"), qPrintable(list.err));
        QVERIFY2(check.code == 0, qPrintable(describe(check)));
        QVERIFY2(none.code == 1 && none.err.contains("no lesson files"), qPrintable(describe(none)));
    }

    void help_names_the_commands() {
        const CliRun top = run_cli({"--help"});
        QVERIFY(top.out.contains("lessons [--json]") && top.out.contains("lesson check ID (--kernel-file FILE.cu | --answer TEXT)"));
        const CliRun lesson = run_cli({"lesson", "--help"});
        QCOMPARE(lesson.code, 0);
        QVERIFY(lesson.out.contains("--kernel-file") && lesson.out.contains("--answer") && lesson.out.contains("Exit status"));
    }
};

QTEST_GUILESS_MAIN(TstCliLessons)
#include "tst_cli_lessons.moc"
