// The Matrices tab inside the main window: it shares the launch panel (in matmul mode), occupancy and
// the timeline with the image, and the block-size sweep opens for whichever kernel is shown.
#include <QtTest>

#include <QAction>
#include <QComboBox>
#include <QRadioButton>
#include <QSettings>
#include <QStandardPaths>
#include <QTabWidget>

#include "app/job_runner.h"
#include "app/kernel_resources.h"
#include "ui/views/display_path.h"
#include "ui/panels/launch_panel.h"
#include "ui/windows/main_window.h"
#include "ui/pages/matmul_page.h"
#include "ui/panels/occupancy_panel.h"
#include "ui/windows/sweep_dialog.h"
#include "ui/panels/timeline_bar.h"

using namespace cvz;

namespace {
constexpr int kTimeoutMs = 60000;
}

class TestMainWindowMatrices : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void panel_switches_to_matmul_and_back();
    void panel_drives_the_page_and_timeline();
    void sweep_follows_the_tab();
};

void TestMainWindowMatrices::initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("cudaviz"));
    QCoreApplication::setApplicationName(QStringLiteral("cudaviz-matrices-test"));
    QSettings().clear();
}

void TestMainWindowMatrices::panel_switches_to_matmul_and_back() {
    MainWindow w(choose_display_path(true));  // raster: this test is about the docks, not GL
    w.resize(1300, 800);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(!w.matricesShown());
    QCOMPARE(w.launchPanel()->kernel(), PanelKernel::Grayscale);
    w.tabs()->setCurrentWidget(w.matmulPage());
    QVERIFY(w.matricesShown());
    QCOMPARE(w.launchPanel()->kernel(), PanelKernel::Matmul);
    // Occupancy follows the matmul block: naive 16x16 by default.
    QCOMPARE(w.occupancyPanel()->occupancy().warps_per_block, 8);
    w.tabs()->setCurrentIndex(0);
    QCOMPARE(w.launchPanel()->kernel(), PanelKernel::Grayscale);
}

void TestMainWindowMatrices::panel_drives_the_page_and_timeline() {
    MainWindow w(choose_display_path(true));
    w.resize(1300, 800);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    w.tabs()->setCurrentWidget(w.matmulPage());
    MatmulPage* page = w.matmulPage();
    QTRY_VERIFY_WITH_TIMEOUT(page->matrixC() != nullptr, kTimeoutMs);

    // Choosing the tiled kernel with TILE 8 in the shared panel re-runs the page with it.
    w.launchPanel()->setMatmulLaunch(MatmulLaunch::tiled(8));
    QCOMPARE(page->launch().kernel, MatmulKernel::Tiled);
    QCOMPARE(page->launch().tile, 8u);
    QTRY_VERIFY_WITH_TIMEOUT(!w.jobs()->busy(), kTimeoutMs);
    QTRY_COMPARE_WITH_TIMEOUT(w.timeline()->steps(), page->animationSteps(), kTimeoutMs);
    QCOMPARE(w.occupancyPanel()->occupancy().warps_per_block, 2);  // 8x8 = 64 threads
    QCOMPARE(w.occupancyPanel()->occupancy().blocks_per_sm,
             compute_occupancy(w.occupancyPanel()->profile(), matmul_block_resources(MatmulLaunch::tiled(8))).blocks_per_sm);

    // The timeline steps the page's phases.
    w.timeline()->setPosition(2);
    QCOMPARE(page->animationPosition(), 2);

    // The slider moves the naive block.
    w.launchPanel()->setMatmulLaunch(MatmulLaunch::naive(32, 8));
    QCOMPARE(page->launch().kernel, MatmulKernel::Naive);
    QVERIFY(page->launch().block == (Dim3{32, 8, 1}));
    QTRY_VERIFY_WITH_TIMEOUT(!w.jobs()->busy(), kTimeoutMs);
    QCOMPARE(w.timeline()->steps(), page->animationSteps());
}

void TestMainWindowMatrices::sweep_follows_the_tab() {
    MainWindow w(choose_display_path(true));
    w.resize(1300, 800);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QTRY_VERIFY_WITH_TIMEOUT(w.completedRuns() >= 1, kTimeoutMs);
    w.openSweep();
    QVERIFY(w.sweepDialog() && w.sweepDialog()->isVisible());
    QCOMPARE(w.sweepDialog()->kernel(), SweepKernel::Grayscale);
    w.tabs()->setCurrentWidget(w.matmulPage());
    QTRY_VERIFY_WITH_TIMEOUT(w.matmulPage()->matrixA() != nullptr, kTimeoutMs);
    w.openSweep();
    QCOMPARE(w.sweepDialog()->kernel(), SweepKernel::Matmul);
    // A shape picked in the sweep becomes the grayscale launch.
    emit w.sweepDialog()->shapeChosen(LaunchShape::two_d(32, 8));
    QVERIFY(w.launchPanel()->shape().block == (Dim3{32, 8, 1}));
    emit w.sweepDialog()->matmulLaunchChosen(MatmulLaunch::tiled(32));
    QCOMPARE(w.matmulPage()->launch().tile, 32u);
}

int main(int argc, char* argv[]) {
    if (qEnvironmentVariableIsEmpty("DISPLAY") && qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY") &&
        qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    TestMainWindowMatrices test;
    return QTest::qExec(&test, argc, argv);
}
#include "tst_main_window_matrices.moc"
