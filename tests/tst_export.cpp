// File > Save Result As and File > Export (ui/windows/export_actions.h): the grayscale result is the
// CLI's bytes, the view exports with and without the overlay, the animation as numbered PNG frames
// and as an animated GIF (with cancel), timings and sweeps as CSV and JSON; errors name the file;
// the last export folder is remembered. Also the Animation menu's stepping entries.
#include <QtTest>

#include <QAction>
#include <QDoubleSpinBox>
#include <QFile>
#include <QImageReader>
#include <QJsonArray>
#include <QLabel>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSettings>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTemporaryDir>

#include <future>
#include <memory>

#include "support/window_waits.h"
#include "app/models/device_profile.h"
#include "app/models/execution_animation.h"
#include "app/grayscale/grayscale_session.h"
#include "app/jobs/job_runner.h"
#include "app/jobs/job_ticket.h"
#include "app/models/launch_config.h"
#include "app/tuning/block_sweep.h"
#include "cli_runner.h"
#include "support/event_waits.h"
#include "support/main_window_fixtures.h"
#include "support/test_images.h"
#include "app/convolution/convolution_session.h"
#include "kernels/catalogue/kernel_catalogue.h"
#include "ui/pages/convolution/convolution_page.h"
#include "ui/pages/grayscale/image_page.h"
#include "ui/panels/launch_panel.h"
#include "ui/panels/sm_panel.h"
#include "ui/panels/timeline_bar.h"
#include "ui/views/display_path.h"
#include "ui/views/image_surface.h"
#include "ui/views/overlay_legend.h"
#include "ui/views/view_transform.h"
#include "ui/windows/animation_actions.h"
#include "ui/windows/animation_export.h"
#include "ui/views/overlay_state.h"
#include "ui/windows/export_actions.h"
#include "ui/windows/main_window.h"
#include "ui/windows/sweep_dialog.h"

using namespace cvz;

namespace {

constexpr int kTimeoutMs = 120000;  // only for a hang: a loaded machine is slow

QByteArray read_all(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

struct Outcome {
    QString path, error;
    bool cancelled = false;
};

// Waits for the export's finished() signal (connected before the call, so nothing is missed).
Outcome wait_for_export(MainWindow& w, const std::function<void()>& start) {
    QSignalSpy spy(w.exports(), &ExportActions::finished);
    start();
    if (!spy.wait(kTimeoutMs) && spy.isEmpty()) return {QString(), QStringLiteral("no answer"), false};
    const QList<QVariant> args = spy.takeFirst();
    return {args[0].toString(), args[1].toString(), args[2].toBool()};
}

}  // namespace

class TestExport : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void init();

    void save_result_matches_cli_bytes_data();
    void save_result_matches_cli_bytes();
    void save_errors_name_the_file();
    void view_exports_with_and_without_overlay();
    void animation_exports_png_frames();
    void animation_exports_gif();
    void animation_export_cancels();
    void timings_and_sweep_as_csv_and_json();
    void convolution_page_saves_and_exports_as_the_others();
    void last_export_folder_remembered();
    void animation_menu_steps_and_remembers_speed();
    void step_keys_do_not_fire_in_a_spin_box();
    void sm_caption_and_output_label_follow_the_animation();
    void zoom_to_block_and_warp_frame_them();

private:
    bool open(MainWindow& w);

    QTemporaryDir dir_;
    QString photo_;
    DisplayPathChoice display_;
};

void TestExport::initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("cudaviz"));
    QCoreApplication::setApplicationName(QStringLiteral("cudaviz-export-test"));  // its own settings: ctest -j runs GUI tests at once
    QVERIFY(dir_.isValid());
    photo_ = dir_.filePath(QStringLiteral("photo.png"));
    QVERIFY(test::make_test_image(97, 33, 5).save(photo_));  // odd, non-square
    display_ = choose_display_path(false);
}

void TestExport::init() { QSettings().clear(); }

bool TestExport::open(MainWindow& w) {
    if (!test::show_and_wait(w, {1200, 700}, kTimeoutMs)) return false;
    return QTest::qWaitFor([&] { return test::image_page(w)->currentFile() == photo_ && test::image_page(w)->resultImage().size() == QSize(97, 33) &&
                                        !w.page<ImagePage>()->session()->running() && !w.jobs()->busy(); },
                           kTimeoutMs);
}

void TestExport::save_result_matches_cli_bytes_data() {
    QTest::addColumn<QString>("extension");
    QTest::addColumn<QString>("block");
    QTest::newRow("png, 2-D 16x16") << "png" << "16x16";
    QTest::newRow("npy, 2-D 16x16") << "npy" << "16x16";
    QTest::newRow("png, 1-D 256") << "png" << "256";
    QTest::newRow("npy, 2-D 7x3") << "npy" << "7x3";
}

void TestExport::save_result_matches_cli_bytes() {
    QFETCH(QString, extension);
    QFETCH(QString, block);
    MainWindow w(display_, photo_);
    QVERIFY(open(w));
    const LaunchConfigParse shape = parse_launch_config(block);
    QVERIFY(shape.ok());
    w.page<ImagePage>()->session()->setShape(shape.shape);
    QVERIFY(test::drain(*w.jobs()));
    QCOMPARE(w.page<ImagePage>()->session()->resultShape(), shape.shape);

    const QString gui = dir_.filePath(QStringLiteral("gui-%1.%2").arg(block, extension));
    const Outcome outcome = wait_for_export(w, [&] { w.exports()->saveResult(gui); });
    QCOMPARE(outcome.error, QString());
    QCOMPARE(outcome.path, gui);

    const QString cli = dir_.filePath(QStringLiteral("cli-%1.%2").arg(block, extension));
    const test::CliRun run = test::run_cli({QStringLiteral("grayscale"), photo_, cli, QStringLiteral("--backend"),
                                            QStringLiteral("cpu"), QStringLiteral("--block"), block});
    QVERIFY2(run.code == 0, qPrintable(test::describe(run)));
    const QByteArray cli_bytes = read_all(cli);
    QVERIFY(!cli_bytes.isEmpty());
    QCOMPARE(read_all(gui), cli_bytes);  // the same file, byte for byte
}

void TestExport::save_errors_name_the_file() {
    MainWindow w(display_, photo_);
    QVERIFY(open(w));
    const QString missing = dir_.filePath(QStringLiteral("no/such/folder/out.png"));
    Outcome outcome = wait_for_export(w, [&] { w.exports()->saveResult(missing); });
    QVERIFY2(outcome.error.contains(QDir::toNativeSeparators(missing)), qPrintable(outcome.error));
    QVERIFY(!QFile::exists(missing));
    QTRY_VERIFY_WITH_TIMEOUT(w.statusText().contains(QDir::toNativeSeparators(missing)), 120000);  // said in the status bar too

    const QString wrong = dir_.filePath(QStringLiteral("out.jpg"));
    outcome = wait_for_export(w, [&] { w.exports()->saveResult(wrong); });
    QVERIFY2(outcome.error.contains(QStringLiteral("out.jpg")) && outcome.error.contains(QStringLiteral(".npy")),
             qPrintable(outcome.error));

    outcome = wait_for_export(w, [&] { w.exports()->exportAnimation(dir_.filePath(QStringLiteral("anim.mp4"))); });
    QVERIFY2(outcome.error.contains(QStringLiteral("anim.mp4")) && outcome.error.contains(QStringLiteral(".gif")),
             qPrintable(outcome.error));
    outcome = wait_for_export(w, [&] { w.exports()->exportTimings(dir_.filePath(QStringLiteral("no/dir/t.json"))); });
    QVERIFY2(outcome.error.contains(QStringLiteral("t.json")), qPrintable(outcome.error));
    outcome = wait_for_export(w, [&] { w.exports()->exportSweep(dir_.filePath(QStringLiteral("sweep.csv"))); });
    QVERIFY2(outcome.error.contains(QStringLiteral("Block-Size Sweep")), qPrintable(outcome.error));  // none yet
}

void TestExport::view_exports_with_and_without_overlay() {
    MainWindow w(display_, photo_);
    QVERIFY(open(w));
    w.overlayAction()->setChecked(true);
    w.colourAction()->trigger();  // the blocks tinted (the grid alone is the default since issue 30)
    QCOMPARE(test::image_page(w)->overlayState().coloring, OverlayColoring::Block);
    test::image_page(w)->viewTransform()->setZoom(3);
    test::image_page(w)->inspectPixel(QPoint(20, 17), true);  // block (1, 1) of 16x16: outlined in the overlay
    test::deliver_posted_events();  // the legend's new text relayouts the page first
    const QSize view = test::image_page(w)->resultView()->widget()->size();

    const QString plain = dir_.filePath(QStringLiteral("plain.png"));
    QCOMPARE(wait_for_export(w, [&] { w.exports()->exportView(plain, false); }).error, QString());
    const QString over = dir_.filePath(QStringLiteral("overlay.png"));
    QCOMPARE(wait_for_export(w, [&] { w.exports()->exportView(over, true); }).error, QString());

    const QImage a(plain), b(over);
    QCOMPARE(a.size(), view);
    QCOMPARE(b.size(), view);
    // Without the overlay every image pixel shows the kernel's byte; with it, not all of them do.
    const QImage result = test::image_page(w)->resultImage();
    int differ = 0;
    for (int y = 0; y < result.height(); ++y)
        for (int x = 0; x < result.width(); ++x) {
            const QPointF p = test::image_page(w)->resultView()->imageToWidget(QPointF(x + 0.5, y + 0.5));
            const QPoint at(int(p.x()), int(p.y()));
            QVERIFY(a.rect().contains(at));
            const int g = qGray(result.pixel(x, y));
            QCOMPARE(a.pixel(at) & 0xffffff, qRgb(g, g, g) & 0xffffff);
            if ((b.pixel(at) & 0xffffff) != (qRgb(g, g, g) & 0xffffff)) ++differ;
        }
    QVERIFY2(differ > result.width() * result.height() / 2, qPrintable(QString::number(differ)));
}

void TestExport::animation_exports_png_frames() {
    MainWindow w(display_, photo_);
    QVERIFY(open(w));
    w.page<ImagePage>()->session()->setShape(LaunchShape::two_d(8, 8));  // 13 x 5 = 65 blocks
    QVERIFY(test::drain(*w.jobs()));
    w.page<ImagePage>()->session()->setAnimationMode(AnimationMode::Waves);
    const std::uint64_t steps = w.page<ImagePage>()->session()->animationSteps();
    QVERIFY(steps >= 1);
    test::deliver_posted_events();
    const QSize view = test::image_page(w)->resultView()->widget()->size();

    QDir frames_dir(dir_.filePath(QStringLiteral("frames")));
    QVERIFY(frames_dir.mkpath(QStringLiteral(".")));
    const QString path = frames_dir.filePath(QStringLiteral("run.png"));
    const Outcome outcome = wait_for_export(w, [&] { w.exports()->exportAnimation(path); });
    QCOMPARE(outcome.error, QString());
    QCOMPARE(std::uint64_t(frames_dir.entryList({QStringLiteral("run-*.png")}, QDir::Files).size()), steps + 1);
    QCOMPARE(animation_frame_path(path, 0, steps + 1), frames_dir.filePath(QStringLiteral("run-0000.png")));

    // The first frame shows nothing run yet: every block shows the input, not the kernel's grey.
    const QImage first(animation_frame_path(path, 0, steps + 1));
    const QImage last(animation_frame_path(path, steps, steps + 1));
    // Issue 30, item 9: cut to the content, no dark bands of the view around it, and a caption below.
    const QPointF at = test::image_page(w)->resultView()->imageToWidget(QPointF(0, 0));
    const QPoint origin(std::max(0, int(std::floor(at.x()))), std::max(0, int(std::floor(at.y()))));
    QVERIFY2(first.width() < view.width() && first.height() < view.height() + 40,
             qPrintable(QStringLiteral("%1x%2 in a %3x%4 view").arg(first.width()).arg(first.height()).arg(view.width()).arg(view.height())));
    const QRgb background = overlay_style::kBackground.rgb() & 0xFFFFFF;
    const int content_height = first.height() - 30;  // above the caption strip
    for (QPoint p : {QPoint(1, 1), QPoint(first.width() / 2, 1), QPoint(first.width() - 2, 1), QPoint(1, content_height / 2),
                     QPoint(first.width() - 2, content_height / 2), QPoint(first.width() / 2, content_height - 1)})
        QVERIFY2((first.pixel(p) & 0xFFFFFF) != background, qPrintable(QStringLiteral("background at (%1, %2)").arg(p.x()).arg(p.y())));
    int dark = 0;  // the caption's letters, in the strip under the content
    for (int y = first.height() - 12; y < first.height(); ++y)
        for (int x = 0; x < std::min(first.width(), 200); ++x) dark += qGray(first.pixel(x, y)) < 100;
    QVERIFY2(dark > 20, "no caption under the frame");
    const QPointF centre = test::image_page(w)->resultView()->imageToWidget(QPointF(48.5, 16.5)) - QPointF(origin);
    const QRgb input = test::image_page(w)->originalImage().pixel(48, 16);
    const QRgb shown_first = first.pixel(centre.toPoint());
    const QRgb shown_last = last.pixel(centre.toPoint());
    QVERIFY2(qRed(shown_first) != qBlue(shown_first) || qRed(input) == qBlue(input), "frame 0 should show colour");
    QCOMPARE(qRed(shown_last), qGreen(shown_last));  // all done: grey (the overlay's tint aside)
}

void TestExport::animation_exports_gif() {
    MainWindow w(display_, photo_);
    QVERIFY(open(w));
    w.page<ImagePage>()->session()->setShape(LaunchShape::two_d(8, 8));
    QVERIFY(test::drain(*w.jobs()));
    w.page<ImagePage>()->session()->setAnimationMode(AnimationMode::Waves);
    w.timeline()->setStepsPerSecond(4);
    const std::uint64_t steps = w.page<ImagePage>()->session()->animationSteps();
    test::deliver_posted_events();
    const QSize view = test::image_page(w)->resultView()->widget()->size();

    const QString path = dir_.filePath(QStringLiteral("waves.gif"));
    const Outcome outcome = wait_for_export(w, [&] { w.exports()->exportAnimation(path); });
    QCOMPARE(outcome.error, QString());
    QImageReader reader(path);
    QCOMPARE(reader.format(), QByteArray("gif"));
    QCOMPARE(std::uint64_t(reader.imageCount()), steps + 1);
    const QImage first = reader.read();
    QVERIFY2(first.width() < view.width() && first.height() < view.height() + 40 && first.height() > view.height() / 3,
             qPrintable(QStringLiteral("%1x%2 in a %3x%4 view").arg(first.width()).arg(first.height()).arg(view.width()).arg(view.height())));
    QCOMPARE(reader.nextImageDelay(), 250);  // 4 waves per second
    if (qEnvironmentVariableIsSet("EXPORT_GRAB_DIR"))  // to look at
        first.save(qEnvironmentVariable("EXPORT_GRAB_DIR") + QStringLiteral("/gif_frame.png"));
}

void TestExport::animation_export_cancels() {
    MainWindow w(display_, photo_);
    QVERIFY(open(w));
    w.page<ImagePage>()->session()->setShape(LaunchShape::two_d(32, 32));  // 32 warps: 33 frames
    QVERIFY(test::drain(*w.jobs()));
    w.page<ImagePage>()->session()->setAnimationMode(AnimationMode::Warps);
    QCOMPARE(w.page<ImagePage>()->session()->animationSteps(), 32u);

    // Cancelled before it starts: the worker is held by another job, so the export is still queued.
    const QString path = dir_.filePath(QStringLiteral("cancelled.gif"));
    std::promise<void> gate;
    std::shared_future<void> open_gate = gate.get_future().share();
    QObject holder;
    w.jobs()->submit(QStringLiteral("test-hold"), &holder, [open_gate]() -> JobRunner::Continuation {
        open_gate.wait();
        return [] {};
    });
    QSignalSpy spy(w.exports(), &ExportActions::finished);
    JobTicket ticket = w.exports()->exportAnimation(path);
    QVERIFY(ticket.isValid());
    ticket.cancel();
    gate.set_value();
    QVERIFY(spy.wait(kTimeoutMs) || !spy.isEmpty());
    const QList<QVariant> args = spy.takeFirst();
    QCOMPARE(args[1].toString(), QString());
    QCOMPARE(args[2].toBool(), true);  // cancelled
    QVERIFY(!QFile::exists(path));
    QTRY_VERIFY_WITH_TIMEOUT(w.statusText().contains(QStringLiteral("cancelled")), 120000);
    QVERIFY(test::drain(*w.jobs()));
    QCOMPARE(spy.size(), 0);  // answered once

    // Asked to stop while writing (the flag the worker polls between frames): no GIF is left, and
    // PNG frames stop.
    AnimationExportRequest request;
    request.overlay = test::image_page(w)->overlayState();
    request.waves = w.page<ImagePage>()->session()->waves();
    request.mode = AnimationMode::Warps;
    request.block = 0;
    request.image = test::image_page(w)->resultImage();
    request.source = test::image_page(w)->originalImage();
    request.size = QSize(200, 100);
    request.zoom = 1;
    request.center = QPointF(48, 16);
    for (const QString& name : {QStringLiteral("stopped.gif"), QStringLiteral("stopped.png")}) {
        request.path = dir_.filePath(name);
        auto state = std::make_shared<detail::JobState>();
        state->cancel.request();  // JobState::cancel is a CancelToken (c66e6da)
        const AnimationExportResult result = export_animation(request, JobControl(state));
        QVERIFY(result.cancelled);
        QCOMPARE(result.frames, 0);
        QCOMPARE(result.error, QString());
        QVERIFY(!QFile::exists(request.path));
        QVERIFY(!QFile::exists(animation_frame_path(request.path, 0, 33)));
    }
    // The caption counts from 1, as the Execution bar does.
    QCOMPARE(animation_frame_caption(request, 0), QStringLiteral("block 0: warp 1 of 32 runs"));
    request.title = QStringLiteral("gray_2d 32\u00d732 over photo.png");
    QCOMPARE(animation_frame_caption(request, 32), QStringLiteral("gray_2d 32\u00d732 over photo.png \u00b7 block 0: all 32 warps done"));
    // Not cancelled, the same request writes all 33 frames.
    request.path = dir_.filePath(QStringLiteral("whole.gif"));
    const AnimationExportResult whole = export_animation(request, JobControl(std::make_shared<detail::JobState>()));
    QCOMPARE(whole.error, QString());
    QCOMPARE(whole.frames, 33);
    QCOMPARE(QImageReader(request.path).imageCount(), 33);
}

void TestExport::timings_and_sweep_as_csv_and_json() {
    MainWindow w(display_, photo_);
    QVERIFY(open(w));
    const QString json = dir_.filePath(QStringLiteral("timings.json"));
    QCOMPARE(wait_for_export(w, [&] { w.exports()->exportTimings(json); }).error, QString());
    const QJsonArray runs = QJsonDocument::fromJson(read_all(json)).object().value(QStringLiteral("runs")).toArray();
    QVERIFY(!runs.isEmpty());
    const QJsonObject gray = runs.first().toObject();
    QCOMPARE(gray.value(QStringLiteral("kernel")).toString(), QStringLiteral("grayscale"));
    QCOMPARE(gray.value(QStringLiteral("problem")).toString(), QStringLiteral("97 x 33 image, interleaved"));
    QCOMPARE(gray.value(QStringLiteral("kernel_ms")).toDouble(), w.page<ImagePage>()->session()->lastResult().kernel_ms);
    QCOMPARE(gray.value(QStringLiteral("backend")).toString(), w.page<ImagePage>()->session()->lastResult().backend);

    const QString csv = dir_.filePath(QStringLiteral("timings.csv"));
    QCOMPARE(wait_for_export(w, [&] { w.exports()->exportTimings(csv); }).error, QString());
    const QList<QByteArray> lines = read_all(csv).trimmed().split('\n');
    QCOMPARE(lines.first(), QByteArray("kernel,launch,problem,backend,kernel_ms,total_ms"));
    QVERIFY(lines.size() >= 2);
    QVERIFY(lines[1].startsWith("grayscale,"));

    w.openSweep();  // the modeled rows are there at once (no GPU: nothing is timed)
    QVERIFY(w.sweepDialog());
    QTRY_VERIFY_WITH_TIMEOUT(!w.sweepDialog()->result().rows.empty(), 120000);
    const QString sweep_json = dir_.filePath(QStringLiteral("sweep.json"));
    QCOMPARE(wait_for_export(w, [&] { w.exports()->exportSweep(sweep_json); }).error, QString());
    const QJsonObject doc = QJsonDocument::fromJson(read_all(sweep_json)).object();
    QCOMPARE(doc.value(QStringLiteral("kernel")).toString(), QStringLiteral("grayscale"));
    QCOMPARE(std::size_t(doc.value(QStringLiteral("rows")).toArray().size()), w.sweepDialog()->result().rows.size());
    const QString sweep_csv_path = dir_.filePath(QStringLiteral("sweep.csv"));
    QCOMPARE(wait_for_export(w, [&] { w.exports()->exportSweep(sweep_csv_path); }).error, QString());
    QCOMPARE(QString::fromUtf8(read_all(sweep_csv_path)), sweep_csv(w.sweepDialog()->result()));
    w.sweepDialog()->close();
}

// Save Result As and the exports ask the page in front: on the convolution page they write its
// float32 output as `cudaviz-cli convolution` does (the same bytes), its output view, and its run in
// the timings beside the image page's.
void TestExport::convolution_page_saves_and_exports_as_the_others() {
    MainWindow w(display_, photo_);
    QVERIFY(open(w));
    auto* page = w.page<ConvolutionPage>();
    QVERIFY(page);
    ConvolutionSession* session = page->session();
    w.tabs()->setCurrentWidget(page);
    page->openFile(photo_);
    QVERIFY(QTest::qWaitFor([&] { return session->file() == photo_ && session->result().size() == QSize(97, 33) &&
                                         session->completedRuns() >= 1 && !session->running() && !w.jobs()->busy(); },
                            kTimeoutMs));
    QVERIFY(page->resultFileFilter().contains(QStringLiteral("*.npy")));

    const QString gui = dir_.filePath(QStringLiteral("conv-gui.npy"));
    const Outcome outcome = wait_for_export(w, [&] { w.exports()->saveResult(gui); });
    QCOMPARE(outcome.error, QString());
    const ConvolutionLaunch launch = session->resultLaunch();
    const QString cli = dir_.filePath(QStringLiteral("conv-cli.npy"));
    const test::CliRun run = test::run_cli(
        {QStringLiteral("convolution"), photo_, cli, QStringLiteral("--backend"), QStringLiteral("cpu"), QStringLiteral("--mask"),
         session->maskName(), QStringLiteral("--kernel"), QString::fromStdString(kernel_info(launch.ref())->name),
         QStringLiteral("--block"), QStringLiteral("%1x%2").arg(launch.block.x).arg(launch.block.y)});
    QVERIFY2(run.code == 0, qPrintable(test::describe(run)));
    const QByteArray cli_bytes = read_all(cli);
    QVERIFY(cli_bytes.size() > 97 * 33 * 4);
    QCOMPARE(read_all(gui), cli_bytes);

    const QString wrong = dir_.filePath(QStringLiteral("conv.jpg"));
    const Outcome refused = wait_for_export(w, [&] { w.exports()->saveResult(wrong); });
    QVERIFY2(refused.error.contains(QStringLiteral("conv.jpg")) && refused.error.contains(QStringLiteral(".npy")),
             qPrintable(refused.error));

    const QString view = dir_.filePath(QStringLiteral("conv-view.png"));
    QCOMPARE(wait_for_export(w, [&] { w.exports()->exportView(view, true); }).error, QString());
    QCOMPARE(QImage(view).size(), page->outputView()->widget()->size());

    const QString json = dir_.filePath(QStringLiteral("conv-timings.json"));
    QCOMPARE(wait_for_export(w, [&] { w.exports()->exportTimings(json); }).error, QString());
    QStringList kernels;
    for (const QJsonValue& v : QJsonDocument::fromJson(read_all(json)).object().value(QStringLiteral("runs")).toArray())
        kernels << v.toObject().value(QStringLiteral("kernel")).toString();
    QVERIFY2(kernels.contains(QStringLiteral("grayscale")) && kernels.contains(QStringLiteral("convolution")),
             qPrintable(kernels.join(QLatin1Char(','))));
}

void TestExport::last_export_folder_remembered() {
    MainWindow w(display_, photo_);
    QVERIFY(open(w));
    // Before any export: next to the open file.
    QCOMPARE(w.exports()->lastFolder(), QFileInfo(photo_).absolutePath());
    const QString other = dir_.filePath(QStringLiteral("exports"));
    QVERIFY(QDir().mkpath(other));
    QSettings().setValue(QStringLiteral("export/lastDir"), other);  // what a save dialog stores
    QCOMPARE(w.exports()->lastFolder(), other);
    QSettings().setValue(QStringLiteral("export/lastDir"), dir_.filePath(QStringLiteral("gone")));
    QCOMPARE(w.exports()->lastFolder(), QFileInfo(photo_).absolutePath());  // a folder since removed
    QCOMPARE(w.exports()->saveResultAction()->shortcut(), QKeySequence(QKeySequence::Save));
}

void TestExport::animation_menu_steps_and_remembers_speed() {
    {
        MainWindow w(display_, photo_);
        QVERIFY(open(w));
        w.page<ImagePage>()->session()->setShape(LaunchShape::two_d(32, 32));
        QVERIFY(test::drain(*w.jobs()));
        w.page<ImagePage>()->session()->setAnimationMode(AnimationMode::Warps);  // 32 warps of block 0
        const int steps = int(w.page<ImagePage>()->session()->animationSteps());
        QVERIFY(steps > 3);
        w.activateWindow();
        QVERIFY(cvz::test::wait_active(&w));
        AnimationActions* a = w.animationActions();
        a->jumpToStartAction()->trigger();
        QCOMPARE(w.page<ImagePage>()->session()->animationPosition(), 0u);
        a->stepForwardAction()->trigger();
        a->stepForwardAction()->trigger();
        QCOMPARE(w.page<ImagePage>()->session()->animationPosition(), 2u);
        a->stepBackAction()->trigger();
        QCOMPARE(w.page<ImagePage>()->session()->animationPosition(), 1u);
        a->jumpToEndAction()->trigger();
        QCOMPARE(w.page<ImagePage>()->session()->animationPosition(), std::uint64_t(steps));
        // Jump by number: "wave 3" is position 2.
        a->jumpToStepAction()->trigger();
        QSpinBox* step = w.timeline()->stepBox();
        QTRY_VERIFY_WITH_TIMEOUT(step->hasFocus(), 120000);
        step->setValue(3);
        QCOMPARE(w.page<ImagePage>()->session()->animationPosition(), 2u);
        w.timeline()->speedBox()->setValue(7.5);
    }
    MainWindow again(display_, photo_);
    QVERIFY(open(again));
    QCOMPARE(again.timeline()->stepsPerSecond(), 7.5);
}

void TestExport::step_keys_do_not_fire_in_a_spin_box() {
    MainWindow w(display_, photo_);
    QVERIFY(open(w));
    w.page<ImagePage>()->session()->setShape(LaunchShape::two_d(32, 32));
    QVERIFY(test::drain(*w.jobs()));
    w.page<ImagePage>()->session()->setAnimationMode(AnimationMode::Warps);
    w.timeline()->jumpToStart();
    w.activateWindow();
    QVERIFY(cvz::test::wait_active(&w));

    // Focus on the image: the keys step.
    test::image_page(w)->resultView()->widget()->setFocus();
    QTRY_VERIFY_WITH_TIMEOUT(test::image_page(w)->resultView()->widget()->hasFocus(), 120000);
    QTest::keyClick(test::image_page(w)->resultView()->widget(), Qt::Key_Period);
    QCOMPARE(w.page<ImagePage>()->session()->animationPosition(), 1u);
    QTest::keyClick(test::image_page(w)->resultView()->widget(), Qt::Key_End);
    QCOMPARE(w.page<ImagePage>()->session()->animationPosition(), w.page<ImagePage>()->session()->animationSteps());
    QTest::keyClick(test::image_page(w)->resultView()->widget(), Qt::Key_Home);
    QCOMPARE(w.page<ImagePage>()->session()->animationPosition(), 0u);

    // Focus in a spin box: they are the spin box's keys.
    QDoubleSpinBox* speed = w.timeline()->speedBox();
    speed->setFocus();
    QTRY_VERIFY_WITH_TIMEOUT(speed->hasFocus(), 120000);
    QTest::keyClick(speed, Qt::Key_End);
    QTest::keyClick(speed, Qt::Key_Period);
    QTest::keyClick(speed, Qt::Key_Comma);
    QCOMPARE(w.page<ImagePage>()->session()->animationPosition(), 0u);
}

// The SM dock's "Wave k of n" and the output pane's caption follow every step, whichever way it is
// taken (menu, timeline, keys), and after the device changes under a running animation.
void TestExport::sm_caption_and_output_label_follow_the_animation() {
    MainWindow w(display_, photo_);
    QVERIFY(open(w));
    DeviceProfile small;  // 4 SMs of 2 blocks of 64 threads: 8x8 blocks over 97x33 take 9 waves
    small.name = QStringLiteral("test GPU");
    small.cc_major = 8;
    small.sm_count = 4;
    small.max_threads_per_sm = 128;
    small.max_blocks_per_sm = 2;
    small.shared_per_sm = 65536;
    small.shared_per_block_max = 49152;
    w.page<ImagePage>()->session()->setDevice(small);
    w.page<ImagePage>()->session()->setShape(LaunchShape::two_d(8, 8));
    QVERIFY(test::drain(*w.jobs()));
    QLabel* caption = w.findChild<QLabel*>(QStringLiteral("smCaption"));
    QLabel* output = w.page<ImagePage>()->resultCaption();
    QVERIFY(caption && output);
    QVERIFY(!output->text().contains(QStringLiteral("not yet written")));

    w.page<ImagePage>()->session()->setAnimationMode(AnimationMode::Waves);
    QCOMPARE(w.page<ImagePage>()->session()->animationSteps(), 9u);
    QVERIFY(output->text().contains(QStringLiteral("pixels not yet written show the input")));
    AnimationActions* a = w.animationActions();
    a->jumpToStartAction()->trigger();
    for (int k = 0; k < 9; ++k) {
        QVERIFY2(caption->text().startsWith(QStringLiteral("Wave %1 of 9").arg(k + 1)), qPrintable(caption->text()));
        QCOMPARE(caption->text(), w.smPanel()->caption());
        a->stepForwardAction()->trigger();
    }
    QVERIFY2(caption->text().startsWith(QStringLiteral("All 65 blocks done")), qPrintable(caption->text()));
    a->stepBackAction()->trigger();
    QVERIFY2(caption->text().startsWith(QStringLiteral("Wave 9 of 9")), qPrintable(caption->text()));
    // Another device: fewer waves, and the caption says so at once.
    small.sm_count = 8;
    w.page<ImagePage>()->session()->setDevice(small);
    QCOMPARE(caption->text(), QStringLiteral("All 65 blocks done in 5 waves"));  // wave 9 of 9 is past the end now
    QCOMPARE(caption->text(), w.smPanel()->caption());

    w.page<ImagePage>()->session()->setAnimationMode(AnimationMode::Off);
    QVERIFY(!output->text().contains(QStringLiteral("not yet written")));
}

// View > Zoom to Block / Zoom to Warp frame the pinned (else hovered) unit; at fit zoom a 1-D 256
// launch's lines are merged and the legend says so.
void TestExport::zoom_to_block_and_warp_frame_them() {
    MainWindow w(display_, photo_);
    QVERIFY(open(w));
    w.overlayAction()->setChecked(true);
    w.page<ImagePage>()->session()->setShape(LaunchShape::one_d(32));  // 100 blocks of 32 pixels over 97-pixel rows
    QVERIFY(test::drain(*w.jobs()));
    test::image_page(w)->viewTransform()->setZoom(0.5);  // a row is half a device pixel: every block's line would be a moire
    test::deliver_posted_events();
    QVERIFY(test::image_page(w)->overlayState().linesMerged());
    const QStringList captions = test::image_page(w)->legend()->captions();
    QVERIFY2(captions.join(QLatin1Char('|')).contains(QStringLiteral("closer lines merged")), qPrintable(captions.join('|')));

    QAction* block = w.findChild<QAction*>(QStringLiteral("zoomToBlockAction"));
    QAction* warp = w.findChild<QAction*>(QStringLiteral("zoomToWarpAction"));
    QVERIFY(block && warp);
    QCOMPARE(block->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_2));
    // Nothing pinned or hovered: it says what to do and leaves the view.
    QVERIFY(!w.page<ImagePage>()->zoomToBlock());
    QCOMPARE(test::image_page(w)->viewTransform()->zoom(), 0.5);
    QVERIFY(w.statusText().contains(QStringLiteral("click a block")));

    test::image_page(w)->inspectPixel(QPoint(50, 10), true);  // i = 1020: block 31, pixels 992..1023 = (22..53, 10)
    block->trigger();
    const QRect rect(22, 10, 32, 1);
    const QSize view = test::image_page(w)->resultView()->widget()->size();
    const QPointF tl = test::image_page(w)->resultView()->imageToWidget(rect.topLeft()), br = test::image_page(w)->resultView()->imageToWidget(QPointF(rect.right() + 1, rect.bottom() + 1));
    QVERIFY(tl.x() >= 0 && tl.y() >= 0 && br.x() <= view.width() && br.y() <= view.height());  // all of it on screen
    QVERIFY2(br.x() - tl.x() >= 0.7 * view.width(), qPrintable(QString::number(br.x() - tl.x())));  // and large
    QVERIFY(!test::image_page(w)->overlayState().linesMerged());  // every line readable now

    warp->trigger();  // the pinned pixel's warp: all 32 threads of the block here
    QVERIFY(test::image_page(w)->resultView()->imageToWidget(QPointF(22, 10)).x() >= 0);
    w.page<ImagePage>()->session()->setShape(LaunchShape::two_d(16, 16));
    QVERIFY(test::drain(*w.jobs()));
    warp->trigger();  // 16x16: warp 5 holds rows 10 and 11 of the block
    const QPointF wtl = test::image_page(w)->resultView()->imageToWidget(QPointF(48, 10)), wbr = test::image_page(w)->resultView()->imageToWidget(QPointF(64, 12));
    QVERIFY(wtl.x() >= 0 && wbr.x() <= view.width() && wtl.y() >= 0 && wbr.y() <= view.height());
    QVERIFY2(wbr.x() - wtl.x() >= 0.7 * view.width(), qPrintable(QString::number(wbr.x() - wtl.x())));
}

QTEST_MAIN(TestExport)
#include "tst_export.moc"
