// The Convolution tab inside the main window: it is created from the page registry, shares the launch
// panel (which lists the family's variants and shows the mask chooser beside them only while the tab
// is in front), runs the sample's grayscale through the chosen variant, and draws the picked block's
// output tile, its halo and the picked pixel's mask window; the inspector lists the window's reads.
#include <QtTest>

#include <QComboBox>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>

#include "support/window_waits.h"
#include "app/convolution/convolution_session.h"
#include "kernels/catalogue/kernel_catalogue.h"
#include "ui/pages/convolution/convolution_page.h"
#include "ui/pages/convolution/tile_overlay.h"
#include "ui/panels/inspector_panel.h"
#include "ui/panels/launch_panel.h"
#include "ui/views/display_path.h"
#include "ui/views/image_surface.h"
#include "ui/windows/main_window.h"

using namespace cvz;

namespace {
constexpr int kTimeoutMs = 120000;
}

class TestConvolutionPage : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void the_page_runs_the_sample_and_draws_the_tiles();
    void the_mask_chooser_follows_the_tab();
};

void TestConvolutionPage::initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("cudaviz"));
    QCoreApplication::setApplicationName(QStringLiteral("cudaviz-convolution-test"));
    QSettings().clear();
}

void TestConvolutionPage::the_page_runs_the_sample_and_draws_the_tiles() {
    MainWindow w(choose_display_path(true));
    w.resize(1300, 800);
    w.show();
    QVERIFY(cvz::test::wait_exposed(&w));
    auto* page = w.page<ConvolutionPage>();
    QVERIFY(page);
    ConvolutionSession* session = page->session();
    session->setBackend(BackendChoice::Cpu);
    w.tabs()->setCurrentWidget(page);
    QCOMPARE(w.currentPage(), static_cast<KernelPage*>(page));
    // The launch panel lists the family's variants.
    LaunchPanel* panel = w.launchPanel();
    QCOMPARE(panel->kernelBox()->count(), int(family_catalogue(session->launch().ref().family).size()));
    QTRY_VERIFY_WITH_TIMEOUT(session->completedRuns() >= 1 && !session->running(), kTimeoutMs);
    QCOMPARE(page->outputView()->image().size(), session->imageSize());

    // The tiled variant stages the halo in shared memory: the overlay says so with a solid outline.
    QVERIFY(panel->chooseKernel(QStringLiteral("conv_tiled")));
    QTRY_COMPARE_WITH_TIMEOUT(session->launch().kernel, ConvolutionVariant::Tiled, kTimeoutMs);
    session->setLaunch(ConvolutionLaunch::of(ConvolutionVariant::Tiled, Dim3{16, 8, 1}));
    QVERIFY(session->setNamedMask(QStringLiteral("gauss5")));  // radius 2
    // A corner pixel: its window reaches outside the image.
    page->inspectPixel(QPoint(1, 0), true);
    const TileOverlay::State& tiles = page->tileOverlay(1)->state();
    QCOMPARE(tiles.output_tile, QRect(0, 0, 16, 8));
    QCOMPARE(tiles.input_tile, QRect(-2, -2, 20, 12));
    QCOMPARE(tiles.window, QRect(-1, -2, 5, 5));
    QVERIFY(tiles.halo_in_shared);
    QTRY_VERIFY_WITH_TIMEOUT(session->completedRuns() >= 2 && !session->running(), kTimeoutMs);
    const QString text = page->inspection(QPoint(1, 0));
    QVERIFY2(text.contains(QStringLiteral("thread (1, 0) of block (0, 0)")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("13 outside the image read as 0")), qPrintable(text));  // 2 rows of 5, and column -1 of the 3 rows inside
    QVERIFY2(!text.contains(QStringLiteral("differs")), qPrintable(text));  // the inspector's sum is the kernel's
    QCOMPARE(w.inspector()->plainText().trimmed(), text.trimmed());
    // CONVOLUTION_GRAB_DIR=DIR keeps a grab of the window with the tiles drawn, to look at.
    if (const QString dir = qEnvironmentVariable("CONVOLUTION_GRAB_DIR"); !dir.isEmpty()) {
        page->inspectPixel(QPoint(40, 20), true);
        page->zoomToActualSize();
        w.grab().save(dir + QStringLiteral("/convolution_tiles.png"));
        page->inspectPixel(QPoint(1, 0), true);
    }

    // The naive variant reads its halo from global memory: dashed, not staged.
    session->setLaunch(ConvolutionLaunch::of(ConvolutionVariant::Naive, Dim3{16, 8, 1}));
    QVERIFY(!page->tileOverlay(1)->state().halo_in_shared);
    QCOMPARE(page->tileOverlay(1)->state().input_tile, QRect(-2, -2, 20, 12));
}

void TestConvolutionPage::the_mask_chooser_follows_the_tab() {
    MainWindow w(choose_display_path(true));
    w.resize(1300, 800);
    w.show();
    QVERIFY(cvz::test::wait_exposed(&w));
    auto* page = w.page<ConvolutionPage>();
    QVERIFY(page);
    page->session()->setBackend(BackendChoice::Cpu);
    QComboBox* masks = page->maskBox();
    QVERIFY(!masks->isVisibleTo(&w));  // the image page is in front
    w.tabs()->setCurrentWidget(page);
    QTRY_VERIFY(masks->isVisibleTo(&w));
    QVERIFY(w.launchPanel()->isAncestorOf(masks));
    QSignalSpy changed(page->session(), &ConvolutionSession::maskChanged);
    const int sobel = masks->findText(QStringLiteral("sobel_x"));
    QVERIFY(sobel >= 0);
    masks->setCurrentIndex(sobel);
    emit masks->activated(sobel);
    QCOMPARE(changed.count(), 1);
    QCOMPARE(page->session()->maskName(), QStringLiteral("sobel_x"));
    QCOMPARE(page->session()->mask().side, 3u);
    w.tabs()->setCurrentIndex(0);
    QTRY_VERIFY(!masks->isVisibleTo(&w));
}

QTEST_MAIN(TestConvolutionPage)
#include "tst_convolution_page.moc"
