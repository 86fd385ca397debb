// The main window against a hostile user, under Xvfb: a storm of launch-shape changes while runs are
// in flight (the last shape wins, and no superseded run is ever drawn), closing the window in the middle
// of a run or a load (no crash; under the asan preset, no use after free), and bad files of every
// kind, including one that vanishes or turns unreadable after it was chosen, each of which leaves the
// image that was open on screen (ARCHITECTURE.md, invariants 6 and 7).
#include <QtTest>

#include <QApplication>
#include <QComboBox>
#include <QFile>
#include <QLineEdit>
#include <QMessageBox>
#include <QPointer>
#include <QSemaphore>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <memory>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>

#include "app/grayscale/grayscale_session.h"
#include "app/jobs/job_runner.h"
#include "app/io/rgb_buffer.h"
#include "kernels/grayscale/grayscale_reference.h"
#include "ui/views/display_path.h"
#include "ui/panels/launch_shape_box.h"
#include "ui/pages/grayscale/image_page.h"
#include "ui/windows/main_window.h"

#include "support/event_waits.h"
#include "support/main_window_fixtures.h"
#include "support/test_images.h"

using namespace cvz;
using cvz::test::make_test_image;

namespace {

constexpr int kTimeoutMs = 300000;  // only for a hang: a loaded machine or the asan build is slow

// The block shape of the run on screen, as the shape box writes it ("16x2", "256").
QString shown_shape(const MainWindow& w) { return QString::fromStdString(to_string(w.page<ImagePage>()->session()->resultShape())); }

std::vector<std::uint8_t> reference_gray(const QImage& image) {
    const RgbBuffer rgb = to_rgb_buffer(image);
    std::vector<std::uint8_t> gray(std::size_t(rgb.width) * rgb.height);
    grayscale_reference(GrayscaleImage{rgb.bytes.data(), gray.data(), rgb.width, rgb.height, PixelLayout::Interleaved});
    return gray;
}

bool result_equals(const QImage& result, const std::vector<std::uint8_t>& gray) {
    if (result.format() != QImage::Format_Grayscale8 || std::size_t(result.width()) * result.height() != gray.size())
        return false;
    for (int y = 0; y < result.height(); ++y)
        if (std::memcmp(result.constScanLine(y), gray.data() + std::size_t(y) * result.width(), result.width()) != 0)
            return false;
    return true;
}

}  // namespace

class TestHostileGui : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void init();
    void cleanup();

    void shape_storm_during_runs();
    void close_during_run();
    void close_during_load();
    void bad_file_keeps_previous_image_data();
    void bad_file_keeps_previous_image();
    void file_vanishes_after_it_was_chosen_data();
    void file_vanishes_after_it_was_chosen();

private:
    bool show_and_wait(MainWindow& w) { return test::show_and_wait(w, {1000, 600}, kTimeoutMs); }
    // Waits for the error box a failed open shows, checks that it names `file`, and closes it.
    bool error_shown_for(MainWindow& w, const QString& file, const QString& problem);

    QTemporaryDir dir_;
    QString big_png_, small_png_;
    QImage big_, small_;
    DisplayPathChoice display_;
};

void TestHostileGui::initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("cudaviz"));
    QCoreApplication::setApplicationName(QStringLiteral("cudaviz-hostile-gui"));
    QVERIFY(dir_.isValid());
    // Large enough that a run on the emulator is still going when the next change comes.
    big_ = make_test_image(1200, 800, 1);
    big_png_ = dir_.filePath(QStringLiteral("big.png"));
    QVERIFY(big_.save(big_png_));
    small_ = make_test_image(61, 37, 2);
    small_png_ = dir_.filePath(QStringLiteral("small.png"));
    QVERIFY(small_.save(small_png_));
    display_ = choose_display_path(false);
    qInfo("display path: %s (%s)", qPrintable(to_string(display_.path)), qPrintable(display_.reason));
}

void TestHostileGui::init() { QSettings().clear(); }

void TestHostileGui::cleanup() {
    // An error box left open by a failed check must not leak into the next test.
    for (QWidget* w : QApplication::topLevelWidgets())
        if (qobject_cast<QMessageBox*>(w)) w->close();
}

bool TestHostileGui::error_shown_for(MainWindow& w, const QString& file, const QString& problem) {
    if (!QTest::qWaitFor([&] { return w.errorBox() && w.errorBox()->isVisible() && !w.jobs()->busy(); }, kTimeoutMs)) {
        qWarning("no error box; status: %s", qPrintable(w.statusText()));
        return false;
    }
    const QString text = w.errorBox()->text();
    const bool ok = text.contains(QFileInfo(file).fileName()) && text.contains(problem, Qt::CaseInsensitive);
    if (!ok) qWarning("error box says: %s", qPrintable(text));
    w.errorBox()->close();
    if (!QTest::qWaitFor([&] { return !w.errorBox(); }, 2000)) qWarning("the error box did not close");
    return ok;
}

// 300 changes of block shape and layout, three per turn of the event loop, by every route the toolbar
// offers: typed text with Enter, a preset picked from the list, the API the settings use, invalid
// text in between. Runs are in flight throughout. Every result drawn must belong to the run that was
// the latest request when it was drawn (a superseded run is never shown), and the window must end
// showing the result of the last shape; then a burst made while the worker is busy must be
// collapsed into one run, not queued. How long the event loop stalls meanwhile is measured by
// bench/bench_gui_latency, not here: on a loaded machine that figure says more about the machine.
void TestHostileGui::shape_storm_during_runs() {
    MainWindow w(display_, big_png_);
    QVERIFY(show_and_wait(w));
    auto* box = w.findChild<LaunchShapeBox*>(QStringLiteral("launchShapeBox"));
    auto* layout = w.findChild<QComboBox*>(QStringLiteral("layoutBox"));
    QVERIFY(box && layout);
    const std::vector<std::uint8_t> want = reference_gray(big_);

    // Checked at the moment of drawing, when "latest" is decided: a newer request still unanswered
    // then means the result drawn is a superseded one.
    int drawn = 0, superseded_drawn = 0;
    connect(w.page<ImagePage>()->session(), &GrayscaleSession::runFinished, this, [&] {
        ++drawn;
        if (w.page<ImagePage>()->session()->running()) ++superseded_drawn;
    });

    const QStringList valid = {"256", "16x16", "32x8", "1024", "8x8", "32x32", "64", "1x1024", "1024x1", "128", "7x3"};
    const QStringList invalid = {"1025", "33x32", "0", "x", "1x1025", "-4", "99999999999"};
    const int changes = 300;
    const QString last = QStringLiteral("24x40");  // in no list above: the run shown must be this one

    // Three changes, then one turn of the event loop (results arrive, the worker goes on), and again:
    // paced by the loop, not by a clock, so that a loaded machine only makes the storm slower.
    for (int i = 0; i < changes; ++i) {
        const QString text = (i % 13 == 5) ? invalid[i % invalid.size()] : valid[i % valid.size()];
        switch (i % 4) {
            case 0: box->setShapeText(text); break;
            case 1:  // typed, then Enter
                box->lineEdit()->setText(text);
                QTest::keyClick(box->lineEdit(), Qt::Key_Return);
                break;
            case 2: emit box->activated(i % box->count()); break;  // a preset picked from the list
            case 3: layout->setCurrentIndex((i / 4) % 2); break;
        }
        if (i % 3 == 2) QCoreApplication::processEvents();
    }
    box->setShapeText(last);
    QVERIFY(test::drain(*w.jobs(), kTimeoutMs));  // every run done, every continuation delivered

    qInfo("%d changes: %d results drawn", changes, drawn);
    QCOMPARE(superseded_drawn, 0);
    QVERIFY(drawn > 0);
    QVERIFY(!w.page<ImagePage>()->session()->running());  // the latest request is answered: the last shape's run
    QCOMPARE(box->shapeText(), last);
    QCOMPARE(shown_shape(w), last);
    QVERIFY(result_equals(test::image_page(w)->resultImage(), want));  // every shape and layout gives the same bytes
    QCOMPARE(test::image_page(w)->currentFile(), big_png_);

    // 60 changes while the worker is held busy by another job: a newer request replaces a queued
    // older one, so when the worker is free exactly one run, the last, is made and shown, not 60.
    QSemaphore release_worker;
    std::atomic<bool> holding{false};
    w.jobs()->submit(QStringLiteral("test-hold"), this, [&release_worker, &holding]() -> JobRunner::Continuation {
        holding = true;
        release_worker.acquire();
        return {};
    });
    QVERIFY(QTest::qWaitFor([&] { return holding.load(); }, kTimeoutMs));
    const int runs_before_burst = w.page<ImagePage>()->session()->completedRuns();
    drawn = 0;
    for (int k = 0; k < 60; ++k) box->setShapeText(valid[k % valid.size()]);
    box->setShapeText(QStringLiteral("16x2"));
    QCOMPARE(w.jobs()->queued(), 1);  // the hold job runs; one run waits
    release_worker.release();
    QVERIFY(test::drain(*w.jobs(), kTimeoutMs));
    QCOMPARE(w.page<ImagePage>()->session()->completedRuns() - runs_before_burst, 1);
    QCOMPARE(drawn, 1);
    QCOMPARE(shown_shape(w), QStringLiteral("16x2"));
    QCOMPARE(superseded_drawn, 0);
    QVERIFY(result_equals(test::image_page(w)->resultImage(), want));
}

// The window closed and destroyed with runs on the worker: the destructor drops the queued ones and
// waits for the running one, whose result then has nowhere to go and is dropped. ASan sees any use of
// the dead window. A hold job keeps the worker busy while the runs are queued, so they are surely
// still there when the close comes, however fast or loaded the machine (CI once finished a 32x32 run
// before the test could look).
void TestHostileGui::close_during_run() {
    for (int round = 0; round < 3; ++round) {
        auto w = std::make_unique<MainWindow>(display_, big_png_);
        QVERIFY(show_and_wait(*w));
        QSemaphore release_worker;
        std::atomic<bool> holding{false};
        w->jobs()->submit(QStringLiteral("test-hold"), this, [&release_worker, &holding]() -> JobRunner::Continuation {
            holding = true;
            release_worker.acquire();
            return {};
        });
        QVERIFY(QTest::qWaitFor([&] { return holding.load(); }, kTimeoutMs));
        auto* box = w->findChild<LaunchShapeBox*>(QStringLiteral("launchShapeBox"));
        box->setShapeText(round == 0 ? "1" : round == 1 ? "32x32" : "1x1024");  // a new run is queued
        w->requestRun();                                                           // and asked for again
        QVERIFY(w->jobs()->queued() >= 1);  // behind the hold: nothing of it has run yet
        release_worker.release();
        // Rounds 0 and 1 close at once, the run queued or just taken. Round 2 waits until the worker
        // has taken the run (nothing queued), so the close lands inside it or just after it.
        if (round == 2) QVERIFY(QTest::qWaitFor([&] { return w->jobs()->queued() == 0; }, kTimeoutMs));
        w->close();
        w.reset();
        test::deliver_posted_events();  // whatever the worker posted must find nothing to touch
    }
    // With WA_DeleteOnClose, as a window closed by its title bar and deleted by Qt.
    auto* w = new MainWindow(display_, big_png_);
    QPointer<MainWindow> alive(w);
    w->setAttribute(Qt::WA_DeleteOnClose);
    QVERIFY(show_and_wait(*w));
    w->requestRun();
    w->close();
    QTRY_VERIFY_WITH_TIMEOUT(alive.isNull(), kTimeoutMs);
    test::deliver_posted_events();
}

void TestHostileGui::close_during_load() {
    auto w = std::make_unique<MainWindow>(display_, small_png_);
    QVERIFY(show_and_wait(*w));
    w->openFile(big_png_);  // decoding on the worker
    w->close();
    w.reset();
    test::deliver_posted_events();
    // Destroyed before the first load of its start file even began.
    auto early = std::make_unique<MainWindow>(display_, big_png_);
    early.reset();
    test::deliver_posted_events();
}

void TestHostileGui::bad_file_keeps_previous_image_data() {
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("problem");
    auto write = [this](const QString& name, const QByteArray& bytes) {
        QFile f(dir_.filePath(name));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(bytes);
    };
    write("text.png", "This is text, not a picture.\n");
    QTest::newRow("text named .png") << "text.png" << "not an image";
    QFile png(small_png_);
    QVERIFY(png.open(QIODevice::ReadOnly));
    const QByteArray bytes = png.readAll();
    write("truncated.png", bytes.left(bytes.size() / 2));
    QTest::newRow("truncated png") << "truncated.png" << "truncated or corrupt";
    write("empty.png", {});
    QTest::newRow("empty file") << "empty.png" << "empty";
    QTest::newRow("missing") << "missing.png" << "no such file";
    QVERIFY(QDir(dir_.path()).mkpath("folder.png"));
    QTest::newRow("directory") << "folder.png" << "directory";
    const QString fifo = dir_.filePath("pipe.png");
    if (!QFile::exists(fifo)) QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
    QTest::newRow("named pipe") << "pipe.png" << "not a regular file";
    if (!QFile::exists(dir_.filePath("zero.png"))) QVERIFY(QFile::link("/dev/zero", dir_.filePath("zero.png")));
    QTest::newRow("link to /dev/zero") << "zero.png" << "not a regular file";
}

void TestHostileGui::bad_file_keeps_previous_image() {
    QFETCH(QString, name);
    QFETCH(QString, problem);
    MainWindow w(display_, small_png_);
    QVERIFY(show_and_wait(w));
    const QImage original = test::image_page(w)->originalImage(), result = test::image_page(w)->resultImage();
    const int runs = w.page<ImagePage>()->session()->completedRuns();

    const QString file = dir_.filePath(name);
    w.openFile(file);
    QVERIFY(error_shown_for(w, file, problem));
    QCOMPARE(test::image_page(w)->currentFile(), small_png_);
    QCOMPARE(test::image_page(w)->originalImage(), original);
    QCOMPARE(test::image_page(w)->resultImage(), result);
    QCOMPARE(w.page<ImagePage>()->session()->completedRuns(), runs);  // nothing was run on a half-loaded image
    QVERIFY(w.windowTitle().contains("small.png"));
}

void TestHostileGui::file_vanishes_after_it_was_chosen_data() {
    QTest::addColumn<bool>("unreadable");  // false: deleted; true: chmod 000
    QTest::newRow("deleted") << false;
    QTest::newRow("made unreadable") << true;
}

// Chosen while the worker is busy with a long run, so the load waits its turn; meanwhile the file is
// deleted, or its permissions taken away. When the load comes, it must fail with a message and keep
// what was open.
void TestHostileGui::file_vanishes_after_it_was_chosen() {
    QFETCH(bool, unreadable);
    if (unreadable && geteuid() == 0)
        QSKIP("running as root, which reads files whatever their permissions; tst_hostile_inputs checks the "
              "unreadable case through the CLI run as the user nobody");
    MainWindow w(display_, big_png_);
    QVERIFY(show_and_wait(w));
    const QImage original = test::image_page(w)->originalImage();
    const QString file = dir_.filePath(unreadable ? "locked.png" : "doomed.png");
    QFile::remove(file);
    QVERIFY(QFile::copy(small_png_, file));

    w.findChild<LaunchShapeBox*>(QStringLiteral("launchShapeBox"))->setShapeText("1");  // a slow run: 1 thread per block
    // Usually the run is still on the worker when the open is queued behind it. On a loaded machine the
    // worker may finish it before this thread gets here (JobRunner::busy() is false once the job is done,
    // before its result reaches this thread: CI saw that once), and then the open simply comes after it.
    // Either way the open must fail with a message and keep what was open.
    w.openFile(file);  // queued behind the run
    if (unreadable) QVERIFY(QFile::setPermissions(file, QFileDevice::Permissions()));
    else QVERIFY(QFile::remove(file));
    QVERIFY(error_shown_for(w, file, unreadable ? "cannot be read" : "no such file"));
    QCOMPARE(test::image_page(w)->currentFile(), big_png_);
    QCOMPARE(test::image_page(w)->originalImage(), original);
    QVERIFY(QTest::qWaitFor([&] { return !w.jobs()->busy(); }, kTimeoutMs));
    QVERIFY(result_equals(test::image_page(w)->resultImage(), reference_gray(big_)));
    if (unreadable) QFile::setPermissions(file, QFileDevice::ReadOwner | QFileDevice::WriteOwner);
}

QTEST_MAIN(TestHostileGui)
#include "tst_hostile_gui.moc"
