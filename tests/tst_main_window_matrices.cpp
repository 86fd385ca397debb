// The Matrices tab inside the main window: it shares the launch panel (in matmul mode), occupancy and
// the timeline with the image, and the block-size sweep opens for whichever kernel is shown.
#include <QtTest>

#include <QCheckBox>

#include <QAction>
#include <QComboBox>
#include <QRadioButton>
#include <QSettings>
#include <QStandardPaths>
#include <QTabWidget>

#include <QDockWidget>
#include <QLabel>

#include "support/window_waits.h"
#include "app/matmul/matmul_resources.h"
#include "app/grayscale/grayscale_problem.h"
#include "app/grayscale/grayscale_session.h"
#include "app/jobs/job_runner.h"
#include "app/models/kernel_resources.h"
#include "ui/views/display_path.h"
#include "ui/pages/grayscale/image_page.h"
#include "ui/panels/inspector_panel.h"
#include "app/matmul/matmul_choice.h"
#include "ui/panels/launch_panel.h"
#include "ui/windows/main_window.h"
#include "app/matmul/matmul_app_problem.h"
#include "app/matmul/matmul_session.h"
#include "ui/pages/matmul/matmul_page.h"
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
    void docks_follow_the_page();
    void sweep_from_matrices_uses_matrices_and_profile();
    void launch_stats_say_mismatch();
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
    QVERIFY(cvz::test::wait_exposed(&w));
    QCOMPARE(w.currentPage(), static_cast<KernelPage*>(w.page<ImagePage>()));
    QCOMPARE(w.launchPanel()->family(), KernelFamily::Grayscale);
    // Each page lends the panel its own launch controls while it is in front, and takes them back.
    const auto lent = [&](const char* name) { return w.launchPanel()->findChild<QWidget*>(QLatin1String(name)) != nullptr; };
    QVERIFY(lent("layoutBox") && !lent("barrierBox"));
    w.tabs()->setCurrentWidget(w.page<MatmulPage>());
    QCOMPARE(w.currentPage(), static_cast<KernelPage*>(w.page<MatmulPage>()));
    QCOMPARE(w.launchPanel()->family(), KernelFamily::Matmul);
    QVERIFY(!lent("layoutBox") && lent("barrierBox"));
    QVERIFY(w.page<ImagePage>()->isAncestorOf(w.findChild<QWidget*>(QStringLiteral("layoutBox"))));
    // Occupancy follows the matmul block: naive 16x16 by default.
    QCOMPARE(w.occupancyPanel()->occupancy().warps_per_block, 8);
    w.tabs()->setCurrentIndex(0);
    QCOMPARE(w.launchPanel()->family(), KernelFamily::Grayscale);
    QVERIFY(lent("layoutBox") && !lent("barrierBox"));
}

void TestMainWindowMatrices::panel_drives_the_page_and_timeline() {
    MainWindow w(choose_display_path(true));
    w.resize(1300, 800);
    w.show();
    QVERIFY(cvz::test::wait_exposed(&w));
    w.tabs()->setCurrentWidget(w.page<MatmulPage>());
    MatmulPage* page = w.page<MatmulPage>();
    QTRY_VERIFY_WITH_TIMEOUT(page->matrixC() != nullptr, kTimeoutMs);

    // Choosing the tiled kernel with TILE 8 in the shared panel re-runs the page with it.
    w.launchPanel()->setChoice(matmul_choice(MatmulLaunch::tiled(8)));
    QCOMPARE(page->launch().kernel, MatmulVariant::Tiled);
    QCOMPARE(page->launch().tile, 8u);
    QTRY_VERIFY_WITH_TIMEOUT(!w.jobs()->busy(), kTimeoutMs);
    QTRY_COMPARE_WITH_TIMEOUT(w.timeline()->steps(), page->animationSteps(), kTimeoutMs);
    QCOMPARE(w.occupancyPanel()->occupancy().warps_per_block, 2);  // 8x8 = 64 threads
    QCOMPARE(w.occupancyPanel()->occupancy().blocks_per_sm,
             compute_occupancy(w.occupancyPanel()->profile(), matmul_block_resources(MatmulLaunch::tiled(8))).blocks_per_sm);

    // The timeline steps the page's phases.
    w.timeline()->setPosition(2);
    QCOMPARE(page->animationPosition(), 2);

    // The page's barrier lesson, in the panel: the tiled kernel without its second barrier; another
    // variant starts with both barriers (and the box is off and disabled for the naive kernel).
    auto* barrier = w.launchPanel()->findChild<QCheckBox*>(QStringLiteral("barrierBox"));
    QVERIFY(barrier && barrier->isEnabled() && !barrier->isChecked());
    barrier->setChecked(true);
    QVERIFY(!page->launch().second_barrier);
    QCOMPARE(page->launch().tile, 8u);
    QTRY_VERIFY_WITH_TIMEOUT(!w.jobs()->busy(), kTimeoutMs);

    // The slider moves the naive block.
    w.launchPanel()->setChoice(matmul_choice(MatmulLaunch::naive(32, 8)));
    QCOMPARE(page->launch().kernel, MatmulVariant::Naive);
    QVERIFY(page->launch().block == (Dim3{32, 8, 1}));
    QVERIFY(page->launch().second_barrier);
    QTRY_VERIFY_WITH_TIMEOUT(!barrier->isEnabled() && !barrier->isChecked(), kTimeoutMs);
    QTRY_VERIFY_WITH_TIMEOUT(!w.jobs()->busy(), kTimeoutMs);
    QCOMPARE(w.timeline()->steps(), page->animationSteps());
}

void TestMainWindowMatrices::sweep_follows_the_tab() {
    MainWindow w(choose_display_path(true));
    w.resize(1300, 800);
    w.show();
    QVERIFY(cvz::test::wait_exposed(&w));
    QTRY_VERIFY_WITH_TIMEOUT(w.page<ImagePage>()->session()->completedRuns() >= 1, kTimeoutMs);
    w.openSweep();
    QVERIFY(w.sweepDialog() && w.sweepDialog()->isVisible());
    QCOMPARE(w.sweepDialog()->family(), KernelFamily::Grayscale);
    w.tabs()->setCurrentWidget(w.page<MatmulPage>());
    QTRY_VERIFY_WITH_TIMEOUT(w.page<MatmulPage>()->matrixA() != nullptr, kTimeoutMs);
    w.openSweep();
    QCOMPARE(w.sweepDialog()->family(), KernelFamily::Matmul);
    // A shape picked in the sweep becomes the grayscale launch.
    emit w.sweepDialog()->launchChosen(grayscale_choice(LaunchShape::two_d(32, 8)));
    QVERIFY(w.page<ImagePage>()->session()->shape().block == (Dim3{32, 8, 1}));
    emit w.sweepDialog()->launchChosen(matmul_choice(MatmulLaunch::tiled(32)));
    QCOMPARE(w.page<MatmulPage>()->launch().tile, 32u);
}

// The docks speak for the page in front: on the Matrices tab the inspector shows the matmul thread,
// the status bar's document label names the matrices (not the photo and its zoom), and the Grid
// Overlay dock, which only the image has, goes away and comes back with the image tab.
void TestMainWindowMatrices::docks_follow_the_page() {
    MainWindow w(choose_display_path(true));
    w.resize(1300, 800);
    w.show();
    QVERIFY(cvz::test::wait_exposed(&w));
    QTRY_VERIFY_WITH_TIMEOUT(w.page<ImagePage>()->session()->completedRuns() >= 1, kTimeoutMs);
    QDockWidget* overlay = w.dock(PageDocks::Overlay);
    QVERIFY(overlay && overlay->isVisible());
    const QString image_label = w.documentText();
    QVERIFY2(image_label.contains(QStringLiteral("chelsea.png")) && image_label.contains(QStringLiteral("Zoom")),
             qPrintable(image_label));

    w.tabs()->setCurrentWidget(w.page<MatmulPage>());
    MatmulPage* page = w.page<MatmulPage>();
    QTRY_VERIFY_WITH_TIMEOUT(page->matrixC() != nullptr, kTimeoutMs);
    QVERIFY(!overlay->isVisible());
    QVERIFY(!overlay->toggleViewAction()->isEnabled());
    QCOMPARE(w.documentText(), page->documentText());
    QVERIFY2(!w.documentText().contains(QStringLiteral("chelsea")) && !w.documentText().contains(QStringLiteral("Zoom")),
             qPrintable(w.documentText()));
    QVERIFY2(w.documentText().contains(QStringLiteral("45 × 60")), qPrintable(w.documentText()));
    // The inspector shows the page's selection, not an image pixel.
    page->selectElement(20, 18);
    const QString text = w.inspector()->plainText();
    QVERIFY2(text.contains(QStringLiteral("C[20, 18]")), qPrintable(text));
    QVERIFY2(!text.contains(QStringLiteral("Pixel")), qPrintable(text));
    QCOMPARE(text.trimmed(), page->inspectorText().trimmed());
    // The status line is the matrices' run, as the page reported it.
    QCOMPARE(w.statusText(), page->statusText());
    // The SMs show the matmul grid's blocks on the chosen profile.
    QCOMPARE(page->session()->waves().blocks, std::uint64_t(page->session()->model().grid().x) * page->session()->model().grid().y);

    w.tabs()->setCurrentWidget(w.page<ImagePage>());
    QVERIFY(overlay->isVisible());
    QVERIFY(overlay->toggleViewAction()->isEnabled());
    QVERIFY(w.documentText().contains(QStringLiteral("chelsea.png")));
    QCOMPARE(w.statusText(), w.page<ImagePage>()->statusText());
}

// From the Matrices tab the sweep times matmul on the page's matrices, with the device profile
// chosen in the main window's occupancy panel (T4 here), and still knows the loaded image.
void TestMainWindowMatrices::sweep_from_matrices_uses_matrices_and_profile() {
    MainWindow w(choose_display_path(true));
    w.resize(1300, 800);
    w.show();
    QVERIFY(cvz::test::wait_exposed(&w));
    QTRY_VERIFY_WITH_TIMEOUT(w.page<ImagePage>()->session()->completedRuns() >= 1, kTimeoutMs);
    QComboBox* devices = w.occupancyPanel()->deviceBox();
    int t4 = -1;
    for (int i = 0; i < devices->count(); ++i)
        if (devices->itemText(i).startsWith(QStringLiteral("T4"))) t4 = i;
    QVERIFY(t4 >= 0);
    devices->setCurrentIndex(t4);
    QVERIFY(w.occupancyPanel()->profile().name.startsWith(QStringLiteral("T4")));
    // Every page models the chosen device.
    QCOMPARE(w.page<ImagePage>()->session()->device().sm_count, 40);
    QCOMPARE(w.page<MatmulPage>()->session()->device().sm_count, 40);

    w.tabs()->setCurrentWidget(w.page<MatmulPage>());
    QTRY_VERIFY_WITH_TIMEOUT(w.page<MatmulPage>()->matrixA() != nullptr, kTimeoutMs);
    w.openSweep();
    SweepDialog* sweep = w.sweepDialog();
    QCOMPARE(sweep->family(), KernelFamily::Matmul);
    QVERIFY2(sweep->profile().name.startsWith(QStringLiteral("T4")), qPrintable(sweep->profile().name));
    const QString matmul_item = sweep->kernelBox()->itemText(1);
    QVERIFY2(matmul_item.contains(QStringLiteral("A 45×60 @ B 60×38")), qPrintable(matmul_item));
    const QString grayscale_item = sweep->kernelBox()->itemText(0);
    QVERIFY2(!grayscale_item.contains(QStringLiteral("no image")), qPrintable(grayscale_item));
}

int main(int argc, char* argv[]) {
    if (qEnvironmentVariableIsEmpty("DISPLAY") && qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY") &&
        qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    TestMainWindowMatrices test;
    return QTest::qExec(&test, argc, argv);
}
// During a shape mismatch the Launch panel shows why, not the last good problem's output size.
void TestMainWindowMatrices::launch_stats_say_mismatch() {
    MainWindow w(choose_display_path(true));
    w.resize(1300, 800);
    w.show();
    QVERIFY(cvz::test::wait_exposed(&w));
    w.tabs()->setCurrentWidget(w.page<MatmulPage>());
    MatmulPage* page = w.page<MatmulPage>();
    QSignalSpy changed(page->session(), &MatmulSession::operandsChanged);
    page->generate(45, 38, 38, 52, 1);
    QVERIFY(changed.wait(kTimeoutMs) || !changed.isEmpty());
    QTRY_VERIFY_WITH_TIMEOUT(!w.jobs()->busy(), kTimeoutMs);
    auto panel_text = [&] {
        QStringList texts;
        for (QLabel* label : w.launchPanel()->findChildren<QLabel*>()) texts << label->text();
        return texts.join(QLatin1Char('\n'));
    };
    QVERIFY2(panel_text().contains(QStringLiteral("45 × 52")), qPrintable(panel_text()));
    changed.clear();
    page->generate(45, 38, 37, 52, 1);  // A's 38 columns, B's 37 rows
    QVERIFY(changed.wait(kTimeoutMs) || !changed.isEmpty());
    QVERIFY2(!panel_text().contains(QStringLiteral("45 × 52")), qPrintable(panel_text()));
    QVERIFY2(panel_text().contains(QStringLiteral("37")), qPrintable(panel_text()));
}

#include "tst_main_window_matrices.moc"
