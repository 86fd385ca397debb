// The main window end to end, under Xvfb with Mesa (real OpenGL, in software): the kernel's result
// on screen, pixel by pixel, through the OpenGL view and through the raster fallback; errors that
// keep what was open; superseded runs; views in step; drag and drop; remembered settings.
#include <QtTest>

#include <QComboBox>
#include <QDockWidget>
#include <QAction>
#include <QLabel>
#include <QLineEdit>
#include <QMimeData>
#include <QOpenGLWidget>
#include <QSettings>
#include <QStandardItemModel>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTemporaryDir>

#include <atomic>
#include <cstring>
#include <cmath>
#include <future>
#include <memory>
#include <vector>

#include "support/window_waits.h"
#include "app/grayscale/grayscale_prediction.h"
#include "app/matmul/matmul_prediction.h"
#include "app/jobs/backend_choice.h"
#include "app/tuning/prediction_session.h"
#include "kernels/catalogue/kernel_catalogue.h"
#include "ui/windows/ladder_dialog.h"
#include "app/jobs/job_runner.h"
#include "app/io/rgb_buffer.h"
#include "kernels/grayscale/grayscale_body.h"
#include "kernels/grayscale/grayscale_reference.h"
#include "ui/views/display_path.h"
#include "ui/views/image_surface.h"
#include "ui/views/image_view.h"
#include "ui/panels/inspector_panel.h"
#include "app/grayscale/grayscale_choice.h"
#include "ui/panels/launch_panel.h"
#include "app/grayscale/grayscale_session.h"
#include "ui/panels/occupancy_panel.h"
#include "ui/panels/overlay_panel.h"
#include "ui/panels/timeline_bar.h"
#include "ui/panels/launch_shape_box.h"
#include "support/hover.h"
#include "ui/pages/grayscale/image_page.h"
#include "ui/windows/main_window.h"
#include "ui/views/view_transform.h"
#include <QTabWidget>

#include "support/event_waits.h"
#include "support/main_window_fixtures.h"
#include "support/test_images.h"

using namespace cvz;
using cvz::test::make_test_image;

namespace {

constexpr int kRunTimeoutMs = 120000;  // only for a hang: a loaded machine is slow

std::vector<std::uint8_t> reference_gray(const QImage& image) {
    const RgbBuffer rgb = to_rgb_buffer(image);
    std::vector<std::uint8_t> gray(std::size_t(rgb.width) * rgb.height);
    grayscale_reference(GrayscaleImage{rgb.bytes.data(), gray.data(), rgb.width, rgb.height, PixelLayout::Interleaved});
    return gray;
}

// Compares what `view` shows at the middle of every image pixel with `expected(x, y)`.
// Returns an empty string on success, else the first mismatches.
template <typename Expected>
QString check_on_screen(ImageSurface* view, QSize image_size, Expected expected) {
    const QImage shot = view->grabImage();
    const qreal dpr = view->widget()->devicePixelRatioF();
    QStringList problems;
    int mismatches = 0;
    for (int y = 0; y < image_size.height(); ++y)
        for (int x = 0; x < image_size.width(); ++x) {
            const QPointF w = view->imageToWidget(QPointF(x + 0.5, y + 0.5)) * dpr;
            const QPoint device(int(std::floor(w.x())), int(std::floor(w.y())));
            if (!shot.rect().contains(device)) return QStringLiteral("pixel %1,%2 is off screen").arg(x).arg(y);
            const QRgb got = shot.pixel(device) & 0xFFFFFF;
            const QRgb want = expected(x, y) & 0xFFFFFF;
            if (got != want && ++mismatches <= 5)
                problems << QStringLiteral("(%1,%2): got #%3, want #%4")
                                .arg(x)
                                .arg(y)
                                .arg(got, 6, 16, QLatin1Char('0'))
                                .arg(want, 6, 16, QLatin1Char('0'));
        }
    if (mismatches == 0) return {};
    return QStringLiteral("%1 pixels differ: %2").arg(mismatches).arg(problems.join(QStringLiteral("; ")));
}

bool result_equals(const QImage& result, const std::vector<std::uint8_t>& gray) {
    if (result.format() != QImage::Format_Grayscale8) return false;
    for (int y = 0; y < result.height(); ++y)
        if (std::memcmp(result.constScanLine(y), gray.data() + std::size_t(y) * result.width(), result.width()) != 0)
            return false;
    return true;
}

}  // namespace

class TestMainWindow : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void init();

    void sample_opens_by_default();
    void launch_panel_and_status_show_the_prediction();
    void ladder_opens_from_the_run_menu();
    void opengl_view_shows_kernel_bytes();
    void raster_view_shows_kernel_bytes();
    void raster_forced_by_flag_or_environment();
    void gl_failure_switches_to_raster();
    void bad_start_file_falls_back_to_sample();
    void bad_file_shows_error_and_keeps_image();
    void newer_request_supersedes_queued_one();
    void invalid_block_text_does_not_run();
    void each_change_runs_the_kernel_once();
    void zoom_and_pan_keep_views_in_step();
    void zoom_holds_while_the_block_changes();
    void dropped_image_opens();
    void settings_and_recent_files_remembered();
    void cuda_item_reflects_device();
    void file_filter_lists_supported_formats();
    void open_dialog_starts_next_to_the_file();
    void inspector_shows_clicked_pixel();
    void inspector_explains_idle_thread();
    void overlay_toggles_with_g();

private:
    bool show_and_wait(MainWindow& w) { return test::show_and_wait(w, {1200, 700}, kRunTimeoutMs); }
    void check_views(MainWindow& w);

    QTemporaryDir dir_;
    QString test_png_, second_png_, bad_png_;
    QImage test_image_, second_image_;
    std::vector<std::uint8_t> test_gray_;
    DisplayPathChoice gl_;
};

void TestMainWindow::initTestCase() {
    QStandardPaths::setTestModeEnabled(true);  // QSettings go to a test location, not the user's
    QCoreApplication::setOrganizationName(QStringLiteral("cudaviz"));
    QCoreApplication::setApplicationName(QStringLiteral("cudaviz"));
    QVERIFY(dir_.isValid());

    test_image_ = make_test_image(97, 33, 0);  // odd, non-square: catches x/y swaps
    test_gray_ = reference_gray(test_image_);
    test_png_ = dir_.filePath(QStringLiteral("test.png"));
    QVERIFY(test_image_.save(test_png_));
    second_image_ = make_test_image(40, 20, 99);
    second_png_ = dir_.filePath(QStringLiteral("second.png"));
    QVERIFY(second_image_.save(second_png_));
    bad_png_ = dir_.filePath(QStringLiteral("bad.png"));
    QFile bad(bad_png_);
    QVERIFY(bad.open(QIODevice::WriteOnly));
    bad.write("this is a text file, not a PNG\n");
    bad.close();

    gl_ = choose_display_path(false);
    qInfo("display path: %s (%s)", qPrintable(to_string(gl_.path)), qPrintable(gl_.reason));
}

void TestMainWindow::init() { QSettings().clear(); }

// Both views, at 100% and at 300% (nearest filtering: every screen pixel inside an image pixel has
// its value), against the source colours and the CPU reference's bytes.
void TestMainWindow::check_views(MainWindow& w) {
    QVERIFY(result_equals(test::image_page(w)->resultImage(), test_gray_));
    w.overlayAction()->setChecked(false);  // the bytes themselves, without the launch grid over them
    const QSize size = test_image_.size();
    auto colour = [&](int x, int y) { return test_image_.pixel(x, y); };
    auto grey = [&](int x, int y) {
        const int g = test_gray_[std::size_t(y) * size.width() + x];
        return qRgb(g, g, g);
    };
    for (double zoom : {1.0, 3.0}) {
        test::image_page(w)->viewTransform()->setZoom(zoom);
        const QString original = check_on_screen(test::image_page(w)->originalView(), size, colour);
        QVERIFY2(original.isEmpty(), qPrintable(QStringLiteral("original at %1x: %2").arg(zoom).arg(original)));
        const QString result = check_on_screen(test::image_page(w)->resultView(), size, grey);
        QVERIFY2(result.isEmpty(), qPrintable(QStringLiteral("result at %1x: %2").arg(zoom).arg(result)));
    }
}

void TestMainWindow::sample_opens_by_default() {
    MainWindow w(gl_);
    QVERIFY(show_and_wait(w));
    QCOMPARE(test::image_page(w)->currentFile(), MainWindow::sampleFile());
    QCOMPARE(test::image_page(w)->originalImage().size(), QSize(451, 300));
    QCOMPARE(test::image_page(w)->resultImage().size(), QSize(451, 300));
    QVERIFY(result_equals(test::image_page(w)->resultImage(), reference_gray(test::image_page(w)->originalImage())));
    QVERIFY(w.windowTitle().contains(QStringLiteral("chelsea.png")));
    // Issue 30, item 12: the plain result under the block grid first; the colouring one click away.
    QVERIFY(test::image_page(w)->overlayState().enabled);
    QCOMPARE(test::image_page(w)->overlayState().coloring, OverlayColoring::None);
    QVERIFY(!w.colourAction()->isChecked());
    w.colourAction()->trigger();
    QCOMPARE(test::image_page(w)->overlayState().coloring, OverlayColoring::Block);
    QCOMPARE(w.overlayPanel()->coloring(), OverlayColoring::Block);
    w.overlayPanel()->setColoring(OverlayColoring::Warp);  // chosen in the panel: the button follows
    QVERIFY(w.colourAction()->isChecked());
    w.colourAction()->trigger();
    QCOMPARE(test::image_page(w)->overlayState().coloring, OverlayColoring::None);
    w.colourAction()->trigger();  // back to the colouring last chosen
    QCOMPARE(test::image_page(w)->overlayState().coloring, OverlayColoring::Warp);
}

// Issue 15, item 2: the launch panel and the status line show the GPU time predicted on the chosen
// profile beside the emulator's time (labelled as the emulator's), and a new block updates it.
void TestMainWindow::launch_panel_and_status_show_the_prediction() {
    MainWindow w(gl_, test_png_);
    QVERIFY(show_and_wait(w));
    const DeviceProfile profile = w.occupancyPanel()->profile();
    const auto expected = [&](const LaunchShape& shape) {
        const GpuPrediction p = predict_grayscale(profile, shape, 97, 33, w.page<ImagePage>()->session()->layout());
        return prediction_text(p);
    };
    QLabel* times = w.launchPanel()->timesLabel();
    const QString first = expected(grayscale_shape(w.launchPanel()->choice()));
    QVERIFY(first.startsWith(QStringLiteral("predicted on ")));
    QTRY_VERIFY_WITH_TIMEOUT(w.statusText().contains(first), kRunTimeoutMs);
    QVERIFY(times->text().contains(QStringLiteral("predicted on %1").arg(profile.name)));
    QVERIFY(!times->toolTip().isEmpty());
    if (!cuda_device_available()) {
        QVERIFY2(times->text().contains(QStringLiteral("CPU emulator")), qPrintable(times->text()));
        QVERIFY(times->text().contains(QStringLiteral("not a GPU's")));
    } else {
        QVERIFY2(times->text().contains(QStringLiteral("measured on the GPU")), qPrintable(times->text()));
    }
    const LaunchShape other = LaunchShape::two_d(8, 4);
    w.launchPanel()->setChoice(grayscale_choice(other));
    // The new run's line (its block named) with the new launch's prediction after it.
    QTRY_VERIFY_WITH_TIMEOUT(w.statusText().contains(QStringLiteral("8x4")) && w.statusText().contains(expected(other)),
                             kRunTimeoutMs);
}

void TestMainWindow::ladder_opens_from_the_run_menu() {
    MainWindow w(gl_, test_png_);
    QVERIFY(show_and_wait(w));
    auto* action = w.findChild<QAction*>(QStringLiteral("ladderAction"));
    QVERIFY(action);
    QCOMPARE(action->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_L));
    action->trigger();
    LadderDialog* ladder = w.ladderDialog();
    QVERIFY(ladder && ladder->isVisible());
    QCOMPARE(ladder->family(), KernelFamily::Grayscale);
    QCOMPARE(ladder->table()->rowCount(), int(family_catalogue(KernelFamily::Grayscale).size()));
    QVERIFY(ladder->familyBox()->currentText().contains(QStringLiteral("97 × 33")));
}

void TestMainWindow::opengl_view_shows_kernel_bytes() {
    if (gl_.path != DisplayPath::OpenGL)
        QSKIP(qPrintable(QStringLiteral("no OpenGL here (%1); the raster test covers the display").arg(gl_.reason)));
    MainWindow w(gl_, test_png_);
    QVERIFY(show_and_wait(w));
    // Still OpenGL: a shader or texture failure would have switched to the raster fallback.
    QCOMPARE(test::image_page(w)->displayPath(), DisplayPath::OpenGL);
    QCOMPARE(test::image_page(w)->resultView()->displayPath(), QStringLiteral("OpenGL"));
    QVERIFY(w.findChild<QLabel*>(QStringLiteral("displayPathLabel"))->text().contains(QStringLiteral("OpenGL")));
    check_views(w);
}

void TestMainWindow::raster_view_shows_kernel_bytes() {
    MainWindow w(DisplayPathChoice{DisplayPath::Raster, QStringLiteral("forced by the test")}, test_png_);
    QVERIFY(show_and_wait(w));
    QCOMPARE(test::image_page(w)->resultView()->displayPath(), QStringLiteral("raster fallback"));
    QVERIFY(w.findChild<QLabel*>(QStringLiteral("displayPathLabel"))->text().contains(QStringLiteral("raster fallback")));
    QVERIFY(!w.findChild<QOpenGLWidget*>());  // no GL at all on this path
    check_views(w);
}

void TestMainWindow::raster_forced_by_flag_or_environment() {
    QCOMPARE(choose_display_path(true).path, DisplayPath::Raster);
    qputenv("CUDAVIZ_RASTER", "1");
    const DisplayPathChoice forced = choose_display_path(false);
    qunsetenv("CUDAVIZ_RASTER");
    QCOMPARE(forced.path, DisplayPath::Raster);
    QVERIFY(forced.reason.contains(QStringLiteral("CUDAVIZ_RASTER")));
}

void TestMainWindow::gl_failure_switches_to_raster() {
    if (gl_.path != DisplayPath::OpenGL)
        QSKIP(qPrintable(QStringLiteral("no OpenGL here (%1): nothing to fall back from").arg(gl_.reason)));
    MainWindow w(gl_, test_png_);
    QVERIFY(show_and_wait(w));
    auto* gl_view = qobject_cast<ImageView*>(test::image_page(w)->resultView()->widget());
    QVERIFY(gl_view);
    emit gl_view->failed(QStringLiteral("simulated shader failure"));  // as initializeGL reports one
    QTRY_COMPARE_WITH_TIMEOUT(test::image_page(w)->displayPath(), DisplayPath::Raster, 120000);
    QVERIFY(w.statusText().contains(QStringLiteral("simulated shader failure")));
    QVERIFY(w.findChild<QLabel*>(QStringLiteral("displayPathLabel"))->text().contains(QStringLiteral("raster fallback")));
    QTRY_VERIFY_WITH_TIMEOUT(!w.page<ImagePage>()->findChild<QOpenGLWidget*>(), 120000);  // the page whose view failed
    test::deliver_posted_events();  // the raster views laid out
    check_views(w);  // the same images, now drawn by the raster views
}

void TestMainWindow::bad_start_file_falls_back_to_sample() {
    MainWindow w(gl_, bad_png_);
    w.show();
    QVERIFY(cvz::test::wait_exposed(&w));
    QTRY_VERIFY_WITH_TIMEOUT(w.errorBox() && w.errorBox()->isVisible(), kRunTimeoutMs);
    QVERIFY(w.errorBox()->text().contains(QStringLiteral("bad.png")));
    QTRY_COMPARE_WITH_TIMEOUT(test::image_page(w)->currentFile(), MainWindow::sampleFile(), kRunTimeoutMs);  // never an empty window
    QTRY_VERIFY_WITH_TIMEOUT(w.page<ImagePage>()->session()->completedRuns() >= 1, kRunTimeoutMs);
    QVERIFY(!QSettings().value(QStringLiteral("recentFiles")).toStringList().contains(bad_png_));
}

void TestMainWindow::bad_file_shows_error_and_keeps_image() {
    MainWindow w(gl_, test_png_);
    QVERIFY(show_and_wait(w));
    const qint64 original_key = test::image_page(w)->originalImage().cacheKey();
    const qint64 result_key = test::image_page(w)->resultImage().cacheKey();
    const int runs = w.page<ImagePage>()->session()->completedRuns();

    for (const QString& path : {bad_png_, dir_.filePath(QStringLiteral("missing.png"))}) {
        w.openFile(path);
        QTRY_VERIFY_WITH_TIMEOUT(w.errorBox() && w.errorBox()->isVisible(), kRunTimeoutMs);
        const QString name = QFileInfo(path).fileName();
        QVERIFY2(w.errorBox()->text().contains(name), qPrintable(w.errorBox()->text()));
        QVERIFY2(w.statusText().contains(name), qPrintable(w.statusText()));
        w.errorBox()->accept();
        QTRY_VERIFY_WITH_TIMEOUT(!w.errorBox(), 120000);
    }
    QCOMPARE(test::image_page(w)->currentFile(), test_png_);
    QCOMPARE(test::image_page(w)->originalImage().cacheKey(), original_key);
    QCOMPARE(test::image_page(w)->originalView()->image().cacheKey(), original_key);
    QCOMPARE(test::image_page(w)->resultImage().cacheKey(), result_key);
    QCOMPARE(test::image_page(w)->resultView()->image().cacheKey(), result_key);
    QCOMPARE(w.page<ImagePage>()->session()->completedRuns(), runs);
}

void TestMainWindow::newer_request_supersedes_queued_one() {
    MainWindow w(gl_, test_png_);
    QVERIFY(show_and_wait(w));
    const int runs = w.page<ImagePage>()->session()->completedRuns();

    // Hold the worker so both requests are queued behind it, as during a fast slider drag.
    std::promise<void> gate;
    std::shared_future<void> opened = gate.get_future().share();
    std::atomic<bool> holding{false};
    w.jobs()->submit(QStringLiteral("test-gate"), &w, [opened, &holding]() -> JobRunner::Continuation {
        holding = true;
        opened.wait();
        return {};
    });
    QTRY_VERIFY_WITH_TIMEOUT(holding.load(), 120000);
    auto* box = w.findChild<LaunchShapeBox*>(QStringLiteral("launchShapeBox"));
    QVERIFY(box);
    QVERIFY(box->setShapeText(QStringLiteral("32x8")).isEmpty());
    QVERIFY(box->setShapeText(QStringLiteral("1024")).isEmpty());
    QCOMPARE(w.jobs()->queued(), 1);  // the 32x8 run was dropped
    QVERIFY(w.findChild<QWidget*>(QStringLiteral("busyIndicator"))->isVisible());
    gate.set_value();

    QTRY_VERIFY_WITH_TIMEOUT(w.page<ImagePage>()->session()->completedRuns() > runs && !w.jobs()->busy(), kRunTimeoutMs);
    QVERIFY(test::drain(*w.jobs(), kRunTimeoutMs));  // anything else posted has arrived by now
    QCOMPARE(w.page<ImagePage>()->session()->completedRuns(), runs + 1);
    QCOMPARE(w.page<ImagePage>()->session()->resultShape().kind, GrayscaleVariant::OneD);
    QCOMPARE(w.page<ImagePage>()->session()->resultShape().block.x, 1024u);
    QVERIFY(result_equals(test::image_page(w)->resultImage(), test_gray_));
    QTRY_VERIFY_WITH_TIMEOUT(!w.findChild<QWidget*>(QStringLiteral("busyIndicator"))->isVisible(), 120000);
}

void TestMainWindow::invalid_block_text_does_not_run() {
    MainWindow w(gl_, test_png_);
    QVERIFY(show_and_wait(w));
    const int runs = w.page<ImagePage>()->session()->completedRuns();
    auto* box = w.findChild<LaunchShapeBox*>(QStringLiteral("launchShapeBox"));
    const QString before = box->shapeText();

    for (const QString& text : {QStringLiteral("33x33"), QStringLiteral("0"), QStringLiteral("sixteen")}) {
        box->lineEdit()->setText(text);
        QTest::keyClick(box->lineEdit(), Qt::Key_Return);
        QVERIFY2(w.statusText().contains(QStringLiteral("not run")), qPrintable(w.statusText()));
        QVERIFY(!box->lineEdit()->toolTip().isEmpty());  // the reason, on the field
        QCOMPARE(box->shapeText(), before);
        QVERIFY(!w.jobs()->busy());
    }
    QVERIFY(test::drain(*w.jobs(), kRunTimeoutMs));
    QCOMPARE(w.page<ImagePage>()->session()->completedRuns(), runs);

    // A valid shape typed by hand runs.
    box->lineEdit()->setText(QStringLiteral("24x8"));
    QTest::keyClick(box->lineEdit(), Qt::Key_Return);
    QCOMPARE(box->shapeText(), QStringLiteral("24x8"));
    QTRY_VERIFY_WITH_TIMEOUT(w.page<ImagePage>()->session()->completedRuns() > runs, kRunTimeoutMs);
    QCOMPARE(w.page<ImagePage>()->session()->resultShape().kind, GrayscaleVariant::TwoD);
    QVERIFY(w.page<ImagePage>()->session()->resultShape().block == (Dim3{24, 8, 1}));
}

// Every change that alters the output runs the kernel exactly once (counted by the session where
// the kernel is launched); changes that do not (the tab, the device profile, the animation) run none.
void TestMainWindow::each_change_runs_the_kernel_once() {
    MainWindow w(gl_, test_png_);
    QVERIFY(show_and_wait(w));
    GrayscaleSession* session = w.page<ImagePage>()->session();
    QTRY_VERIFY_WITH_TIMEOUT(!session->running() && !w.jobs()->busy(), kRunTimeoutMs);
    QSignalSpy finished(session, &GrayscaleSession::runFinished);
    const std::uint64_t launches = session->launchCount();
    int changes = 0;
    auto one_run = [&] {
        ++changes;
        return QTest::qWaitFor([&] { return finished.count() >= changes && !session->running(); }, kRunTimeoutMs) &&
               session->launchCount() == launches + std::uint64_t(changes);
    };
    w.launchPanel()->setChoice(grayscale_choice(LaunchShape::two_d(24, 8)));
    QVERIFY(one_run());
    w.findChild<QComboBox*>(QStringLiteral("layoutBox"))->setCurrentIndex(1);  // planar
    QVERIFY(one_run());
    auto* backend = w.findChild<QComboBox*>(QStringLiteral("backendBox"));
    backend->setCurrentIndex(backend->findData(QStringLiteral("cpu")));
    QVERIFY(one_run());
    // No run for these.
    KernelPage* image = w.currentPage();
    w.tabs()->setCurrentIndex(1);
    QVERIFY(w.currentPage() != image);
    w.tabs()->setCurrentIndex(0);
    QCOMPARE(w.currentPage(), image);
    w.occupancyPanel()->deviceBox()->setCurrentIndex(w.occupancyPanel()->deviceBox()->count() - 1);
    w.animationModeBox()->setCurrentIndex(1);
    QVERIFY(!session->running());
    QCOMPARE(session->launchCount(), launches + std::uint64_t(changes));
    QCOMPARE(finished.count(), changes);
    QVERIFY(result_equals(test::image_page(w)->resultImage(), test_gray_));
}

void TestMainWindow::zoom_and_pan_keep_views_in_step() {
    MainWindow w(gl_, test_png_);
    QVERIFY(show_and_wait(w));
    ImageSurface* a = test::image_page(w)->originalView();
    ImageSurface* b = test::image_page(w)->resultView();
    QCOMPARE(a->transform(), test::image_page(w)->viewTransform());
    QCOMPARE(b->transform(), test::image_page(w)->viewTransform());

    auto centre_image_point = [](ImageSurface* view) {
        const QSize s = view->widget()->size();
        return view->widgetToImage(QPointF(s.width() / 2.0, s.height() / 2.0));
    };
    auto in_step = [&] {
        const QPointF pa = centre_image_point(a), pb = centre_image_point(b);
        const double tolerance = 1.0 / test::image_page(w)->viewTransform()->zoom();  // views may differ by a pixel in size
        return std::abs(pa.x() - pb.x()) <= tolerance && std::abs(pa.y() - pb.y()) <= tolerance;
    };

    w.zoomToActualSize();
    QCOMPARE(test::image_page(w)->viewTransform()->zoom(), 1.0);
    w.zoomIn();
    QCOMPARE(test::image_page(w)->viewTransform()->zoom(), ViewTransform::kStep);
    QVERIFY(in_step());

    // Wheel on the original: both follow.
    const QPointF cursor(40, 30);
    QWheelEvent wheel(cursor, a->widget()->mapToGlobal(cursor), QPoint(), QPoint(0, 3 * 120), Qt::NoButton,
                      Qt::NoModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(a->widget(), &wheel);
    QVERIFY(test::image_page(w)->viewTransform()->zoom() > ViewTransform::kStep);
    QVERIFY(in_step());

    // Drag on the result: both follow.
    const QPointF before = centre_image_point(a);
    auto send = [&](QEvent::Type type, QPointF pos, Qt::MouseButton button, Qt::MouseButtons buttons) {
        QMouseEvent event(type, pos, b->widget()->mapToGlobal(pos), button, buttons, Qt::NoModifier);
        QApplication::sendEvent(b->widget(), &event);
    };
    send(QEvent::MouseButtonPress, QPointF(200, 200), Qt::LeftButton, Qt::LeftButton);
    send(QEvent::MouseMove, QPointF(170, 180), Qt::NoButton, Qt::LeftButton);
    send(QEvent::MouseButtonRelease, QPointF(170, 180), Qt::LeftButton, Qt::NoButton);
    QVERIFY(centre_image_point(a) != before);
    QVERIFY(in_step());

    // On screen: at 4x around a chosen point, the pixel at each view's centre is the same image
    // pixel, in colour on the left and as the kernel's grey on the right (no grid drawn over them).
    w.overlayAction()->setChecked(false);
    test::image_page(w)->viewTransform()->setZoom(4);
    test::image_page(w)->viewTransform()->setCenter(QPointF(20.3, 10.7));
    const QPoint pixel(20, 10);
    for (ImageSurface* view : {a, b}) {
        const QSize s = view->widget()->size();
        const QPointF mid(s.width() / 2.0, s.height() / 2.0);
        QCOMPARE(QPoint(int(std::floor(view->widgetToImage(mid).x())), int(std::floor(view->widgetToImage(mid).y()))),
                 pixel);
        const qreal dpr = view->widget()->devicePixelRatioF();
        const QRgb got = view->grabImage().pixel((mid * dpr).toPoint()) & 0xFFFFFF;
        const int g = test_gray_[std::size_t(pixel.y()) * test_image_.width() + pixel.x()];
        const QRgb want = (view == a ? test_image_.pixel(pixel) : qRgb(g, g, g)) & 0xFFFFFF;
        QCOMPARE(got, want);
    }

    // Fit: the whole image visible in both.
    w.zoomToFit();
    QVERIFY(test::image_page(w)->viewTransform()->fitting());
    for (ImageSurface* view : {a, b}) {
        const QRectF r = test::image_page(w)->viewTransform()->imageRectInWidget(view->widget()->size());
        QVERIFY(QRectF(view->widget()->rect()).adjusted(-1, -1, 1, 1).contains(r));
    }
}

// Issue 30, item 8: dragging a block slider changed the grid's extent past the image at every step,
// and the fitted zoom jumped with it although the image did not change.
void TestMainWindow::zoom_holds_while_the_block_changes() {
    MainWindow w(gl_, test_png_);
    QVERIFY(show_and_wait(w));
    w.zoomToFit();
    const double zoom = test::image_page(w)->viewTransform()->zoom();
    for (const LaunchShape& shape : {LaunchShape::two_d(8, 64), LaunchShape::two_d(64, 8), LaunchShape::two_d(5, 3)}) {
        w.launchPanel()->setChoice(grayscale_choice(shape));
        QTRY_VERIFY_WITH_TIMEOUT(w.page<ImagePage>()->session()->resultShape().block == shape.block && !w.jobs()->busy(), kRunTimeoutMs);
        QCOMPARE(test::image_page(w)->viewTransform()->zoom(), zoom);
    }
    // Fit, asked for, fits the whole grid again: 64 rows of threads past the 33 of the image.
    w.launchPanel()->setChoice(grayscale_choice(LaunchShape::two_d(8, 64)));
    QTRY_VERIFY_WITH_TIMEOUT(w.page<ImagePage>()->session()->resultShape().block == (Dim3{8, 64, 1}) && !w.jobs()->busy(), kRunTimeoutMs);
    w.zoomToFit();
    QVERIFY(test::image_page(w)->viewTransform()->zoom() < zoom);
}

void TestMainWindow::dropped_image_opens() {
    MainWindow w(gl_, test_png_);
    QVERIFY(show_and_wait(w));
    const int runs = w.page<ImagePage>()->session()->completedRuns();

    QMimeData not_image;
    not_image.setUrls({QUrl::fromLocalFile(dir_.filePath(QStringLiteral("notes.txt")))});
    QDragEnterEvent refused(QPoint(50, 50), Qt::CopyAction, &not_image, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&w, &refused);
    QVERIFY(!refused.isAccepted());

    QMimeData mime;
    mime.setUrls({QUrl::fromLocalFile(second_png_)});
    QDragEnterEvent enter(QPoint(50, 50), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&w, &enter);
    QVERIFY(enter.isAccepted());
    QDropEvent drop(QPointF(50, 50), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&w, &drop);
    QTRY_COMPARE_WITH_TIMEOUT(test::image_page(w)->currentFile(), second_png_, kRunTimeoutMs);
    QTRY_VERIFY_WITH_TIMEOUT(w.page<ImagePage>()->session()->completedRuns() > runs, kRunTimeoutMs);
    QCOMPARE(test::image_page(w)->resultImage().size(), QSize(40, 20));
    QVERIFY(result_equals(test::image_page(w)->resultImage(), reference_gray(second_image_)));
    QVERIFY(test::image_page(w)->viewTransform()->fitting());  // a new image starts fitted
    QCOMPARE(test::image_page(w)->viewTransform()->imageSize(), QSize(40, 20));
}

void TestMainWindow::settings_and_recent_files_remembered() {
    {
        MainWindow w(gl_, test_png_);
        QVERIFY(show_and_wait(w));
        const int runs = w.page<ImagePage>()->session()->completedRuns();
        auto* layout = w.findChild<QComboBox*>(QStringLiteral("layoutBox"));
        layout->setCurrentIndex(layout->findData(QStringLiteral("planar")));
        QVERIFY(w.findChild<LaunchShapeBox*>(QStringLiteral("launchShapeBox"))->setShapeText(QStringLiteral("32x8")).isEmpty());
        auto* backend = w.findChild<QComboBox*>(QStringLiteral("backendBox"));
        backend->setCurrentIndex(backend->findData(QStringLiteral("cpu")));
        QTRY_VERIFY_WITH_TIMEOUT(w.page<ImagePage>()->session()->resultShape().block == (Dim3{32, 8, 1}) &&
                                     w.page<ImagePage>()->session()->resultLayout() == PixelLayout::Planar && !w.jobs()->busy(),
                                 kRunTimeoutMs);
        QVERIFY(w.page<ImagePage>()->session()->completedRuns() > runs);
        QVERIFY(result_equals(test::image_page(w)->resultImage(), test_gray_));  // planar gives the same bytes
        w.close();  // saves the geometry
    }
    QSettings settings;
    QCOMPARE(settings.value(QStringLiteral("run/layout")).toString(), QStringLiteral("planar"));
    QCOMPARE(settings.value(QStringLiteral("run/block")).toString(), QStringLiteral("32x8"));
    QCOMPARE(settings.value(QStringLiteral("run/backend")).toString(), QStringLiteral("cpu"));
    QVERIFY(!settings.value(QStringLiteral("window/geometry")).toByteArray().isEmpty());
    const QStringList recent = settings.value(QStringLiteral("recentFiles")).toStringList();
    QVERIFY(!recent.isEmpty());
    QCOMPARE(recent.first(), QFileInfo(test_png_).absoluteFilePath());

    MainWindow again(gl_, second_png_);
    QCOMPARE(again.findChild<QComboBox*>(QStringLiteral("layoutBox"))->currentData().toString(), QStringLiteral("planar"));
    QCOMPARE(again.findChild<LaunchShapeBox*>(QStringLiteral("launchShapeBox"))->shapeText(), QStringLiteral("32x8"));
    QCOMPARE(again.findChild<QComboBox*>(QStringLiteral("backendBox"))->currentData().toString(), QStringLiteral("cpu"));
    QVERIFY(show_and_wait(again));
    const QStringList now = QSettings().value(QStringLiteral("recentFiles")).toStringList();
    QCOMPARE(now.value(0), QFileInfo(second_png_).absoluteFilePath());
    QCOMPARE(now.value(1), QFileInfo(test_png_).absoluteFilePath());
}

void TestMainWindow::cuda_item_reflects_device() {
    MainWindow w(gl_, test_png_);
    auto* backend = w.findChild<QComboBox*>(QStringLiteral("backendBox"));
    auto* model = qobject_cast<QStandardItemModel*>(backend->model());
    QVERIFY(model);
    const int cuda = backend->findData(QStringLiteral("cuda"));
    QVERIFY(cuda >= 0);
    QCOMPARE(model->item(cuda)->isEnabled(), cuda_device_available());
    if (!cuda_device_available()) QVERIFY(!backend->itemData(cuda, Qt::ToolTipRole).toString().isEmpty());
    // The box itself says where the kernels run and, without a device, why CUDA is greyed out.
    QVERIFY(backend->toolTip().startsWith(QStringLiteral("Where the kernels run")));
    QCOMPARE(backend->toolTip().contains(QStringLiteral("CUDA is greyed out")), !cuda_device_available());
}

// File > Open starts next to the picture on screen, or in the samples folder while a sample is shown.
void TestMainWindow::open_dialog_starts_next_to_the_file() {
    {
        MainWindow w(gl_, test_png_);
        QTRY_VERIFY_WITH_TIMEOUT(test::image_page(w)->currentFile() == test_png_, kRunTimeoutMs);
        QCOMPARE(w.openFolder(), QFileInfo(test_png_).absolutePath());
    }
    MainWindow w(gl_);
    QTRY_VERIFY_WITH_TIMEOUT(test::image_page(w)->currentFile() == MainWindow::sampleFile(), kRunTimeoutMs);
    const QDir samples(w.openFolder());
    QVERIFY2(samples.exists(QStringLiteral("chelsea.png")) && samples.exists(QStringLiteral("coffee.png")),
             qPrintable(samples.path()));
}

void TestMainWindow::file_filter_lists_supported_formats() {
    const QString filter = MainWindow::imageFileFilter();
    QVERIFY(filter.contains(QStringLiteral("*.png")));
    QVERIFY(filter.contains(QStringLiteral("*.jpg")));
    QVERIFY(filter.contains(QStringLiteral("All files (*)")));
}

// A click on the result view (press and release in place) pins the pixel: the inspector names its
// thread and shows the index arithmetic, the three planar reads and the grey, as the kernel does it.
void TestMainWindow::inspector_shows_clicked_pixel() {
    MainWindow w(gl_, test_png_);
    QVERIFY(show_and_wait(w));
    auto* layout = w.findChild<QComboBox*>(QStringLiteral("layoutBox"));
    layout->setCurrentIndex(layout->findData(QStringLiteral("planar")));
    w.launchPanel()->setChoice(grayscale_choice(LaunchShape::two_d(16, 16)));
    QTRY_VERIFY_WITH_TIMEOUT(w.page<ImagePage>()->session()->resultShape().block == (Dim3{16, 16, 1}) &&
                                 w.page<ImagePage>()->session()->resultLayout() == PixelLayout::Planar && !w.jobs()->busy(),
                             kRunTimeoutMs);
    test::image_page(w)->viewTransform()->setZoom(4);
    test::image_page(w)->viewTransform()->setCenter(QPointF(20, 10));

    QWidget* view = test::image_page(w)->resultView()->widget();
    QTest::mouseClick(view, Qt::LeftButton, Qt::NoModifier, test::image_page(w)->resultView()->imageToWidget(QPointF(20.5, 10.5)).toPoint());
    QCOMPARE(w.page<ImagePage>()->session()->selectedPixel(), QPoint(20, 10));
    const LaunchPlan plan = plan_grayscale_launch(LaunchShape::two_d(16, 16), 97, 33);
    const ThreadOfPixel t = plan.thread_of_pixel(20, 10);
    QCOMPARE(t.linear_thread, std::uint64_t(164));  // 10 * 16 + 4
    const QRgb rgb = test_image_.pixel(20, 10);
    const int grey = luma_u8(std::uint8_t(qRed(rgb)), std::uint8_t(qGreen(rgb)), std::uint8_t(qBlue(rgb)));
    QCOMPARE(grey, int(test_gray_[990]));
    const QString text = w.inspector()->plainText();
    const QStringList expected = {
        QStringLiteral("Pixel (20, 10)"),
        QStringLiteral("blockIdx\n(1, 0)"),
        QStringLiteral("threadIdx\n(4, 10)"),
        QStringLiteral("1 (blocks 0–20)"),
        QStringLiteral("164 (threads 0–255)"),
        QStringLiteral("warp 6 of 8 (index 5), lane 4"),
        QStringLiteral("c = blockIdx.x*blockDim.x + threadIdx.x = 1*16 + 4 = 20"),
        QStringLiteral("r = blockIdx.y*blockDim.y + threadIdx.y = 0*16 + 10 = 10"),
        QStringLiteral("i = r*w + c = 10*97 + 20 = 990"),
        QStringLiteral("x[i] = x[990] = %1 (R)").arg(qRed(rgb)),
        QStringLiteral("x[i+n] = x[4191] = %1 (G)").arg(qGreen(rgb)),
        QStringLiteral("x[i+2n] = x[7392] = %1 (B)").arg(qBlue(rgb)),
        QStringLiteral("-> %1").arg(grey),
        QStringLiteral("out[990] = %1").arg(grey),
    };
    for (const QString& line : expected) QVERIFY2(text.contains(line), qPrintable(line + QStringLiteral("\n---\n") + text));

    // Interleaved: 3i, 3i+1, 3i+2.
    layout->setCurrentIndex(layout->findData(QStringLiteral("interleaved")));
    QVERIFY2(w.inspector()->plainText().contains(QStringLiteral("x[3i+2] = x[2972]")), qPrintable(w.inspector()->plainText()));

    // One rule: the click pinned the inspector, so hovering elsewhere only outlines the block under
    // the mouse lightly; the inspector and the yellow box stay on the pinned pixel.
    cvz::test::hover(view, test::image_page(w)->resultView()->imageToWidget(QPointF(3.5, 2.5)).toPoint());
    QTRY_COMPARE_WITH_TIMEOUT(test::image_page(w)->overlayState().hovered_block, std::int64_t(0), 120000);
    QVERIFY(w.inspector()->plainText().contains(QStringLiteral("Pixel (20, 10)")));
    QCOMPARE(test::image_page(w)->overlayState().selected_pixel, QPoint(20, 10));
    QCOMPARE(test::image_page(w)->overlayState().selected_block, std::int64_t(1));
    QEvent leave(QEvent::Leave);
    QApplication::sendEvent(view, &leave);
    QCOMPARE(test::image_page(w)->overlayState().hovered_block, std::int64_t(-1));
    QVERIFY(w.inspector()->plainText().contains(QStringLiteral("Pixel (20, 10)")));

    // Esc lets go: then the inspector follows the mouse.
    w.activateWindow();
    QVERIFY(cvz::test::wait_active(&w));
    view->setFocus();
    QTRY_VERIFY_WITH_TIMEOUT(view->hasFocus(), 120000);
    QTest::keyClick(view, Qt::Key_Escape);
    QCOMPARE(w.page<ImagePage>()->session()->selectedPixel(), QPoint(-1, -1));
    QCOMPARE(test::image_page(w)->overlayState().selected_block, std::int64_t(-1));
    cvz::test::hover(view, test::image_page(w)->resultView()->imageToWidget(QPointF(3.5, 2.5)).toPoint());
    QTRY_VERIFY_WITH_TIMEOUT(w.inspector()->plainText().contains(QStringLiteral("Pixel (3, 2)")), 120000);

    // A click pins again; a second click on the pinned pixel lets go.
    QTest::mouseClick(view, Qt::LeftButton, Qt::NoModifier, test::image_page(w)->resultView()->imageToWidget(QPointF(20.5, 10.5)).toPoint());
    QCOMPARE(w.page<ImagePage>()->session()->selectedPixel(), QPoint(20, 10));
    cvz::test::hover(view, test::image_page(w)->resultView()->imageToWidget(QPointF(40.5, 20.5)).toPoint());
    QTRY_COMPARE_WITH_TIMEOUT(test::image_page(w)->overlayState().hovered_block, std::int64_t(1 * 7 + 2), 120000);  // blockIdx (2, 1) of a 7-wide grid
    QVERIFY(w.inspector()->plainText().contains(QStringLiteral("Pixel (20, 10)")));
    QTest::mouseClick(view, Qt::LeftButton, Qt::NoModifier, test::image_page(w)->resultView()->imageToWidget(QPointF(20.5, 10.5)).toPoint());
    QCOMPARE(w.page<ImagePage>()->session()->selectedPixel(), QPoint(-1, -1));
}

// Past the image, a thread the guard switches off: the inspector says so, in 1-D and 2-D.
void TestMainWindow::inspector_explains_idle_thread() {
    MainWindow w(gl_, test_png_);
    QVERIFY(show_and_wait(w));
    w.launchPanel()->setChoice(grayscale_choice(LaunchShape::two_d(16, 16)));  // 112 x 48 threads over 97 x 33
    test::image_page(w)->inspectPixel(QPoint(100, 5), true);
    QString text = w.inspector()->plainText();
    QVERIFY2(text.contains(QStringLiteral("past the image")) && text.contains(QStringLiteral("c=100, r=5 outside 97x33")),
             qPrintable(text));
    QVERIFY(text.contains(QStringLiteral("blockIdx\n(6, 0)")));
    w.launchPanel()->setChoice(grayscale_choice(LaunchShape::one_d(256)));  // 13 blocks: 3328 threads over 3201 pixels
    test::image_page(w)->inspectPixel(QPoint(5, 33), true);                   // i = 33*97 + 5 = 3206
    text = w.inspector()->plainText();
    QVERIFY2(text.contains(QStringLiteral("if (i < n): 3206 >= 3201, switched off")), qPrintable(text));
    QVERIFY(text.contains(QStringLiteral("blockIdx\n(12)")));
    test::image_page(w)->inspectPixel(QPoint(96, 40), true);  // past the last thread
    QVERIFY(w.inspector()->plainText().contains(QStringLiteral("no thread")));
}

// View > Grid Overlay (G) and the overlay panel's check box are one setting; the overlay appears
// and disappears on both views.
void TestMainWindow::overlay_toggles_with_g() {
    MainWindow w(gl_, test_png_);
    QVERIFY(show_and_wait(w));
    QVERIFY(w.overlayAction()->isChecked());  // on by default: a new user sees the grid
    // One "Grid Overlay" in the menus: the dock's show/hide entry is "Overlay", under View > Panels.
    int named = 0;
    for (const QAction* action : w.findChildren<QAction*>()) named += action->text().remove(QLatin1Char('&')) == QLatin1String("Grid Overlay");
    QCOMPARE(named, 1);
    QVERIFY(test::image_page(w)->originalView()->overlay().enabled && test::image_page(w)->resultView()->overlay().enabled);
    w.activateWindow();
    QVERIFY(cvz::test::wait_active(&w));
    test::image_page(w)->originalView()->widget()->setFocus();
    QTest::keyClick(test::image_page(w)->originalView()->widget(), Qt::Key_G);
    QVERIFY(!w.overlayAction()->isChecked());
    QVERIFY(!w.overlayPanel()->overlayEnabled());
    QVERIFY(!test::image_page(w)->originalView()->overlay().enabled && !test::image_page(w)->resultView()->overlay().enabled);
    test::deliver_posted_events();
    const QString plain =
        check_on_screen(test::image_page(w)->originalView(), test_image_.size(), [&](int x, int y) { return test_image_.pixel(x, y); });
    QVERIFY2(plain.isEmpty(), qPrintable(plain));
    w.overlayPanel()->setOverlayEnabled(true);
    QVERIFY(w.overlayAction()->isChecked());
    QVERIFY(QSettings().value(QStringLiteral("overlay/enabled")).toBool());
}

// Without a display (no Xvfb), run on Qt's offscreen platform rather than not at all.
int main(int argc, char* argv[]) {
    if (qEnvironmentVariableIsEmpty("DISPLAY") && qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY") &&
        qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    TestMainWindow test;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&test, argc, argv);
}
#include "tst_main_window.moc"
