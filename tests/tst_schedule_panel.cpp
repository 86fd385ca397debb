// The recorded schedule in the window (ui/windows/schedule_actions, ui/panels/schedule_panel,
// ui/views/schedule_overlay): File > Open Schedule shows the recorded SMs beside the model at the same
// time with the differences computed from the recording; the output view greys finished blocks and
// outlines running ones, at least ScheduleOverlay::kMinRunningPx wide even when a block is a fraction
// of a pixel on screen; Jump to Tail and the speed control move the time; a malformed file is a
// message naming it; Run > Record Schedule records the current launch on the emulator.
#include <QtTest>

#include <QDockWidget>
#include <QMenu>
#include <QTemporaryDir>

#include "app/grayscale/grayscale_session.h"
#include "app/io/schedule_json.h"
#include "app/user/user_compile.h"
#include "kernels/grayscale/grayscale_user_call.h"
#include "kernels/user/user_emulated.h"
#include "ui/panels/schedule_panel.h"
#include "ui/panels/schedule_sm_view.h"
#include "ui/views/block_colors.h"
#include "ui/views/image_surface.h"
#include "ui/views/schedule_overlay.h"
#include "ui/views/view_transform.h"
#include "ui/pages/grayscale/image_page.h"
#include "ui/pages/matmul/matmul_page.h"
#include "ui/windows/main_window.h"
#include "ui/windows/schedule_actions.h"
#include "support/main_window_fixtures.h"
#include "support/test_images.h"

using namespace cvz;

namespace {

constexpr int kTimeoutMs = 60000;

// The 97x33 photo's default launch (2-D 16x16) has a grid of 7x3 = 21 blocks. Recorded on 4 "SMs" in
// the reverse of the model's order, one block at a time each, 100 ns a block; block 20 runs to 1000 ns
// (the tail: the other SMs are done at 500 ns).
BlockSchedule synthetic() {
    BlockSchedule s;
    s.backend = "cuda";
    s.device = "Test GPU";
    s.sms = 4;
    for (unsigned b = 0; b < 21; ++b) {
        const std::uint64_t start = (b / 4) * 100;
        s.blocks.push_back({Dim3{b % 7, b / 7, 0}, 3 - int(b % 4), start, b == 20 ? 1000 : start + 100});
    }
    return s;
}

// The overlay alone, drawn over transparency.
QImage render(ScheduleOverlay* overlay) {
    QImage image(overlay->size(), QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::transparent);
    overlay->render(&image, QPoint(), QRegion(), QWidget::DrawChildren);
    return image;
}

// The white inner outline of a running block: within the first pixels in from its left edge.
bool has_white_edge(const QImage& image, const QRectF& r) {
    const int y = int(r.center().y());
    for (int x = int(r.left()); x <= int(r.left()) + 3; ++x)
        if (image.pixelColor(x, y).rgb() == QColor(Qt::white).rgb()) return true;
    return false;
}

}  // namespace

class TestSchedulePanel : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void init() { QSettings().clear(); }
    void open_schedule_replays_beside_model();
    void overlay_greys_done_and_outlines_running();
    void tail_and_speed_move_the_time();
    void malformed_file_is_named();
    void record_on_the_emulator();
    void record_your_kernel_when_chosen();
    void record_on_the_page_in_front();
    void shipped_h200_schedule_opens();
    void closing_the_panel_ends_the_replay_over_the_image();
    void another_launch_says_how_it_differs();

private:
    bool open(MainWindow& w);
    QTemporaryDir dir_;
    QString photo_, json_;
    DisplayPathChoice display_;
};

void TestSchedulePanel::initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("cudaviz"));
    QCoreApplication::setApplicationName(QStringLiteral("cudaviz-schedule-test"));  // its own settings
    QVERIFY(dir_.isValid());
    photo_ = dir_.filePath(QStringLiteral("photo.png"));
    QVERIFY(test::make_test_image(97, 33, 5).save(photo_));
    json_ = dir_.filePath(QStringLiteral("synthetic.json"));
    QCOMPARE(write_schedule_json(json_, synthetic()), QString());
    display_ = choose_display_path(false);
}

bool TestSchedulePanel::open(MainWindow& w) {
    if (!test::show_and_wait(w, {1200, 760}, kTimeoutMs)) return false;
    return QTest::qWaitFor([&] { return test::image_page(w)->currentFile() == photo_ && test::image_page(w)->resultImage().size() == QSize(97, 33) &&
                                        !w.page<ImagePage>()->session()->running() && !w.jobs()->busy(); },
                           kTimeoutMs);
}

void TestSchedulePanel::open_schedule_replays_beside_model() {
    MainWindow w(display_, photo_);
    QVERIFY(open(w));
    ScheduleActions* actions = w.scheduleActions();
    QVERIFY(!actions->dock()->isVisible());
    QCOMPARE(actions->openSchedule(json_), QString());
    QVERIFY(actions->dock()->isVisible());
    SchedulePanel* panel = actions->panel();
    QCOMPARE(panel->time(), 0u);
    QVERIFY2(panel->caption().contains("Test GPU (synthetic.json, 4 SMs)"), qPrintable(panel->caption()));
    QVERIFY2(panel->caption().contains("t = 0 ns of 1.00 µs"), qPrintable(panel->caption()));
    const QString diff = panel->differencesText();
    QVERIFY2(diff.contains("the first blocks went to SMs 3, 2, 1, 0; the model deals block i to SM i mod 4 (0, 1, 2, 3)"),
             qPrintable(diff));
    QVERIFY2(diff.contains("0 of 21 blocks ran on the SM the model predicts"), qPrintable(diff));  // all mirrored
    QVERIFY2(diff.contains("SMs went idle for good from 500 ns; the last 500 ns (50.0% of the run)"), qPrintable(diff));
    QVERIFY2(diff.contains("SM 3 ran 6, SM 0 ran 5 (4 of 4 SMs used); the model gives each 5 or 6"), qPrintable(diff));
    QVERIFY2(diff.contains("longest 500 ns (block [6, 2, 0] on SM 3)"), qPrintable(diff));

    // t = 150 ns: blocks 4..7 run, each on the mirror of the SM the model puts it on.
    panel->setTime(150);
    const auto& recorded = panel->recordedView()->occupancy();
    const auto& model = panel->modelView()->occupancy();
    QCOMPARE(recorded.size(), std::size_t(4));
    for (int sm = 0; sm < 4; ++sm) QCOMPARE(recorded[std::size_t(sm)], (std::vector<std::uint64_t>{std::uint64_t(7 - sm)}));
    // The model's 6 waves over 1000 ns: wave 0 at 150 ns, block sm on SM sm.
    for (int sm = 0; sm < 4; ++sm) QCOMPARE(model[std::size_t(sm)], (std::vector<std::uint64_t>{std::uint64_t(sm)}));
    QVERIFY2(panel->caption().contains("4 running, 4 of 21 blocks done"), qPrintable(panel->caption()));
    QVERIFY2(panel->caption().contains("model: wave 1 of 6"), qPrintable(panel->caption()));
    // The recorded view paints block 7's colour inside SM 0's box.
    const QImage grab = panel->recordedView()->grab().toImage();
    const QRectF box = panel->recordedView()->smBox(0);
    const QColor painted = grab.pixelColor((box.topLeft() + QPointF(4, 4)).toPoint() * grab.devicePixelRatio());
    QCOMPARE(painted.rgb(), color_for_id(7).rgb());
}

void TestSchedulePanel::overlay_greys_done_and_outlines_running() {
    MainWindow w(display_, photo_);
    QVERIFY(open(w));
    QCOMPARE(w.scheduleActions()->openSchedule(json_), QString());
    ScheduleOverlay* overlay = w.scheduleActions()->overlay();
    QVERIFY(overlay);
    QVERIFY(overlay->matches());
    QCOMPARE(overlay->size(), test::image_page(w)->resultView()->widget()->size());
    w.scheduleActions()->panel()->setTime(150);  // blocks 0-3 done, 4-7 running
    QImage image = render(overlay);
    // Block 1 (image pixels 16-31 x 0-15) is done: grey, half transparent.
    const QPoint done = test::image_page(w)->resultView()->imageToWidget(QPointF(24, 8)).toPoint();
    const QColor grey = image.pixelColor(done);
    QVERIFY2(grey.alpha() > 100 && grey.alpha() < 255 && qAbs(grey.red() - grey.blue()) < 3, qPrintable(grey.name(QColor::HexArgb)));
    // Block 5 (pixels 80-95 x 0-15) runs: its colour fills its rectangle, inside a white and dark outline.
    const QRectF r5 = overlay->runningRect(5);
    const QColor fill = image.pixelColor(r5.center().toPoint());
    const QColor want = color_for_id(5);
    QVERIFY2(qAbs(fill.alpha() - 191) <= 1 && qAbs(fill.red() - want.red()) <= 2 && qAbs(fill.green() - want.green()) <= 2 &&
                 qAbs(fill.blue() - want.blue()) <= 2,
             qPrintable(fill.name(QColor::HexArgb) + " want " + want.name()));
    QVERIFY(has_white_edge(image, r5));
    // Block 10 (pixels 48-63 x 16-31) has not started: nothing drawn.
    QCOMPARE(image.pixelColor(test::image_page(w)->resultView()->imageToWidget(QPointF(56, 24)).toPoint()).alpha(), 0);

    // Zoomed far out, a block is under a pixel wide: running blocks keep kMinRunningPx and stay drawn.
    test::image_page(w)->viewTransform()->setZoom(0.05);
    const QRectF tiny = overlay->runningRect(5);
    QVERIFY2(tiny.width() >= ScheduleOverlay::kMinRunningPx && tiny.height() >= ScheduleOverlay::kMinRunningPx,
             qPrintable(QStringLiteral("%1x%2").arg(tiny.width()).arg(tiny.height())));
    image = render(overlay);
    QVERIFY(image.pixelColor(tiny.center().toPoint()).alpha() > 0);
    QVERIFY(has_white_edge(image, tiny));

    // Another block shape has another grid: the recording no longer matches and nothing is drawn.
    w.page<ImagePage>()->session()->setShape(LaunchShape::two_d(32, 8));
    QTRY_VERIFY_WITH_TIMEOUT(!overlay->matches(), kTimeoutMs);
    QVERIFY(render(overlay) == [&] { QImage e(overlay->size(), QImage::Format_ARGB32_Premultiplied); e.fill(Qt::transparent); return e; }());
}

void TestSchedulePanel::tail_and_speed_move_the_time() {
    MainWindow w(display_, photo_);
    QVERIFY(open(w));
    QCOMPARE(w.scheduleActions()->openSchedule(json_), QString());
    SchedulePanel* panel = w.scheduleActions()->panel();
    panel->jumpToTail();
    QCOMPARE(panel->time(), 500u);
    QVERIFY2(panel->caption().contains("the tail: SMs going idle"), qPrintable(panel->caption()));
    QCOMPARE(panel->recordedView()->occupancy()[3], (std::vector<std::uint64_t>{20}));
    for (int sm = 0; sm < 3; ++sm) QVERIFY(panel->recordedView()->occupancy()[std::size_t(sm)].empty());
    // The whole run in 5 s: 100 ms of replay is a fiftieth of the 1000 ns run.
    panel->setSpeedIndex(0);
    QCOMPARE(panel->secondsPerRun(), 5.0);
    panel->advance(100);
    QCOMPARE(panel->time(), 520u);
    panel->setSpeedIndex(3);  // the slowest: 300 s
    panel->advance(3000);
    QCOMPARE(panel->time(), 530u);
    // Playing to the end stops there.
    panel->setPlaying(true);
    QVERIFY(panel->playing());
    panel->setSpeedIndex(0);
    panel->advance(10000);
    QCOMPARE(panel->time(), 1000u);
    QVERIFY(!panel->playing());
}

void TestSchedulePanel::malformed_file_is_named() {
    MainWindow w(display_, photo_);
    QVERIFY(open(w));
    const QString bad = dir_.filePath(QStringLiteral("bad.json"));
    QFile f(bad);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(R"({"backend": "cuda", "device": "x", "sms": 2, "blocks": [{"block": [0,0,0], "sm": 5, "start_ns": 0, "end_ns": 1}]})");
    f.close();
    const QString error = w.scheduleActions()->openSchedule(bad);
    QVERIFY2(error.contains(QDir::toNativeSeparators(bad)) && error.contains("ran on SM 5, outside 0..1"), qPrintable(error));
    QCOMPARE(w.statusText(), error);
    QVERIFY(w.errorBox());
    QVERIFY2(w.errorBox()->text().contains("ran on SM 5"), qPrintable(w.errorBox()->text()));
    QVERIFY(!w.scheduleActions()->dock()->isVisible());  // nothing was shown
}

void TestSchedulePanel::record_on_the_emulator() {
    MainWindow w(display_, photo_);
    QVERIFY(open(w));
    w.page<ImagePage>()->session()->setBackend(BackendChoice::Cpu);
    QTRY_VERIFY_WITH_TIMEOUT(!w.page<ImagePage>()->session()->running() && !w.jobs()->busy(), kTimeoutMs);
    QSignalSpy finished(w.scheduleActions(), &ScheduleActions::finished);
    QVERIFY(w.scheduleActions()->recordSchedule().isValid());
    QVERIFY(finished.wait(kTimeoutMs));
    QCOMPARE(finished.first().first().toBool(), true);
    const auto replay = w.scheduleActions()->panel()->replay();
    QVERIFY(replay);
    QVERIFY(replay->grid() == w.page<ImagePage>()->session()->plan().grid);
    QCOMPARE(replay->schedule().backend, std::string("cpu"));
    QCOMPARE(replay->schedule().blocks.size(), std::size_t(21));
    QVERIFY(w.scheduleActions()->overlay()->matches());
    QVERIFY2(w.statusText().startsWith("Recorded the schedule of 21 blocks on CPU emulator"), qPrintable(w.statusText()));
    QVERIFY(w.scheduleActions()->panel()->differencesText().contains("host worker"));
}

// Record Schedule records the launch of the page in front, whichever it is: on the matrices page the
// naive kernel's 16x8 blocks over a 37x29 C are a 2 x 5 grid (the image page's photo has 7 x 3).
void TestSchedulePanel::record_on_the_page_in_front() {
    MainWindow w(display_, photo_);
    QVERIFY(open(w));
    MatmulPage* page = w.page<MatmulPage>();
    w.tabs()->setCurrentWidget(page);
    QCOMPARE(w.currentPage(), static_cast<KernelPage*>(page));
    page->setBackend(BackendChoice::Cpu);
    Matrix a, b;
    a.rows = 37, a.cols = 70, a.data.assign(a.size(), 0.5f);
    b.rows = 70, b.cols = 29, b.data.assign(b.size(), 0.25f);
    page->setMatrices(a, b);
    page->setLaunch(MatmulLaunch::naive(16, 8));
    QTRY_VERIFY_WITH_TIMEOUT(!page->running() && !w.jobs()->busy(), kTimeoutMs);
    QSignalSpy finished(w.scheduleActions(), &ScheduleActions::finished);
    QVERIFY(w.scheduleActions()->recordSchedule().isValid());
    QVERIFY(finished.wait(kTimeoutMs));
    QCOMPARE(finished.first().first().toBool(), true);
    const auto replay = w.scheduleActions()->panel()->replay();
    QVERIFY(replay);
    QVERIFY(replay->grid() == (Dim3{2, 5, 1}));
    QCOMPARE(replay->schedule().blocks.size(), std::size_t(10));
    QCOMPARE(replay->schedule().backend, std::string("cpu"));
}

void TestSchedulePanel::record_your_kernel_when_chosen() {
    // Record Schedule asks the session for its job: with your kernel chosen, your kernel's launch is
    // recorded, told from the built-in's by its grid (the lecture's 1-D kernel runs a 1-D grid).
    if (user::kernel_runner_path().empty()) QSKIP("cudaviz-kernel-runner is not built here: user kernels cannot run");
    QFile f(QStringLiteral(CUDAVIZ_SOURCE_DIR "/resources/kernels/grayscale_1d.cu"));
    QVERIFY(f.open(QIODevice::ReadOnly));
    const user::SourceFile source{"grayscale_1d.cu", f.readAll().toStdString()};
    const UserCompileOutcome v = compile_user_variant(KernelFamily::Grayscale, grayscale_user_forms(), source);
    QVERIFY2(v.ok(), qPrintable(v.error));
    MainWindow w(display_, photo_);
    QVERIFY(open(w));
    GrayscaleSession* session = w.page<ImagePage>()->session();
    session->setBackend(BackendChoice::Cpu);
    session->setLayout(PixelLayout::Planar);
    session->setShape(LaunchShape::two_d(16, 16));  // the built-in's grid would be 7 x 3
    QTRY_VERIFY_WITH_TIMEOUT(!session->running() && !w.jobs()->busy(), kTimeoutMs);
    QSignalSpy user_done(session, &GrayscaleSession::userRunFinished);
    session->setUserKernel(v.variant->ref);
    QVERIFY(session->runsUserKernel());
    QVERIFY(user_done.count() > 0 || user_done.wait(kTimeoutMs));
    QTRY_VERIFY_WITH_TIMEOUT(!session->running() && !w.jobs()->busy(), kTimeoutMs);
    QSignalSpy finished(w.scheduleActions(), &ScheduleActions::finished);
    QVERIFY(w.scheduleActions()->recordSchedule().isValid());
    QVERIFY(finished.wait(kTimeoutMs));
    QCOMPARE(finished.first().first().toBool(), true);
    const auto replay = w.scheduleActions()->panel()->replay();
    QVERIFY(replay);
    // 97 x 33 = 3201 pixels in 1-D blocks of 16 (the block's x): 201 blocks in a row.
    QVERIFY(replay->grid() == (Dim3{201, 1, 1}));
    QCOMPARE(replay->schedule().blocks.size(), std::size_t(201));
    QCOMPARE(replay->schedule().backend, std::string("cpu"));
    session->setUserKernel(KernelRef{});
    QVERIFY(!session->runsUserKernel());
}

void TestSchedulePanel::shipped_h200_schedule_opens() {
    // The sample photo (451x300) in 16x16 blocks is the grid of the shipped H200 recording.
    MainWindow w(display_, MainWindow::sampleFile());
    QVERIFY(test::show_and_wait(w, {1200, 760}, kTimeoutMs));
    QTRY_VERIFY_WITH_TIMEOUT(test::image_page(w)->resultImage().size() == QSize(451, 300) && !w.page<ImagePage>()->session()->running() && !w.jobs()->busy(), kTimeoutMs);
    w.page<ImagePage>()->session()->setShape(LaunchShape::two_d(16, 16));
    QTRY_VERIFY_WITH_TIMEOUT(w.page<ImagePage>()->session()->plan().grid == (Dim3{29, 19, 1}) && !w.jobs()->busy(), kTimeoutMs);
    QCOMPARE(w.scheduleActions()->openSchedule(QStringLiteral(":/schedules/h200_gray2d_16x16_451x300.json")), QString());
    const auto replay = w.scheduleActions()->panel()->replay();
    QCOMPARE(replay->schedule().device, std::string("NVIDIA H200"));
    QCOMPARE(replay->schedule().sms, 132);
    QCOMPARE(replay->schedule().blocks.size(), std::size_t(551));
    QVERIFY(w.scheduleActions()->overlay()->matches());
    const QString diff = w.scheduleActions()->panel()->differencesText();
    const WavePlan& waves = w.page<ImagePage>()->session()->waves();
    const QString model = waves.sm_count == 132 ? QStringLiteral("blocks per SM (the occupancy model)")
                                                : QStringLiteral("per SM (the most seen at once)");
    QVERIFY2(diff.contains(model), qPrintable(diff));
    QVERIFY2(diff.contains("(132 of 132 SMs used)"), qPrintable(diff));
}

// Issue 30, item 1: a paused replay stayed over the output after its panel was closed, and the panel
// could not be opened again (it was not in View > Panels).
void TestSchedulePanel::closing_the_panel_ends_the_replay_over_the_image() {
    MainWindow w(display_, MainWindow::sampleFile());
    QVERIFY(test::show_and_wait(w, {1200, 760}, kTimeoutMs));
    QTRY_VERIFY_WITH_TIMEOUT(test::image_page(w)->resultImage().size() == QSize(451, 300) && !w.page<ImagePage>()->session()->running() && !w.jobs()->busy(), kTimeoutMs);
    w.page<ImagePage>()->session()->setShape(LaunchShape::two_d(16, 16));
    QTRY_VERIFY_WITH_TIMEOUT(w.page<ImagePage>()->session()->plan().grid == (Dim3{29, 19, 1}) && !w.jobs()->busy(), kTimeoutMs);
    QCOMPARE(w.scheduleActions()->openSchedule(QStringLiteral(":/schedules/h200_gray2d_16x16_451x300.json")), QString());
    SchedulePanel* panel = w.scheduleActions()->panel();
    QDockWidget* dock = w.scheduleActions()->dock();
    QVERIFY(w.panelsMenu()->actions().contains(dock->toggleViewAction()));
    panel->setPlaying(true);
    panel->advance(2000);
    panel->setPlaying(false);
    QVERIFY(w.scheduleActions()->overlay() && w.scheduleActions()->overlay()->isVisible());
    if (qEnvironmentVariableIsSet("SCHEDULE_GRAB_DIR"))  // to look at: paused mid-run, then closed
        w.grab().save(qEnvironmentVariable("SCHEDULE_GRAB_DIR") + QStringLiteral("/schedule_paused.png"));
    dock->toggleViewAction()->trigger();  // what the dock's close button does
    QVERIFY(dock->isHidden());
    if (qEnvironmentVariableIsSet("SCHEDULE_GRAB_DIR")) {
        QCoreApplication::processEvents();  // the docks' layout after the close
        w.grab().save(qEnvironmentVariable("SCHEDULE_GRAB_DIR") + QStringLiteral("/schedule_closed.png"));
    }
    QVERIFY(!w.scheduleActions()->overlay());  // nothing of the replay is drawn over the output
    QVERIFY(!panel->playing());
    w.requestRun();  // a run does not bring it back
    QTRY_VERIFY_WITH_TIMEOUT(!w.page<ImagePage>()->session()->running() && !w.jobs()->busy(), kTimeoutMs);
    QVERIFY(!w.scheduleActions()->overlay());
    dock->toggleViewAction()->trigger();  // reopened from View > Panels: drawn again, where it was
    QVERIFY(!dock->isHidden());
    QVERIFY(w.scheduleActions()->overlay() && w.scheduleActions()->overlay()->matches());
}

// Issue 30, item 3: a recording of another launch opened silently and was drawn nowhere over the image.
void TestSchedulePanel::another_launch_says_how_it_differs() {
    MainWindow w(display_, photo_);
    QVERIFY(open(w));  // 97x33 in 16x16: a 7 x 3 grid; the recording is of 29 x 19
    QCOMPARE(w.scheduleActions()->openSchedule(QStringLiteral(":/schedules/h200_gray2d_16x16_451x300.json")), QString());
    QVERIFY(!w.scheduleActions()->overlay()->matches());
    const QString note = w.scheduleActions()->panel()->note();
    QVERIFY2(note.contains(QStringLiteral("grid of 29 × 19 blocks")) && note.contains(QStringLiteral("97 × 33 pixels has 7 × 3")) &&
                 note.contains(QStringLiteral("another image size or block shape")),
             qPrintable(note));
    QVERIFY2(w.statusText().contains(QStringLiteral("does not match")), qPrintable(w.statusText()));
    if (qEnvironmentVariableIsSet("SCHEDULE_GRAB_DIR"))
        w.grab().save(qEnvironmentVariable("SCHEDULE_GRAB_DIR") + QStringLiteral("/schedule_mismatch.png"));
    // A 1-D launch of the same image: another variant.
    w.page<ImagePage>()->session()->setShape(LaunchShape::one_d(256));
    QTRY_VERIFY_WITH_TIMEOUT(w.page<ImagePage>()->session()->plan().grid.y == 1 && !w.jobs()->busy(), kTimeoutMs);
    QVERIFY2(w.scheduleActions()->panel()->note().contains(QStringLiteral("another variant: a 2-D grid, and the image page runs a 1-D one")),
             qPrintable(w.scheduleActions()->panel()->note()));
    // 16x16 again: still another image size, still said.
    w.page<ImagePage>()->session()->setShape(LaunchShape::two_d(16, 16));
    QTRY_VERIFY_WITH_TIMEOUT(w.page<ImagePage>()->session()->plan().grid == (Dim3{7, 3, 1}) && !w.jobs()->busy(), kTimeoutMs);
    QVERIFY(!w.scheduleActions()->panel()->note().isEmpty());
}

QTEST_MAIN(TestSchedulePanel)
#include "tst_schedule_panel.moc"