// The launch panel (block-shape sliders, presets, the plan's numbers) on its own and wired into the
// main window: one source of truth with the toolbar's box, the overlay redrawn from the new shape at
// once (before the kernel has run again), runs superseded during a drag, occupancy following the
// block. Under Xvfb with Mesa.
#include <QtTest>

#include <QAction>
#include <QComboBox>
#include <QLineEdit>
#include <QLocale>
#include <QCheckBox>
#include <QLabel>
#include <QTabWidget>
#include <QSettings>
#include <QSlider>
#include <QStandardItemModel>
#include <QPointer>
#include <QStandardPaths>
#include <QTemporaryDir>

#include <atomic>
#include <cmath>
#include <cstring>
#include <future>

#include "support/window_waits.h"
#include "app/grayscale/grayscale_resources.h"
#include "app/grayscale/grayscale_prediction.h"
#include "app/matmul/matmul_prediction.h"
#include "app/jobs/job_runner.h"
#include "app/tuning/prediction_session.h"
#include "app/matmul/matmul_session.h"
#include "kernels/catalogue/kernel_catalogue.h"
#include "kernels/grayscale/grayscale_reference.h"
#include "kernels/matmul/matmul_reference.h"
#include "kernels/matmul/matmul_variants.h"
#include "ui/pages/matmul/matmul_page.h"
#include "app/models/kernel_resources.h"
#include "app/models/launch_plan.h"
#include "ui/views/block_colors.h"
#include "ui/views/display_path.h"
#include "ui/views/image_surface.h"
#include "app/grayscale/grayscale_choice.h"
#include "app/matmul/matmul_choice.h"
#include "ui/panels/launch_panel.h"
#include "ui/panels/launch_plan_html.h"
#include "app/grayscale/grayscale_session.h"
#include "ui/panels/launch_shape_box.h"
#include "ui/pages/grayscale/image_page.h"
#include "ui/windows/main_window.h"
#include "ui/panels/occupancy_panel.h"
#include "ui/panels/overlay_panel.h"
#include "ui/views/view_transform.h"

#include "support/event_waits.h"
#include "support/main_window_fixtures.h"
#include "support/test_images.h"

using namespace cvz;
using cvz::test::make_test_image;

Q_DECLARE_METATYPE(cvz::LaunchShape)

namespace {

constexpr int kRunTimeoutMs = 120000;  // only for a hang: a loaded machine is slow

bool same(const LaunchShape& a, const LaunchShape& b) { return a.kind == b.kind && a.block == b.block; }

// The panel edits exactly this grayscale launch (its variant, TILE and block as chosen).
bool shows(const LaunchPanel& panel, const LaunchShape& shape) { return panel.choice() == grayscale_choice(shape); }

bool near(QRgb got, const QColor& want, int tolerance) {
    return std::abs(qRed(got) - want.red()) <= tolerance && std::abs(qGreen(got) - want.green()) <= tolerance &&
           std::abs(qBlue(got) - want.blue()) <= tolerance;
}

QRgb centre(ImageSurface* view, const QImage& shot, int x, int y) {
    const QPointF w = view->imageToWidget(QPointF(x + 0.5, y + 0.5)) * view->widget()->devicePixelRatioF();
    return shot.pixel(int(std::floor(w.x())), int(std::floor(w.y())));
}

}  // namespace

class TestLaunchPanel : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void init();

    void conversions_keep_the_launch();
    void sliders_change_the_shape();
    void block_stays_within_1024_threads();
    void squeezed_dimension_comes_back_and_says_why();
    void mode_switch_keeps_thread_count();
    void chooser_lists_the_catalogue_data();
    void chooser_lists_the_catalogue();
    void every_grayscale_variant_reaches_the_session();
    void every_matmul_variant_reaches_the_session();
    void presets_apply();
    void plan_numbers_shown_data();
    void plan_numbers_shown();
    void slider_moves_overlay_and_stats();
    void overlay_covers_items_per_thread();
    void toolbar_and_panel_stay_in_step();
    void drag_supersedes_queued_runs();
    void occupancy_follows_block();
    void times_are_kept_per_family();
    void extra_controls_are_lent_not_given();
    void moving_a_slider_updates_the_prediction();

private:
    bool show_and_wait(MainWindow& w) { return test::show_and_wait(w, {1400, 800}, kRunTimeoutMs); }
    QTemporaryDir dir_;
    QString png_;
    QImage image_;
    DisplayPathChoice gl_;
};

void TestLaunchPanel::initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("cudaviz"));
    QCoreApplication::setApplicationName(QStringLiteral("cudaviz-launch-panel-test"));  // its own settings: ctest -j runs GUI tests at once
    QVERIFY(dir_.isValid());
    image_ = make_test_image(97, 33);
    png_ = dir_.filePath(QStringLiteral("test.png"));
    QVERIFY(image_.save(png_));
    gl_ = choose_display_path(false);
}

void TestLaunchPanel::init() { QSettings().clear(); }

// The pages' conversions between their session's launch and the panel's choice lose nothing: every
// variant, its TILEs and odd blocks come back as they went; the barrier lesson is the page's and stays
// with the variant that has it.
void TestLaunchPanel::conversions_keep_the_launch() {
    for (const KernelInfo& k : family_catalogue(KernelFamily::Grayscale)) {
        for (const Dim3 block : {Dim3{1, 1, 1}, Dim3{97, 1, 1}, Dim3{256, 1, 1}, Dim3{13, 7, 1}, Dim3{1, 31, 1}}) {
            if (k.block == BlockRule::OneD && block.y != 1) continue;
            const LaunchShape shape = LaunchShape::of(GrayscaleVariant(k.variant), block);
            const LaunchChoice c = grayscale_choice(shape);
            QCOMPARE(c.ref.family, KernelFamily::Grayscale);
            QCOMPARE(c.ref.variant, k.variant);
            QVERIFY(c.info() == &k);
            QVERIFY2(same(grayscale_shape(c), shape), qPrintable(QString::fromStdString(k.name + " " + to_string(block))));
        }
    }
    const auto same_launch = [](const MatmulLaunch& a, const MatmulLaunch& b) {
        return a.kernel == b.kernel && a.block == b.block && a.tile == b.tile && a.second_barrier == b.second_barrier;
    };
    for (const KernelInfo& k : family_catalogue(KernelFamily::Matmul)) {
        std::vector<unsigned> tiles = k.tiles;
        if (tiles.empty()) tiles = {16};
        for (unsigned tile : tiles)
            for (const Dim3 block : {Dim3{16, 16, 1}, Dim3{7, 13, 1}, Dim3{tile, tile, 1}, k.fixed_block}) {
                for (const bool barrier : {true, false}) {
                    if (!barrier && !k.barriers) continue;
                    MatmulLaunch l = MatmulLaunch::of(MatmulVariant(k.variant), block, tile);
                    l.second_barrier = barrier;
                    const LaunchChoice c = matmul_choice(l);
                    QVERIFY(c.ref == l.ref());
                    QCOMPARE(launched_block(c), l.block_shape());
                    QVERIFY2(same_launch(matmul_launch(c, l), l), qPrintable(QString::fromStdString(to_string(l))));
                }
            }
    }
    // Another variant starts with both barriers, and keeps the TILE for a later TILE variant.
    MatmulLaunch racy = MatmulLaunch::tiled(8);
    racy.second_barrier = false;
    const MatmulLaunch naive = matmul_launch(matmul_choice(MatmulLaunch::naive(32, 8)), racy);
    QCOMPARE(naive.kernel, MatmulVariant::Naive);
    QVERIFY(naive.second_barrier);
    QCOMPARE(naive.tile, 8u);
    QVERIFY(naive.block == (Dim3{32, 8, 1}));
}

void TestLaunchPanel::sliders_change_the_shape() {
    LaunchPanel panel;
    panel.setChoice(grayscale_choice(LaunchShape::one_d(256)));
    QSignalSpy changed(&panel, &LaunchPanel::choiceChanged);
    panel.threadsSlider()->setValue(300);
    QCOMPARE(changed.count(), 1);
    QVERIFY(shows(panel, LaunchShape::one_d(300)));
    QVERIFY(changed.last().at(0).value<LaunchChoice>() == panel.choice());
    // The keyboard moves the slider one thread at a time.
    panel.threadsSlider()->setFocus();
    QTest::keyClick(panel.threadsSlider(), Qt::Key_Right);
    QVERIFY(shows(panel, LaunchShape::one_d(301)));
    // Setting the shape from outside emits only on a real change.
    panel.setChoice(grayscale_choice(LaunchShape::one_d(301)));
    QCOMPARE(changed.count(), 2);
}

void TestLaunchPanel::block_stays_within_1024_threads() {
    LaunchPanel panel;
    panel.setChoice(grayscale_choice(LaunchShape::two_d(32, 32)));
    panel.xSlider()->setValue(64);  // x wins, y gives way: 64 x 16
    QVERIFY(shows(panel, LaunchShape::two_d(64, 16)));
    panel.ySlider()->setValue(512);  // y wins: 2 x 512
    QVERIFY(shows(panel, LaunchShape::two_d(2, 512)));
    QVERIFY(panel.choice().block.volume() <= 1024);
    QTRY_COMPARE_WITH_TIMEOUT(panel.xSlider()->value(), 2, 120000);  // the controls show what was committed, a turn later
}

// Issue 14 item 6: x dragged to 366 lowers y from 16 to 2 (366 x 2 <= 1024), visibly, and y comes
// back to 16 when x does; in the matmul family as in grayscale.
void TestLaunchPanel::squeezed_dimension_comes_back_and_says_why() {
    LaunchPanel panel;
    panel.resize(400, 500);
    panel.show();
    QVERIFY(cvz::test::wait_exposed(&panel));
    panel.setChoice(grayscale_choice(LaunchShape::two_d(16, 16)));
    panel.syncNow();
    QVERIFY(panel.limitNote()->isHidden());
    for (int x : {100, 200, 366}) panel.xSlider()->setValue(x);  // a drag
    QVERIFY(shows(panel, LaunchShape::two_d(366, 2)));
    panel.syncNow();
    QTRY_VERIFY_WITH_TIMEOUT(panel.limitNote()->isVisible(), 120000);
    const QString note = panel.limitNote()->text();
    QVERIFY2(note.contains(QStringLiteral("blockDim.y is 2, not the 16 you set")) && note.contains(QStringLiteral("1024")),
             qPrintable(note));
    for (int x : {200, 64, 16}) panel.xSlider()->setValue(x);
    QVERIFY(shows(panel, LaunchShape::two_d(16, 16)));  // what the user set
    panel.syncNow();
    QVERIFY(panel.limitNote()->isHidden());
    // A shape set from outside is the user's from then on: nothing to restore.
    panel.setChoice(grayscale_choice(LaunchShape::two_d(512, 2)));
    panel.xSlider()->setValue(8);
    QVERIFY(shows(panel, LaunchShape::two_d(8, 2)));

    panel.setFamily(KernelFamily::Matmul);
    panel.setChoice(matmul_choice(MatmulLaunch::naive(16, 16)));
    panel.syncNow();
    panel.ySlider()->setValue(300);
    QCOMPARE(panel.choice().block, (Dim3{3, 300, 1}));
    panel.syncNow();
    QVERIFY2(panel.limitNote()->text().contains(QStringLiteral("blockDim.x is 3, not the 16 you set")),
             qPrintable(panel.limitNote()->text()));
    panel.ySlider()->setValue(16);
    QCOMPARE(panel.choice().block, (Dim3{16, 16, 1}));
}

// Choosing the 1-D variant in the Kernel chooser keeps the thread count: 32x8 -> 256.
void TestLaunchPanel::mode_switch_keeps_thread_count() {
    LaunchPanel panel;
    panel.setChoice(grayscale_choice(LaunchShape::two_d(32, 8)));
    panel.syncNow();  // as after a turn of the event loop: the chooser shows gray_2d
    QCOMPARE(panel.kernelBox()->currentText(), QStringLiteral("gray_2d"));
    const int i = panel.kernelBox()->findText(QStringLiteral("gray_1d"));
    QVERIFY(i >= 0);
    panel.kernelBox()->setCurrentIndex(i);
    emit panel.kernelBox()->activated(i);
    QVERIFY(shows(panel, LaunchShape::one_d(256)));
    // And back: a 1-D block becomes the lecture's 16x16.
    QVERIFY(panel.chooseKernel(QStringLiteral("gray_2d")));
    QVERIFY(shows(panel, LaunchShape::two_d(16, 16)));
    QVERIFY(!panel.chooseKernel(QStringLiteral("matmul_naive")));  // not of this family
}

// One row per family of the catalogue, whichever families it has: a family added later (with its
// page) is checked here without this test knowing it.
void TestLaunchPanel::chooser_lists_the_catalogue_data() {
    QTest::addColumn<int>("family");
    QList<int> seen;
    for (const KernelInfo& k : kernel_catalogue())
        if (!seen.contains(int(k.family))) {
            seen << int(k.family);
            QTest::newRow(to_string(k.family)) << int(k.family);
        }
    QVERIFY(seen.size() >= 2);
}

// The chooser lists every variant of the family, from the catalogue (name, title as tooltip), and
// the block editor follows each one's launch rule; the presets and the text field go to a variant of
// the family that takes their block, and are disabled where none does. The panel knows no family.
void TestLaunchPanel::chooser_lists_the_catalogue() {
    QFETCH(int, family);
    const KernelFamily f = KernelFamily(family);
    LaunchPanel panel;
    panel.setFamily(f);
    QCOMPARE(panel.family(), f);
    QCOMPARE(panel.choice().ref.family, f);
    panel.show();
    QVERIFY(cvz::test::wait_exposed(&panel));
    QSignalSpy changed(&panel, &LaunchPanel::choiceChanged);
    const std::vector<KernelInfo>& kernels = family_catalogue(f);
    QVERIFY(!kernels.empty());
    QCOMPARE(panel.kernelBox()->count(), int(kernels.size()));
    for (std::size_t i = 0; i < kernels.size(); ++i) {
        const KernelInfo& k = kernels[i];
        const QString name = QString::fromStdString(k.name);
        QCOMPARE(panel.kernelBox()->itemText(int(i)), name);
        QCOMPARE(panel.kernelBox()->itemData(int(i), Qt::ToolTipRole).toString(), QString::fromStdString(k.title));
        const LaunchChoice before = panel.choice();
        QVERIFY(panel.chooseKernel(name));
        panel.syncNow();
        QCOMPARE(panel.kernelBox()->currentText(), name);
        QVERIFY(panel.variantInfo() == &k);
        // The choice names the variant (with one of its TILEs when it takes one), and was emitted.
        const LaunchChoice c = panel.choice();
        QCOMPARE(c.ref.family, f);
        QCOMPARE(c.ref.variant, k.variant);
        QVERIFY(k.tiles.empty() ? c.ref.tile == 0 : std::find(k.tiles.begin(), k.tiles.end(), c.ref.tile) != k.tiles.end());
        if (c != before) QVERIFY(!changed.isEmpty() && changed.last().at(0).value<LaunchChoice>() == c);
        const Dim3 b = launched_block(c);
        QCOMPARE(panel.shapeBox()->block(), b);  // the text field shows the block launched
        switch (k.block) {
        case BlockRule::OneD:
            QVERIFY(panel.blockEditable());
            QVERIFY(panel.threadsSlider()->isVisible() && panel.threadsSlider()->isEnabled());
            QCOMPARE(b.y, 1u);
            break;
        case BlockRule::TwoD:
            QVERIFY(panel.blockEditable());
            QVERIFY(panel.xSlider()->isVisible() && panel.xSlider()->isEnabled() && panel.ySlider()->isEnabled());
            break;
        case BlockRule::Tile: {
            QVERIFY(!panel.blockEditable());
            QVERIFY(panel.tileBox()->isVisible());
            QCOMPARE(panel.tileBox()->count(), int(k.tiles.size()));
            for (std::size_t t = 0; t < k.tiles.size(); ++t) QCOMPARE(panel.tileBox()->itemData(int(t)).toUInt(), k.tiles[t]);
            QVERIFY(!panel.xSlider()->isEnabled());
            // Another TILE from the chooser is the launch's block.
            const int last = panel.tileBox()->count() - 1;
            panel.tileBox()->setCurrentIndex(last);
            emit panel.tileBox()->activated(last);
            const unsigned t = k.tiles.back();
            QVERIFY(launched_block(panel.choice()) == (Dim3{t, t, 1}));
            QCOMPARE(panel.choice().ref.tile, t);
            break;
        }
        case BlockRule::Fixed:
            QVERIFY(!panel.blockEditable());
            QVERIFY(b == k.fixed_block);
            QVERIFY(!panel.xSlider()->isEnabled() && !panel.ySlider()->isEnabled());
            QVERIFY(panel.blockNote()->isVisible());
            QVERIFY2(panel.blockNote()->text().contains(QStringLiteral("fixed")), qPrintable(panel.blockNote()->text()));
            break;
        }
        if (k.block != BlockRule::Tile && k.block != BlockRule::Fixed) QVERIFY(!panel.blockNote()->isVisible());
        // A 1-D variant keeps the thread count of a 1-D block it comes from; a 2-D one a 2-D block.
        if (k.block == BlockRule::OneD && launched_block(before).y == 1 && before.info() && before.info()->block == BlockRule::OneD)
            QCOMPARE(b.x, launched_block(before).x);
        if (k.block == BlockRule::TwoD && before.info() && before.info()->block == BlockRule::TwoD && launched_block(before).y > 1)
            QCOMPARE(b, launched_block(before));
    }

    // The presets: enabled when a variant of the family takes their block, and then applied to the
    // variant in use if it takes it, else to the family's first that does.
    const auto first_of = [&](BlockRule rule) -> const KernelInfo* {
        for (const KernelInfo& k : kernels)
            if (k.block == rule) return &k;
        return nullptr;
    };
    auto* presets = qobject_cast<QStandardItemModel*>(panel.presets()->model());
    QVERIFY(presets);
    int applied = 0;
    for (int i = 1; i < panel.presets()->count(); ++i) {
        const QString label = panel.presets()->itemText(i);
        const bool one_d = label.startsWith(QStringLiteral("1-D"));
        QVERIFY2(one_d || label.startsWith(QStringLiteral("2-D")), qPrintable(label));
        const KernelInfo* target = first_of(one_d ? BlockRule::OneD : BlockRule::TwoD);
        QCOMPARE(presets->item(i)->isEnabled(), target != nullptr);
        if (!target) continue;
        const KernelInfo* now = panel.variantInfo();
        if (now && now->block == target->block) target = now;
        emit panel.presets()->activated(i);
        QCOMPARE(panel.presets()->currentIndex(), 0);
        QCOMPARE(panel.variantInfo(), target);
        const Dim3 b = panel.choice().block;
        const QString text = one_d ? QString::number(b.x) : QStringLiteral("%1×%2").arg(b.x).arg(b.y);
        QVERIFY2(label.contains(text), qPrintable(label + QStringLiteral(" gave ") + text));
        ++applied;
    }
    QVERIFY(applied > 0);
    // The text field likewise: "N" to a 1-D variant, "XxY" to a 2-D one, refused (and the launch
    // kept) when the family has none.
    for (const bool one_d : {true, false}) {
        const KernelInfo* target = first_of(one_d ? BlockRule::OneD : BlockRule::TwoD);
        // As for the presets: the variant in use keeps the block when it has the rule.
        if (const KernelInfo* now = panel.variantInfo(); target && now && now->block == target->block) target = now;
        const LaunchChoice before = panel.choice();
        QSignalSpy refused(&panel, &LaunchPanel::invalidShape);
        const Dim3 want = one_d ? Dim3{96, 1, 1} : Dim3{24, 8, 1};
        panel.shapeBox()->setShapeText(one_d ? QStringLiteral("96") : QStringLiteral("24x8"));
        if (target) {
            QCOMPARE(panel.choice().ref.variant, target->variant);
            QCOMPARE(panel.choice().block, want);
            QVERIFY(refused.isEmpty());
        } else {
            QVERIFY(panel.choice() == before);
            QCOMPARE(refused.count(), 1);
            QCOMPARE(panel.shapeBox()->block(), launched_block(before));
        }
    }
}

// Each grayscale variant, chosen in the Launch dock, is what the session runs: its result comes from
// that variant and equals the CPU reference byte for byte.
void TestLaunchPanel::every_grayscale_variant_reaches_the_session() {
    MainWindow w(gl_, png_);
    QVERIFY(show_and_wait(w));
    GrayscaleSession* session = w.page<ImagePage>()->session();
    const QImage rgb = session->image().convertToFormat(QImage::Format_RGB888);
    const std::uint32_t width = std::uint32_t(rgb.width()), height = std::uint32_t(rgb.height());
    std::vector<std::uint8_t> packed(std::size_t(width) * height * 3), want(std::size_t(width) * height);
    for (std::uint32_t y = 0; y < height; ++y) std::memcpy(&packed[std::size_t(y) * width * 3], rgb.constScanLine(int(y)), width * 3);
    grayscale_reference({packed.data(), want.data(), width, height, PixelLayout::Interleaved});
    QCOMPARE(session->layout(), PixelLayout::Interleaved);
    for (const KernelInfo& k : family_catalogue(KernelFamily::Grayscale)) {
        const QString name = QString::fromStdString(k.name);
        QVERIFY2(w.launchPanel()->kernelBox()->findText(name) >= 0, qPrintable(name));
        const int runs = w.page<ImagePage>()->session()->completedRuns();
        const bool already = session->shape().kind == GrayscaleVariant(k.variant);
        QVERIFY(w.launchPanel()->chooseKernel(name));
        QCOMPARE(session->shape().kind, GrayscaleVariant(k.variant));
        if (already) session->requestRun();  // choosing the variant in use changes nothing: run it again
        QTRY_VERIFY_WITH_TIMEOUT(w.page<ImagePage>()->session()->completedRuns() > runs && !session->running(), kRunTimeoutMs);
        QCOMPARE(session->resultShape().kind, GrayscaleVariant(k.variant));
        // The page's layout chooser sits in the panel, with only the layouts the variant reads enabled.
        auto* layout = w.launchPanel()->findChild<QComboBox*>(QStringLiteral("layoutBox"));
        QVERIFY(layout && layout->isVisible());
        auto* layouts = qobject_cast<QStandardItemModel*>(layout->model());
        for (int i = 0; i < layout->count(); ++i) {
            const std::string l = layout->itemData(i).toString().toStdString();
            QCOMPARE(layouts->item(i)->isEnabled(), std::find(k.layouts.begin(), k.layouts.end(), l) != k.layouts.end());
        }
        const QImage got = session->result();
        QCOMPARE(got.size(), QSize(int(width), int(height)));
        for (std::uint32_t y = 0; y < height; ++y)
            QVERIFY2(std::memcmp(got.constScanLine(int(y)), &want[std::size_t(y) * width], width) == 0,
                     qPrintable(QStringLiteral("%1: row %2 differs from the reference").arg(name).arg(y)));
    }
}

// Each matmul variant, chosen in the Launch dock on the Matrices tab, is what the session runs: C
// comes from that variant and equals the CPU's fmaf loop (the same sums in the same order) bit for bit.
void TestLaunchPanel::every_matmul_variant_reaches_the_session() {
    MainWindow w(gl_, png_);
    QVERIFY(show_and_wait(w));
    w.tabs()->setCurrentWidget(w.page<MatmulPage>());
    QCOMPARE(w.launchPanel()->family(), KernelFamily::Matmul);
    MatmulSession* session = w.page<MatmulPage>()->session();
    QTRY_VERIFY_WITH_TIMEOUT(session->a() && session->b() && !session->running(), kRunTimeoutMs);
    const Matrix& a = *session->a();
    const Matrix& b = *session->b();
    std::vector<float> want(std::size_t(a.rows) * b.cols);
    matmul_fma_loop({a.data.data(), b.data.data(), want.data(), a.rows, a.cols, b.cols});
    for (const KernelInfo& k : family_catalogue(KernelFamily::Matmul)) {
        const QString name = QString::fromStdString(k.name);
        QVERIFY2(w.launchPanel()->kernelBox()->findText(name) >= 0, qPrintable(name));
        const int runs = session->completedRuns();
        const bool already = session->launch().kernel == MatmulVariant(k.variant);
        QVERIFY(w.launchPanel()->chooseKernel(name));
        QCOMPARE(session->launch().kernel, MatmulVariant(k.variant));
        if (already) session->requestRun();  // choosing the variant in use changes nothing: run it again
        QTRY_VERIFY_WITH_TIMEOUT(session->completedRuns() > runs && !session->running(), kRunTimeoutMs);
        QCOMPARE(session->resultLaunch().kernel, MatmulVariant(k.variant));
        // The page's barrier lesson sits in the panel, for a variant with barriers only; the layout
        // chooser of the image page does not.
        auto* barrier = w.launchPanel()->findChild<QCheckBox*>(QStringLiteral("barrierBox"));
        QVERIFY(barrier && barrier->isVisible());
        QCOMPARE(barrier->isEnabled(), k.barriers);
        QVERIFY(!w.launchPanel()->findChild<QComboBox*>(QStringLiteral("layoutBox")));
        QVERIFY2(session->lastResult().status.is_ok(), session->lastResult().status.message().c_str());
        QVERIFY(session->c());
        QCOMPARE(session->c()->data.size(), want.size());
        if (k.exact)
            QVERIFY2(std::memcmp(session->c()->data.data(), want.data(), want.size() * sizeof(float)) == 0,
                     qPrintable(name + QStringLiteral(" differs from the CPU reference")));
        else  // a variant that sums in another order (or rounds to TF32): close, not equal
            QVERIFY2(matmul_max_relative_error(session->c()->data.data(), want.data(), want.size()) <
                         matmul_test_tolerance(MatmulVariant(k.variant), a.cols),
                     qPrintable(name));
    }
}

void TestLaunchPanel::presets_apply() {
    LaunchPanel panel;
    panel.setChoice(grayscale_choice(LaunchShape::one_d(256)));
    const int i = panel.presets()->findText(QStringLiteral("2-D 16×16 (lecture)"));
    QVERIFY(i > 0);
    QSignalSpy changed(&panel, &LaunchPanel::choiceChanged);
    emit panel.presets()->activated(i);
    QVERIFY(shows(panel, LaunchShape::two_d(16, 16)));
    QCOMPARE(changed.count(), 1);
    QCOMPARE(panel.presets()->currentIndex(), 0);  // back to "Presets…"
}

void TestLaunchPanel::plan_numbers_shown_data() {
    QTest::addColumn<LaunchShape>("shape");
    QTest::addColumn<QString>("grid");
    QTest::addColumn<QString>("idle");
    // 97x33 = 3201 pixels. 1-D 256: 13 blocks, 3328 threads, 127 idle (3.8%).
    QTest::newRow("1-D 256") << LaunchShape::one_d(256) << QStringLiteral("13") << QStringLiteral("127 (3.8%)");
    // 2-D 16x16: 7x3 blocks = 5376 threads; 112x48 - 97x33 = 2175 idle (40.5%).
    QTest::newRow("2-D 16x16") << LaunchShape::two_d(16, 16) << QStringLiteral("7 × 3") << QStringLiteral("2175 (40.5%)");
}

void TestLaunchPanel::plan_numbers_shown() {
    QFETCH(LaunchShape, shape);
    QFETCH(QString, grid);
    QFETCH(QString, idle);
    QLocale::setDefault(QLocale::c());  // no thousands separators
    LaunchPanel panel;
    const LaunchPlan plan = plan_grayscale_launch(shape, 97, 33);
    panel.showStats(launch_plan_html(plan));
    const QString text = panel.planText();
    QVERIFY2(text.contains(grid), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("<b>%1</b> (%2").arg(idle.section(QLatin1Char(' '), 0, 0), idle.section(QLatin1Char('('), 1, 1).chopped(1))),
             qPrintable(text));
}

// Moving a slider in the Launch dock: the session, the toolbar's box and the stats follow at once,
// the overlay on the original view is redrawn for the new blocks (it needs only the shape), and the
// kernel runs again with the new block.
void TestLaunchPanel::slider_moves_overlay_and_stats() {
    QLocale::setDefault(QLocale::c());
    MainWindow w(gl_, png_);
    QVERIFY(show_and_wait(w));
    w.overlayPanel()->setOpacity(1.0);
    w.overlayPanel()->setColoring(OverlayColoring::Block);
    w.launchPanel()->setChoice(grayscale_choice(LaunchShape::two_d(16, 16)));
    test::image_page(w)->viewTransform()->setZoom(8);
    test::image_page(w)->viewTransform()->setCenter(QPointF(24, 12));
    const int runs = w.page<ImagePage>()->session()->completedRuns();

    auto check_overlay = [&](const LaunchShape& shape) {
        const LaunchPlan plan = plan_grayscale_launch(shape, 97, 33);
        const QImage shot = test::image_page(w)->originalView()->grabImage();
        int checked = 0;
        for (int y = 8; y < 18; y += 3)
            for (int x = 13; x < 36; x += 2) {
                const QPointF wp = test::image_page(w)->originalView()->imageToWidget(QPointF(x + 0.5, y + 0.5));
                if (!shot.rect().contains(wp.toPoint())) continue;
                const QColor want = color_for_id(plan.thread_of_pixel(std::uint32_t(x), std::uint32_t(y)).linear_block);
                if (!near(centre(test::image_page(w)->originalView(), shot, x, y), want, 2)) return false;
                ++checked;
            }
        return checked > 20;
    };
    QVERIFY(check_overlay(LaunchShape::two_d(16, 16)));

    w.launchPanel()->xSlider()->setValue(24);  // 24 x 16: 5 x 3 blocks
    const LaunchShape now = LaunchShape::two_d(24, 16);
    QVERIFY(same(w.page<ImagePage>()->session()->shape(), now));
    QCOMPARE(w.findChild<LaunchShapeBox*>(QStringLiteral("launchShapeBox"))->shapeText(), QStringLiteral("24x16"));
    QVERIFY(check_overlay(now));  // before any run finished: the overlay needs only the shape
    QVERIFY(!check_overlay(LaunchShape::two_d(16, 16)));
    // 5x3 blocks of 384 threads = 5760 threads, 5760 - 3201 = 2559 idle (44.4%).
    const LaunchPlan plan = plan_grayscale_launch(now, 97, 33);
    QCOMPARE(plan.idle_threads, std::uint64_t(2559));
    QVERIFY2(w.launchPanel()->planText().contains(QStringLiteral("<b>2559</b> (44.4%)")), qPrintable(w.launchPanel()->planText()));
    QVERIFY(test::image_page(w)->overlayState().plan.idle_threads == plan.idle_threads);
    QTRY_VERIFY_WITH_TIMEOUT(w.page<ImagePage>()->session()->completedRuns() > runs && same(w.page<ImagePage>()->session()->resultShape(), now), kRunTimeoutMs);
}

// A variant whose threads write several pixels (gray_1d_x4, gray_vec16) is drawn as it runs: a block
// of N threads colours N x items consecutive pixels, as the launch plan (and the body) says.
void TestLaunchPanel::overlay_covers_items_per_thread() {
    MainWindow w(gl_, png_);
    QVERIFY(show_and_wait(w));
    w.overlayPanel()->setOpacity(1.0);
    w.overlayPanel()->setColoring(OverlayColoring::Block);
    test::image_page(w)->viewTransform()->setZoom(8);
    test::image_page(w)->viewTransform()->setCenter(QPointF(24, 12));
    int variants = 0;
    for (const KernelInfo& k : family_catalogue(KernelFamily::Grayscale)) {
        if (k.block != BlockRule::OneD || k.items_per_thread < 2) continue;
        ++variants;
        const LaunchShape shape = LaunchShape::of(GrayscaleVariant(k.variant), Dim3{8, 1, 1});
        w.launchPanel()->setChoice(grayscale_choice(shape));
        QVERIFY(same(w.page<ImagePage>()->session()->shape(), shape));
        const LaunchPlan plan = plan_grayscale_launch(shape, 97, 33);
        QCOMPARE(plan.items_per_thread, k.items_per_thread);
        const QImage shot = test::image_page(w)->originalView()->grabImage();
        int checked = 0;
        for (int y = 8; y < 18; y += 3)
            for (int x = 13; x < 36; x += 2) {
                const QPointF wp = test::image_page(w)->originalView()->imageToWidget(QPointF(x + 0.5, y + 0.5));
                if (!shot.rect().contains(wp.toPoint())) continue;
                const QColor want = color_for_id(plan.thread_of_pixel(std::uint32_t(x), std::uint32_t(y)).linear_block);
                QVERIFY2(near(centre(test::image_page(w)->originalView(), shot, x, y), want, 2),
                         qPrintable(QStringLiteral("%1: pixel (%2, %3)").arg(QString::fromStdString(k.name)).arg(x).arg(y)));
                ++checked;
            }
        QVERIFY(checked > 20);
    }
    QVERIFY(variants >= 1);
}

void TestLaunchPanel::toolbar_and_panel_stay_in_step() {
    MainWindow w(gl_, png_);
    QVERIFY(show_and_wait(w));
    auto* box = w.findChild<LaunchShapeBox*>(QStringLiteral("launchShapeBox"));
    QVERIFY(box->setShapeText(QStringLiteral("32x8")).isEmpty());
    QVERIFY(shows(*w.launchPanel(), LaunchShape::two_d(32, 8)));
    QVERIFY(same(w.page<ImagePage>()->session()->shape(), LaunchShape::two_d(32, 8)));
    QTRY_COMPARE_WITH_TIMEOUT(w.launchPanel()->xSlider()->value(), 32, 120000);
    w.launchPanel()->setChoice(grayscale_choice(LaunchShape::one_d(100)));
    QCOMPARE(box->shapeText(), QStringLiteral("100"));
    QCOMPARE(box->currentText(), QStringLiteral("1-D 100"));
    // Remembered like a toolbar choice.
    QCOMPARE(QSettings().value(QStringLiteral("run/block")).toString(), QStringLiteral("100"));
}

// A drag queues a run per step; while one runs, each newer one replaces the queued one. The window
// does not wait: the overlay follows every step.
void TestLaunchPanel::drag_supersedes_queued_runs() {
    MainWindow w(gl_, png_);
    QVERIFY(show_and_wait(w));
    const int before = w.page<ImagePage>()->session()->completedRuns();
    w.launchPanel()->setChoice(grayscale_choice(LaunchShape::one_d(256)));
    QTRY_VERIFY_WITH_TIMEOUT(w.page<ImagePage>()->session()->completedRuns() > before && !w.jobs()->busy(), kRunTimeoutMs);
    const int runs = w.page<ImagePage>()->session()->completedRuns();
    std::promise<void> gate;
    std::shared_future<void> opened = gate.get_future().share();
    std::atomic<bool> holding{false};
    w.jobs()->submit(QStringLiteral("test-gate"), &w, [opened, &holding]() -> JobRunner::Continuation {
        holding = true;
        opened.wait();
        return {};
    });
    QTRY_VERIFY_WITH_TIMEOUT(holding.load(), 120000);
    for (int t = 257; t <= 320; ++t) {
        w.launchPanel()->threadsSlider()->setValue(t);
        QCOMPARE(test::image_page(w)->overlayState().plan.shape.block.x, unsigned(t));  // drawn at once
    }
    QCOMPARE(w.jobs()->queued(), 1);
    gate.set_value();
    QTRY_VERIFY_WITH_TIMEOUT(w.page<ImagePage>()->session()->completedRuns() > runs && !w.jobs()->busy(), kRunTimeoutMs);
    QVERIFY(test::drain(*w.jobs(), kRunTimeoutMs));  // anything else posted has arrived by now
    QCOMPARE(w.page<ImagePage>()->session()->completedRuns(), runs + 1);
    QVERIFY(same(w.page<ImagePage>()->session()->resultShape(), LaunchShape::one_d(320)));
}

void TestLaunchPanel::occupancy_follows_block() {
    MainWindow w(gl_, png_);
    QVERIFY(show_and_wait(w));
    OccupancyPanel* occ = w.occupancyPanel();
    QVERIFY(occ->deviceBox()->count() >= 6);
    w.launchPanel()->setChoice(grayscale_choice(LaunchShape::two_d(32, 32)));
    QCOMPARE(occ->occupancy().warps_per_block, 32);
    const Occupancy expected = compute_occupancy(occ->profile(), grayscale_block_resources(LaunchShape::two_d(32, 32)));
    QCOMPARE(occ->occupancy().blocks_per_sm, expected.blocks_per_sm);
    QCOMPARE(w.page<ImagePage>()->session()->occupancy().blocks_per_sm, expected.blocks_per_sm);
    QCOMPARE(occ->curve().size(), 32);
    // Another device: the session's waves follow.
    const int t4 = occ->deviceBox()->findText(QStringLiteral("T4"), Qt::MatchStartsWith);
    QVERIFY(t4 >= 0);
    occ->deviceBox()->setCurrentIndex(t4);
    QCOMPARE(w.page<ImagePage>()->session()->device().sm_count, 40);
    QCOMPARE(w.page<ImagePage>()->session()->waves().sm_count, 40);
    QVERIFY(occ->summaryText().contains(QStringLiteral("Blocks per SM")));
}

// Each family's time line is kept apart: the panel shows the one of the family it edits.
// So are its stats and its last choice.
void TestLaunchPanel::times_are_kept_per_family() {
    LaunchPanel panel;
    panel.setFamily(KernelFamily::Grayscale);
    panel.showTimes(QStringLiteral("gray time"), QStringLiteral("gray terms"));
    panel.showStats(QStringLiteral("gray stats"));
    panel.setChoice(grayscale_choice(LaunchShape::two_d(24, 8)));
    panel.setFamily(KernelFamily::Matmul);
    QVERIFY(panel.timesLabel()->text().isEmpty());  // nothing shown yet for this family
    QVERIFY(panel.planText().isEmpty());
    panel.showTimes(QStringLiteral("matmul time"), QStringLiteral("matmul terms"));
    panel.showStats(QStringLiteral("matmul stats"));
    panel.setChoice(matmul_choice(MatmulLaunch::tiled(8)));
    QCOMPARE(panel.timesLabel()->text(), QStringLiteral("matmul time"));
    panel.setFamily(KernelFamily::Grayscale);
    QCOMPARE(panel.timesLabel()->text(), QStringLiteral("gray time"));
    QCOMPARE(panel.timesLabel()->toolTip(), QStringLiteral("gray terms"));
    QCOMPARE(panel.planText(), QStringLiteral("gray stats"));
    QVERIFY(shows(panel, LaunchShape::two_d(24, 8)));
    panel.setFamily(KernelFamily::Matmul);
    QCOMPARE(panel.timesLabel()->text(), QStringLiteral("matmul time"));
    QCOMPARE(panel.timesLabel()->toolTip(), QStringLiteral("matmul terms"));
    QCOMPARE(panel.planText(), QStringLiteral("matmul stats"));
    QVERIFY(panel.choice() == matmul_choice(MatmulLaunch::tiled(8)));
    panel.syncNow();
    QCOMPARE(panel.kernelBox()->currentText(), QStringLiteral("matmul_tiled"));
    QCOMPARE(panel.tileBox()->currentData().toUInt(), 8u);
}

// A page's own controls sit in the panel while it is bound and go back to the page after; the panel
// never deletes them.
void TestLaunchPanel::extra_controls_are_lent_not_given() {
    QWidget page;
    QPointer<QWidget> extras = new QWidget(&page);
    extras->hide();
    {
        LaunchPanel panel;
        panel.show();
        QVERIFY(cvz::test::wait_exposed(&panel));
        panel.setExtraControls(extras);
        QCOMPARE(panel.extraControls(), extras.data());
        QVERIFY(panel.isAncestorOf(extras));
        QVERIFY(extras->isVisible());
        panel.setExtraControls(nullptr);
        QCOMPARE(extras->parentWidget(), &page);
        QVERIFY(extras->isHidden());
        panel.setExtraControls(extras);  // and destroyed while they are in it
    }
    QVERIFY(extras);
    QCOMPARE(extras->parentWidget(), &page);

    // Extras whose page is gone while they are lent (a window closing) are deleted, not leaked.
    auto* gone = new QWidget;
    QPointer<QWidget> orphan = new QWidget(gone);
    {
        LaunchPanel panel;
        panel.setExtraControls(orphan);
        delete gone;
        QVERIFY(orphan);
    }
    QVERIFY(!orphan);
    // And a window's pages take theirs with them, the bound page's and the other's.
    QPointer<QWidget> layout, barrier;
    {
        MainWindow w(gl_, png_);
        QVERIFY(show_and_wait(w));
        layout = w.findChild<QWidget*>(QStringLiteral("layoutBox"));
        barrier = w.findChild<QWidget*>(QStringLiteral("barrierBox"));
        QVERIFY(layout && barrier);
        QVERIFY(w.launchPanel()->isAncestorOf(layout));
    }
    QVERIFY(!layout && !barrier);
}

// Issue 15, item 2: a slider moved (grayscale) or a variant chosen (matmul) updates the predicted GPU
// time in the panel to the model's figure for the new launch on the chosen profile.
void TestLaunchPanel::moving_a_slider_updates_the_prediction() {
    MainWindow w(gl_, png_);
    QVERIFY(show_and_wait(w));
    LaunchPanel* panel = w.launchPanel();
    const DeviceProfile profile = w.occupancyPanel()->profile();
    const auto shows = [&](const GpuPrediction& p) {
        return panel->timesLabel()->text().startsWith(launch_times_html(p, false, nullptr));
    };
    QVERIFY(panel->chooseKernel(QStringLiteral("gray_2d")));
    panel->xSlider()->setValue(32);
    QTRY_VERIFY_WITH_TIMEOUT(panel->choice().block.x == 32, kRunTimeoutMs);
    const GpuPrediction gray = predict_grayscale(profile, grayscale_shape(panel->choice()), 97, 33, w.page<ImagePage>()->session()->layout());
    QVERIFY(gray.ok());
    QTRY_VERIFY2_WITH_TIMEOUT(shows(gray), qPrintable(panel->timesLabel()->text()), kRunTimeoutMs);

    w.tabs()->setCurrentWidget(w.page<MatmulPage>());
    QVERIFY(panel->chooseKernel(QStringLiteral("matmul_tiled")));
    const auto a = w.page<MatmulPage>()->session()->a(), b = w.page<MatmulPage>()->session()->b();
    QVERIFY(a && b);
    QTRY_COMPARE_WITH_TIMEOUT(w.page<MatmulPage>()->session()->launch().kernel, MatmulVariant::Tiled, kRunTimeoutMs);
    const GpuPrediction mm = predict_matmul(profile, w.page<MatmulPage>()->session()->launch(), a->rows, a->cols, b->cols);
    QVERIFY(mm.ok());
    QTRY_VERIFY2_WITH_TIMEOUT(shows(mm), qPrintable(panel->timesLabel()->text()), kRunTimeoutMs);
    QVERIFY(panel->timesLabel()->toolTip().contains(mm.bound));
}

int main(int argc, char* argv[]) {
    if (qEnvironmentVariableIsEmpty("DISPLAY") && qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY") &&
        qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    TestLaunchPanel test;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&test, argc, argv);
}
#include "tst_launch_panel.moc"
