// The execution animation: the frame model (which blocks and warps are done, running or waiting at
// each step), and on screen under Xvfb/Mesa: at wave k the result view shows the kernel's grey for
// blocks of earlier waves and the input colour for blocks still waiting; stepping through one
// block's warps; Space plays and pauses from anywhere in the window, the image views included.
#include <QtTest>

#include <QSpinBox>

#include <QAction>
#include <QComboBox>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>

#include <cmath>

#include "support/window_waits.h"
#include "ui/panels/inspector_panel.h"
#include "app/models/execution_animation.h"
#include "app/grayscale/grayscale_session.h"
#include "app/jobs/job_runner.h"
#include "app/models/overlay_geometry.h"
#include "app/models/wave_model.h"
#include "ui/views/display_path.h"
#include "ui/views/image_surface.h"
#include "app/grayscale/grayscale_choice.h"
#include "ui/panels/launch_panel.h"
#include "ui/pages/grayscale/image_page.h"
#include "ui/windows/main_window.h"
#include "ui/panels/occupancy_panel.h"
#include "ui/panels/sm_panel.h"
#include "ui/panels/timeline_bar.h"
#include "ui/views/view_transform.h"

#include "support/main_window_fixtures.h"
#include "support/test_images.h"

using namespace cvz;
using cvz::test::make_test_image;

namespace {

constexpr int kRunTimeoutMs = 120000;  // only for a hang: a loaded machine is slow

// A small GPU: 4 SMs of 128 threads, so 8x8 blocks run two per SM and a 97x33 image (13x5 = 65
// blocks) takes 9 waves of 8, the last a tail of one block.
DeviceProfile small_gpu() {
    DeviceProfile d;
    d.name = QStringLiteral("test GPU");
    d.cc_major = 8;
    d.sm_count = 4;
    d.max_threads_per_sm = 128;
    d.max_blocks_per_sm = 2;
    d.shared_per_sm = 65536;
    d.shared_per_block_max = 49152;
    return d;
}

// The device pixel at the centre of image pixel (x, y) in `view`.
QRgb centre(ImageSurface* view, const QImage& shot, int x, int y) {
    const QPointF w = view->imageToWidget(QPointF(x + 0.5, y + 0.5)) * view->widget()->devicePixelRatioF();
    return shot.pixel(int(std::floor(w.x())), int(std::floor(w.y())));
}

}  // namespace

class TestAnimation : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void init();

    void wave_frames_data();
    void wave_frames();
    void warp_frames();
    void session_keeps_position_in_range();
    void waves_on_screen();
    void warps_of_a_clicked_block_on_screen();
    void space_toggles_play_from_the_view();
    void counters_agree();
    void timeline_plays_to_the_end();
    void sm_panel_follows_the_wave();

private:
    bool show_and_wait(MainWindow& w) { return test::show_and_wait(w, {1400, 800}, kRunTimeoutMs); }
    QTemporaryDir dir_;
    QString png_;
    QImage image_;
    DisplayPathChoice gl_;
};

void TestAnimation::initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("cudaviz"));
    QCoreApplication::setApplicationName(QStringLiteral("cudaviz-animation-test"));  // its own settings: ctest -j runs GUI tests at once
    QVERIFY(dir_.isValid());
    image_ = make_test_image(97, 33);
    png_ = dir_.filePath(QStringLiteral("test.png"));
    QVERIFY(image_.save(png_));
    gl_ = choose_display_path(false);
}

void TestAnimation::init() { QSettings().clear(); }

void TestAnimation::wave_frames_data() {
    QTest::addColumn<int>("blocks");
    QTest::addColumn<int>("sms");
    QTest::addColumn<int>("perSm");
    QTest::addColumn<int>("position");
    QTest::addColumn<int>("doneEnd");
    QTest::addColumn<int>("runEnd");

    QTest::newRow("65 blocks on 4x2, start") << 65 << 4 << 2 << 0 << 0 << 8;
    QTest::newRow("65 blocks on 4x2, wave 4") << 65 << 4 << 2 << 3 << 24 << 32;
    QTest::newRow("65 blocks on 4x2, the tail") << 65 << 4 << 2 << 8 << 64 << 65;
    QTest::newRow("65 blocks on 4x2, all done") << 65 << 4 << 2 << 9 << 65 << 65;
    QTest::newRow("past the end clamps") << 65 << 4 << 2 << 100 << 65 << 65;
    QTest::newRow("one partial wave") << 5 << 132 << 8 << 0 << 0 << 5;
}

void TestAnimation::wave_frames() {
    QFETCH(int, blocks);
    QFETCH(int, sms);
    QFETCH(int, perSm);
    QFETCH(int, position);
    QFETCH(int, doneEnd);
    QFETCH(int, runEnd);
    const WavePlan waves = plan_waves(std::uint64_t(blocks), sms, perSm);
    QCOMPARE(animation_steps(AnimationMode::Waves, waves, 8), waves.waves);
    const AnimationFrame f = animation_frame(AnimationMode::Waves, std::uint64_t(position), waves, -1, 8);
    QCOMPARE(f.done_end, std::uint64_t(doneEnd));
    QCOMPARE(f.run_end, std::uint64_t(runEnd));
    QCOMPARE(f.block, std::int64_t(-1));
    // Every running block is in the frame's wave.
    for (std::uint64_t b = f.done_end; b < f.run_end; ++b) QCOMPARE(waves.slot_of(b).wave, f.wave);
}

void TestAnimation::warp_frames() {
    const WavePlan waves = plan_waves(65, 4, 2);
    QCOMPARE(animation_steps(AnimationMode::Warps, waves, 8), std::uint64_t(8));
    AnimationFrame f = animation_frame(AnimationMode::Warps, 3, waves, 17, 8);
    QCOMPARE(f.block, std::int64_t(17));
    QCOMPARE(f.warp_done_end, std::uint64_t(3));
    QCOMPARE(f.warp_run_end, std::uint64_t(4));
    QCOMPARE(f.done_end, std::uint64_t(65));  // the other blocks count as done
    QCOMPARE(f.wave, std::uint64_t(2));       // block 17 runs in wave 3 (index 2)
    f = animation_frame(AnimationMode::Warps, 8, waves, 17, 8);
    QCOMPARE(f.warp_run_end, std::uint64_t(8));  // all done
    f = animation_frame(AnimationMode::Warps, 0, waves, -1, 8);
    QCOMPARE(f.block, std::int64_t(0));  // no block picked: the first
    QCOMPARE(animation_frame(AnimationMode::Off, 0, waves, -1, 8).done_end, std::uint64_t(65));
}

void TestAnimation::session_keeps_position_in_range() {
    JobRunner jobs;
    GrayscaleSession s(&jobs);
    s.setBackend(BackendChoice::Cpu);
    s.setDevice(small_gpu());
    s.setShape(LaunchShape::two_d(8, 8));
    QImage image(97, 33, QImage::Format_RGB888);
    image.fill(Qt::gray);
    s.setImage(image);
    QCOMPARE(s.plan().blocks, std::uint64_t(65));
    QCOMPARE(s.occupancy().blocks_per_sm, 2);
    s.setAnimationMode(AnimationMode::Waves);
    QCOMPARE(s.animationSteps(), std::uint64_t(9));
    QSignalSpy frames(&s, &GrayscaleSession::frameChanged);
    s.setAnimationPosition(7);
    QCOMPARE(frames.count(), 1);
    s.setAnimationPosition(7);
    QCOMPARE(frames.count(), 1);  // no change, no signal
    // Bigger blocks: fewer waves; the position follows into range.
    s.setShape(LaunchShape::two_d(16, 8));  // 128 threads: one block per SM, 7x5 = 35 blocks, 9 waves of 4
    QCOMPARE(s.animationSteps(), std::uint64_t(9));
    s.setShape(LaunchShape::two_d(32, 4));  // 4x9 = 36 blocks, 9 waves
    s.setShape(LaunchShape::two_d(32, 32));  // 1024 threads do not fit 128 per SM: one per SM in the model
    QVERIFY(s.animationPosition() <= s.animationSteps());
    // Picking a block for the warp animation.
    s.setShape(LaunchShape::two_d(8, 8));
    s.setAnimationMode(AnimationMode::Warps);
    QCOMPARE(s.animationSteps(), std::uint64_t(2));
    s.select(QPoint(20, 10));  // block (2, 1) = 15
    QCOMPARE(s.selectedBlock(), std::int64_t(15));
    QCOMPARE(s.frame().block, std::int64_t(15));
}

void TestAnimation::waves_on_screen() {
    if (gl_.path != DisplayPath::OpenGL) QSKIP("no OpenGL here");
    for (DisplayPathChoice display : {gl_, DisplayPathChoice{DisplayPath::Raster, QStringLiteral("test")}}) {
        MainWindow w(display, png_);
        QVERIFY(show_and_wait(w));
        w.overlayAction()->setChecked(false);  // the animation alone: exact colours to compare
        w.page<ImagePage>()->session()->setDevice(small_gpu());
        w.launchPanel()->setChoice(grayscale_choice(LaunchShape::two_d(8, 8)));
        QTRY_VERIFY_WITH_TIMEOUT(w.page<ImagePage>()->session()->resultShape().block == (Dim3{8, 8, 1}) && !w.jobs()->busy(), kRunTimeoutMs);
        auto* mode = w.animationModeBox();
        mode->setCurrentIndex(mode->findData(int(AnimationMode::Waves)));
        QCOMPARE(w.timeline()->steps(), 9);
        w.timeline()->setPosition(3);  // wave 4: blocks 0-23 done, 24-31 running, 32-64 waiting
        QCOMPARE(test::image_page(w)->overlayState().animation.done_end, std::uint64_t(24));
        QCOMPARE(test::image_page(w)->overlayState().animation.run_end, std::uint64_t(32));
        test::image_page(w)->viewTransform()->setZoom(6);
        test::image_page(w)->viewTransform()->setCenter(QPointF(48.5, 16.5));

        const QImage result = test::image_page(w)->resultView()->grabImage();
        const QImage original = test::image_page(w)->originalView()->grabImage();
        const QImage gray = test::image_page(w)->resultImage();
        const LaunchPlan& plan = w.page<ImagePage>()->session()->plan();
        int done = 0, waiting = 0;
        for (int y = 0; y < 33; ++y)
            for (int x = 0; x < 97; ++x) {
                const QPointF wp = test::image_page(w)->resultView()->imageToWidget(QPointF(x + 0.5, y + 0.5));
                if (!result.rect().contains(wp.toPoint())) continue;
                const std::uint64_t block = plan.thread_of_pixel(std::uint32_t(x), std::uint32_t(y)).linear_block;
                const QRgb got = centre(test::image_page(w)->resultView(), result, x, y) & 0xFFFFFF;
                if (block < 24) {
                    const int g = qGray(gray.pixel(x, y));
                    QVERIFY2(got == (qRgb(g, g, g) & 0xFFFFFF), qPrintable(QStringLiteral("done (%1,%2)").arg(x).arg(y)));
                    ++done;
                } else if (block >= 32) {
                    QVERIFY2(got == (image_.pixel(x, y) & 0xFFFFFF), qPrintable(QStringLiteral("waiting (%1,%2)").arg(x).arg(y)));
                    ++waiting;
                } else {
                    // Running: tinted with the block's colour, neither the grey nor the input.
                    QVERIFY(got != (image_.pixel(x, y) & 0xFFFFFF));
                }
                // The original view keeps the input, except where blocks are running.
                const QPointF op = test::image_page(w)->originalView()->imageToWidget(QPointF(x + 0.5, y + 0.5));
                if ((block < 24 || block >= 32) && original.rect().contains(op.toPoint()))
                    QCOMPARE(centre(test::image_page(w)->originalView(), original, x, y) & 0xFFFFFF, image_.pixel(x, y) & 0xFFFFFF);
            }
        QVERIFY(done > 100 && waiting > 100);

        // The last position: everything done, the plain result.
        w.timeline()->setPosition(9);
        const QImage end = test::image_page(w)->resultView()->grabImage();
        for (QPoint p : {QPoint(48, 16), QPoint(30, 5), QPoint(60, 28)}) {  // on screen at 6x
            const int g = qGray(gray.pixel(p));
            QCOMPARE(centre(test::image_page(w)->resultView(), end, p.x(), p.y()) & 0xFFFFFF, qRgb(g, g, g) & 0xFFFFFF);
        }
    }
}

// Inside a block: 8x8 blocks have two warps, rows 0-3 and rows 4-7 (blockDim.x < 32: a warp spans
// rows). At step 1 warp 0 is done (grey), warp 1 runs; other blocks are dimmed.
void TestAnimation::warps_of_a_clicked_block_on_screen() {
    if (gl_.path != DisplayPath::OpenGL) QSKIP("no OpenGL here");
    MainWindow w(gl_, png_);
    QVERIFY(show_and_wait(w));
    w.overlayAction()->setChecked(false);
    w.launchPanel()->setChoice(grayscale_choice(LaunchShape::two_d(8, 8)));
    QTRY_VERIFY_WITH_TIMEOUT(w.page<ImagePage>()->session()->resultShape().block == (Dim3{8, 8, 1}) && !w.jobs()->busy(), kRunTimeoutMs);
    test::image_page(w)->viewTransform()->setZoom(8);
    test::image_page(w)->viewTransform()->setCenter(QPointF(20, 12));

    // A real click (press and release in place) on pixel (20, 10) of the result view: block (2, 1).
    QWidget* view = test::image_page(w)->resultView()->widget();
    const QPoint at = test::image_page(w)->resultView()->imageToWidget(QPointF(20.5, 10.5)).toPoint();
    QTest::mouseClick(view, Qt::LeftButton, Qt::NoModifier, at);
    QCOMPARE(w.page<ImagePage>()->session()->selectedPixel(), QPoint(20, 10));
    QCOMPARE(w.page<ImagePage>()->session()->selectedBlock(), std::int64_t(15));

    auto* mode = w.animationModeBox();
    mode->setCurrentIndex(mode->findData(int(AnimationMode::Warps)));
    QCOMPARE(w.timeline()->steps(), 2);
    w.timeline()->setPosition(1);
    QCOMPARE(test::image_page(w)->overlayState().animation.block, std::int64_t(15));
    const QImage shot = test::image_page(w)->resultView()->grabImage();
    const QImage gray = test::image_page(w)->resultImage();
    // Block 15 covers x 16..23, y 8..15: rows 8-11 are warp 0 (done), rows 12-15 warp 1 (running).
    for (int x = 17; x < 23; ++x) {
        for (int y = 9; y < 12; ++y) {
            if (QPoint(x, y) == QPoint(20, 10)) continue;  // the selected pixel's outline
            const int g = qGray(gray.pixel(x, y));
            QCOMPARE(centre(test::image_page(w)->resultView(), shot, x, y) & 0xFFFFFF, qRgb(g, g, g) & 0xFFFFFF);
        }
        for (int y = 13; y < 15; ++y)
            QVERIFY(centre(test::image_page(w)->resultView(), shot, x, y) != image_.pixel(x, y));  // tinted: running
    }
    // Another block: the result, dimmed.
    const int g = qGray(gray.pixel(5, 5));
    const QRgb dim = centre(test::image_page(w)->resultView(), shot, 5, 5);
    QVERIFY2(std::abs(qRed(dim) - int(std::lround(g * 0.45))) <= 2, qPrintable(QString::number(qRed(dim))));
}

// Issue 30, item 4: the step field said "warp 6" beside a caption's "warp 5 of 8", and "wave 9"
// beside "8 waves" at the end. Counts for people start at 1 everywhere; the end reads "all done".
void TestAnimation::counters_agree() {
    MainWindow w(DisplayPathChoice{DisplayPath::Raster, QStringLiteral("test")}, png_);
    QVERIFY(show_and_wait(w));
    w.page<ImagePage>()->session()->setDevice(small_gpu());
    w.launchPanel()->setChoice(grayscale_choice(LaunchShape::two_d(16, 16)));  // 8 warps a block
    QTRY_VERIFY_WITH_TIMEOUT(w.page<ImagePage>()->session()->resultShape().block == (Dim3{16, 16, 1}) && !w.jobs()->busy(), kRunTimeoutMs);
    test::image_page(w)->inspectPixel(QPoint(20, 10), true);  // block 1, thread 164: warp index 5
    auto* mode = w.animationModeBox();
    mode->setCurrentIndex(mode->findData(int(AnimationMode::Warps)));
    QCOMPARE(w.timeline()->steps(), 8);
    w.timeline()->setPosition(5);
    QCOMPARE(w.timeline()->stepBox()->text(), QStringLiteral("warp 6"));
    QVERIFY2(w.timeline()->label().contains(QStringLiteral("warp 6 of 8 (index 5,")), qPrintable(w.timeline()->label()));
    QVERIFY2(w.inspector()->plainText().contains(QStringLiteral("warp 6 of 8 (index 5)")), qPrintable(w.inspector()->plainText()));
    w.timeline()->jumpToEnd();
    QCOMPARE(w.timeline()->stepBox()->text(), QStringLiteral("all done"));
    QVERIFY2(w.timeline()->label().contains(QStringLiteral("all 8 warps done")), qPrintable(w.timeline()->label()));
    // Typing a number jumps to it.
    w.timeline()->stepBox()->selectAll();
    QTest::keyClicks(w.timeline()->stepBox(), QStringLiteral("3"));
    QTest::keyClick(w.timeline()->stepBox(), Qt::Key_Return);
    QCOMPARE(w.timeline()->position(), 2);

    mode->setCurrentIndex(mode->findData(int(AnimationMode::Waves)));
    const int waves = w.timeline()->steps();
    QVERIFY(waves > 1);
    w.timeline()->setPosition(1);
    QCOMPARE(w.timeline()->stepBox()->text(), QStringLiteral("wave 2"));
    QVERIFY2(w.timeline()->label().startsWith(QStringLiteral("Wave 2 of %1").arg(waves)), qPrintable(w.timeline()->label()));
    w.timeline()->jumpToEnd();
    QCOMPARE(w.timeline()->stepBox()->text(), QStringLiteral("all done"));
}

void TestAnimation::space_toggles_play_from_the_view() {
    MainWindow w(gl_, png_);
    QVERIFY(show_and_wait(w));
    QWidget* view = test::image_page(w)->resultView()->widget();
    w.activateWindow();
    QVERIFY(cvz::test::wait_active(&w));
    view->setFocus();
    QTRY_VERIFY_WITH_TIMEOUT(view->hasFocus(), 120000);
    QVERIFY(!w.timeline()->playing());
    QTest::keyClick(view, Qt::Key_Space);
    QVERIFY(w.timeline()->playing());
    // With no animation chosen, playing picks the waves.
    QCOMPARE(w.page<ImagePage>()->session()->animationMode(), AnimationMode::Waves);
    QTest::keyClick(view, Qt::Key_Space);
    QVERIFY(!w.timeline()->playing());
    // The same from the timeline itself.
    w.timeline()->setFocus();
    QTest::keyClick(w.timeline(), Qt::Key_Space);
    QVERIFY(w.timeline()->playing());
    QTest::keyClick(w.timeline(), Qt::Key_Space);
    QVERIFY(!w.timeline()->playing());
}

void TestAnimation::timeline_plays_to_the_end() {
    TimelineBar bar;
    bar.setSteps(3, QStringLiteral("wave"));
    QSignalSpy moved(&bar, &TimelineBar::positionChanged);
    bar.togglePlay();
    QVERIFY(bar.playing());
    QTRY_VERIFY_WITH_TIMEOUT(!bar.playing(), 10000);
    QCOMPARE(bar.position(), 3);
    QCOMPARE(moved.count(), 3);
    bar.stepBack();
    QCOMPARE(bar.position(), 2);
}

void TestAnimation::sm_panel_follows_the_wave() {
    MainWindow w(gl_, png_);
    QVERIFY(show_and_wait(w));
    w.page<ImagePage>()->session()->setDevice(small_gpu());
    w.launchPanel()->setChoice(grayscale_choice(LaunchShape::two_d(8, 8)));
    auto* mode = w.animationModeBox();
    mode->setCurrentIndex(mode->findData(int(AnimationMode::Waves)));
    w.timeline()->setPosition(2);
    QCOMPARE(w.smPanel()->wave(), std::uint64_t(2));
    QVERIFY2(w.smPanel()->caption().startsWith(QStringLiteral("Wave 3 of 9: blocks 16–23")), qPrintable(w.smPanel()->caption()));
    w.timeline()->setPosition(8);
    QVERIFY2(w.smPanel()->caption().contains(QStringLiteral("tail")), qPrintable(w.smPanel()->caption()));
}

int main(int argc, char* argv[]) {
    if (qEnvironmentVariableIsEmpty("DISPLAY") && qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY") &&
        qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    TestAnimation test;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&test, argc, argv);
}
#include "tst_animation.moc"
