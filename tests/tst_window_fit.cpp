// The window fits the screen on every page: at 1024×700, and at QT_SCALE_FACTOR=1.5 on a 1600×1000
// screen (a second CTest entry, tst_window_fit_scale_1_5, runs this program at that scale; the test
// checks the scale it really runs at). No label of the teaching text is cut: each one's required size
// (sizeHint, or heightForWidth when it wraps) fits the size it is shown at, and none hides behind a
// horizontal scroll bar; the dock tabs show their whole titles.
#include <QtTest>

#include <QAbstractItemView>
#include <QAbstractScrollArea>
#include <QComboBox>
#include <QDockWidget>
#include <QLabel>
#include <QScreen>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QStandardPaths>
#include <QTabBar>
#include <QTabWidget>

#include <algorithm>

#include "support/window_waits.h"
#include "support/event_waits.h"
#include "ui/pages/convolution/convolution_page.h"
#include "ui/pages/grayscale/image_page.h"
#include "ui/pages/matmul/matmul_page.h"
#include "app/grayscale/grayscale_choice.h"
#include "ui/panels/launch_panel.h"
#include "ui/views/display_path.h"
#include "ui/windows/elided_label.h"
#include "ui/windows/main_window.h"
#include "ui/windows/ladder_dialog.h"
#include "ui/windows/sweep_dialog.h"

using namespace cvz;

namespace {

constexpr int kTimeoutMs = 120000;

// The labels that carry the teaching text, by object name.
const QStringList kTeachingLabels = {
    QStringLiteral("inspectorText"),  QStringLiteral("matmulStep"),       QStringLiteral("matmulCounters"),
    QStringLiteral("matmulTotals"),   QStringLiteral("occupancySummary"), QStringLiteral("smCaption"),
    QStringLiteral("launchStats"),    QStringLiteral("timelineCaption"),
};

double expected_scale() { return qEnvironmentVariableIsSet("QT_SCALE_FACTOR") ? qEnvironmentVariable("QT_SCALE_FACTOR").toDouble() : 1.0; }

// Why `label` does not show all of its text at its present size, or an empty string.
QString clipped(const QLabel* label) {
    if (!label->isVisibleTo(label->window()) || label->text().isEmpty()) return {};
    if (qobject_cast<const ElidedLabel*>(label)) return {};  // ends in "…", whole in its tooltip: checked below
    const QString name = label->objectName();
    const QSize shown = label->size();
    // Inside a scroll area it may scroll down, never sideways.
    for (const QWidget* p = label->parentWidget(); p; p = p->parentWidget()) {
        if (const auto* area = qobject_cast<const QAbstractScrollArea*>(p)) {
            if (area->horizontalScrollBar()->isVisible())
                return QStringLiteral("%1 sits behind a horizontal scroll bar (%2 px of text in %3 px)")
                    .arg(name)
                    .arg(area->horizontalScrollBar()->maximum() + area->viewport()->width())
                    .arg(area->viewport()->width());
            // A scroll area that never scrolls sideways cuts what is wider than its viewport.
            const int right = label->mapTo(area->viewport(), QPoint(label->width(), 0)).x();
            if (right > area->viewport()->width())
                return QStringLiteral("%1 reaches %2 px in a %3 px wide scroll area").arg(name).arg(right).arg(area->viewport()->width());
            if (label->wordWrap()) return {};
            break;
        }
    }
    if (label->wordWrap()) {
        const int need = label->heightForWidth(shown.width());
        if (need > shown.height())
            return QStringLiteral("%1 needs %2 px of height at width %3, has %4").arg(name).arg(need).arg(shown.width()).arg(shown.height());
        return {};
    }
    const QSize need = label->sizeHint();
    if (need.width() > shown.width() || need.height() > shown.height())
        return QStringLiteral("%1 needs %2×%3, is shown at %4×%5 ('%6')")
            .arg(name).arg(need.width()).arg(need.height()).arg(shown.width()).arg(shown.height()).arg(label->text().left(60));
    return {};
}

// The dock tabs whose titles are cut.
QStringList cut_tabs(const MainWindow& w) {
    QStringList cut;
    for (const QTabBar* bar : w.findChildren<QTabBar*>()) {
        if (!bar->isVisible() || qobject_cast<const QTabWidget*>(bar->parentWidget())) continue;  // the page tabs are not docks
        // The bar's size hint has every title whole: a narrower bar elides them.
        if (bar->sizeHint().width() > bar->width())
            for (int i = 0; i < bar->count(); ++i) cut << bar->tabText(i);
    }
    return cut;
}

// FIT_DEBUG=1 lists the widgets with large minimum sizes: what to look at when a row fails.
void debug_minimums(const MainWindow& w) {
    if (!qEnvironmentVariableIsSet("FIT_DEBUG")) return;
    for (QWidget* c : w.findChildren<QWidget*>()) {
        if (!c->isVisible()) continue;
        const QSize m = c->minimumSizeHint().expandedTo(c->minimumSize());
        if (m.height() > 100 || m.width() > 250 || qobject_cast<QDockWidget*>(c))
            qInfo("  %s %s min %dx%d size %dx%d", c->metaObject()->className(), qPrintable(c->objectName()), m.width(), m.height(), c->width(), c->height());
    }
}

bool settle(MainWindow& w) {
    if (!test::drain(*w.jobs(), kTimeoutMs)) return false;
    QCoreApplication::processEvents();
    return true;
}

}  // namespace

class TestWindowFit : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void init();
    void runs_at_the_scale_asked_for();
    void every_page_fits_the_screen_data();
    void every_page_fits_the_screen();
    void restored_geometry_is_clamped();
    void sweep_dialog_fits_the_screen();
};

void TestWindowFit::initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("cudaviz"));
    QCoreApplication::setApplicationName(QStringLiteral("cudaviz-window-fit-test"));
    const QScreen* screen = QGuiApplication::primaryScreen();
    qInfo("screen %dx%d (available %dx%d) at device pixel ratio %.2f", screen->geometry().width(),
          screen->geometry().height(), screen->availableGeometry().width(), screen->availableGeometry().height(),
          screen->devicePixelRatio());
}

void TestWindowFit::init() { QSettings().clear(); }

// The second CTest entry sets QT_SCALE_FACTOR=1.5: prove the program really draws at that scale.
void TestWindowFit::runs_at_the_scale_asked_for() {
    QCOMPARE(QGuiApplication::primaryScreen()->devicePixelRatio(), expected_scale());
}

void TestWindowFit::every_page_fits_the_screen_data() {
    QTest::addColumn<QString>("page");
    QTest::addColumn<QSize>("size");  // asked for; an empty size leaves the window's own default
    // "race": the tiled kernel without its second barrier, an output it got wrong selected, so the
    // inspector shows the "WRONG: with both barriers it is ..." explanation.
    // "image 1x2": a block of two threads, whose launch statistics have the most rows.
    // "… all panels": every dock and dialog open at once (what `cudaviz --show` opens), the window's
    // size unchanged by them.
    for (const QString& page : {QStringLiteral("image"), QStringLiteral("image 1x2"), QStringLiteral("matrices"), QStringLiteral("race"),
                                QStringLiteral("convolution"), QStringLiteral("image all panels"), QStringLiteral("matrices all panels"),
                                QStringLiteral("convolution all panels")}) {
        QTest::addRow("%s, default size", qPrintable(page)) << page << QSize();
        QTest::addRow("%s, 1024x700", qPrintable(page)) << page << QSize(1024, 700);
    }
}

void TestWindowFit::every_page_fits_the_screen() {
    QFETCH(QString, page);
    QFETCH(QSize, size);
    const QRect room = QGuiApplication::primaryScreen()->availableGeometry();
    if (size.isValid() && (size.width() > room.width() || size.height() > room.height()))
        QSKIP(qPrintable(QStringLiteral("the screen (%1x%2 at this scale) is smaller than %3x%4: the default-size row covers it")
                             .arg(room.width()).arg(room.height()).arg(size.width()).arg(size.height())));
    MainWindow w(choose_display_path(true));
    const QString first = page.section(QLatin1Char(' '), 0, 0);
    if (first == QLatin1String("matrices") || first == QLatin1String("race")) w.tabs()->setCurrentWidget(w.page<MatmulPage>());
    if (first == QLatin1String("convolution")) w.tabs()->setCurrentWidget(w.page<ConvolutionPage>());
    if (size.isValid()) w.resize(size);
    w.show();
    QVERIFY(cvz::test::wait_exposed(&w));
    QVERIFY(settle(w));
    // Click an element of C so that the inspector shows the index arithmetic.
    if (page == QLatin1String("image 1x2")) {
        w.launchPanel()->setChoice(grayscale_choice(LaunchShape::two_d(1, 2)));
        QVERIFY(settle(w));
    }
    if (page == QLatin1String("matrices")) {
        w.page<MatmulPage>()->selectElement(18, 20);
        QVERIFY(settle(w));
    }
    if (page.endsWith(QLatin1String("all panels"))) {
        const QSize before = w.size();
        QCOMPARE(w.showPanels(MainWindow::panelNames()), QString());
        QVERIFY(settle(w));
        debug_minimums(w);
        QCOMPARE(w.size(), before);  // opening panels never makes the window grow
        for (QWidget* dialog : {static_cast<QWidget*>(w.sweepDialog()), static_cast<QWidget*>(w.ladderDialog())}) {
            QVERIFY(dialog && dialog->isVisible());
            QVERIFY2(room.contains(dialog->frameGeometry()),
                     qPrintable(QStringLiteral("%1 %2x%3+%4+%5").arg(dialog->objectName()).arg(dialog->frameGeometry().width())
                                    .arg(dialog->frameGeometry().height()).arg(dialog->frameGeometry().x()).arg(dialog->frameGeometry().y())));
        }
        // Item 7: the source file box and the sweep's kernel box show their whole text (an arrow's
        // width aside).
        for (const QComboBox* box : {w.findChild<QComboBox*>(QStringLiteral("sourceFile")), w.sweepDialog()->kernelBox()}) {
            QVERIFY(box);
            const int need = box->fontMetrics().horizontalAdvance(box->currentText());
            QVERIFY2(need + 16 <= box->width(), qPrintable(QStringLiteral("'%1' needs %2 px in a %3 px box").arg(box->currentText()).arg(need).arg(box->width())));
        }
        // What must stay on screen: the execution controls and the status bar, inside the window.
        for (const char* name : {"timeline", "statusMessage", "sourceViewScroll"}) {
            auto* c = w.findChild<QWidget*>(QLatin1String(name));
            QVERIFY2(c && c->isVisible(), name);
            const QRect at(c->mapTo(&w, QPoint(0, 0)), c->size());
            QVERIFY2(w.rect().contains(at), qPrintable(QStringLiteral("%1 at %2,%3 %4x%5 in a %6x%7 window").arg(QLatin1String(name))
                                                          .arg(at.x()).arg(at.y()).arg(at.width()).arg(at.height()).arg(w.width()).arg(w.height())));
            QVERIFY2(at.height() >= c->fontMetrics().height(), qPrintable(QStringLiteral("%1 is %2 px high").arg(QLatin1String(name)).arg(at.height())));
        }
        // Issue 30: with every panel open the Source dock is not cramped: it gets at least a fifth of
        // the window's height (the Launch panel scrolls instead of keeping its whole height).
        QDockWidget* source = w.dock(PageDocks::Source);
        QVERIFY2(source->height() * 5 >= w.height(),
                 qPrintable(QStringLiteral("the Source dock is %1 px of a %2 px window").arg(source->height()).arg(w.height())));
    }
    if (page == QLatin1String("race")) {
        MatmulLaunch race = MatmulLaunch::tiled(16);
        race.second_barrier = false;
        w.page<MatmulPage>()->setLaunch(race);
        QVERIFY(settle(w));
        const auto wrong = w.page<MatmulPage>()->session()->wrongMask();
        QVERIFY2(wrong && w.page<MatmulPage>()->wrongCount() > 0, "the race left every output right");
        const auto first = std::find_if(wrong->begin(), wrong->end(), [](std::uint8_t v) { return v != 0; }) - wrong->begin();
        const int cols = int(w.page<MatmulPage>()->matrixC()->cols);
        w.page<MatmulPage>()->selectElement(int(first) / cols, int(first) % cols);
        QVERIFY(settle(w));
        QVERIFY2(w.page<MatmulPage>()->inspectorText().contains(QStringLiteral("WRONG: with both barriers")),
                 qPrintable(w.page<MatmulPage>()->inspectorText()));
    }

    qInfo("window %dx%d, minimum %dx%d, screen %dx%d", w.width(), w.height(), w.minimumSizeHint().width(),
          w.minimumSizeHint().height(), room.width(), room.height());
    debug_minimums(w);
    QVERIFY2(room.contains(w.frameGeometry()),
             qPrintable(QStringLiteral("the window %1x%2+%3+%4 is outside the screen's %5x%6")
                            .arg(w.frameGeometry().width()).arg(w.frameGeometry().height())
                            .arg(w.frameGeometry().x()).arg(w.frameGeometry().y()).arg(room.width()).arg(room.height())));
    if (size.isValid()) QCOMPARE(w.size(), size);  // it did not grow past what was asked

    QStringList problems;
    for (const QLabel* label : w.findChildren<QLabel*>())
        if (kTeachingLabels.contains(label->objectName()))
            if (const QString why = clipped(label); !why.isEmpty()) problems << why;
    for (const QString& tab : cut_tabs(w)) problems << QStringLiteral("dock tab '%1' is cut").arg(tab);
    // One-line titles that may not fit (the matrix titles, the status bar) show one of their shorter
    // forms whole, or say they are cut with "…", and keep their whole text in the tooltip.
    for (const ElidedLabel* label : w.findChildren<ElidedLabel*>()) {
        if (!label->isVisibleTo(&w) || label->shownText() == label->text()) continue;
        QStringList forms = label->shortTexts();
        forms << label->text();
        const QStringList whole = forms;
        for (const QString& f : whole) forms << ElidedLabel::withoutRemarks(f);
        const QString shown = label->shownText();
        if ((!forms.contains(shown) && !shown.endsWith(QChar(0x2026))) || label->toolTip() != label->text())
            problems << QStringLiteral("'%1' is cut to '%2' without an ellipsis and its tooltip").arg(label->text(), shown);
    }
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QStringLiteral("\n"))));
}

// A geometry saved on a larger screen (or at another scale) comes back inside this one.
void TestWindowFit::restored_geometry_is_clamped() {
    const QRect room = QGuiApplication::primaryScreen()->availableGeometry();
    {
        MainWindow big(choose_display_path(true));
        big.setGeometry(room.x() + 40, room.y() + 40, room.width() * 3 / 2, room.height() * 3 / 2);
        QSettings().setValue(QStringLiteral("window/geometry"), big.saveGeometry());
    }
    MainWindow w(choose_display_path(true));
    w.show();
    QVERIFY(cvz::test::wait_exposed(&w));
    QVERIFY(settle(w));
    QVERIFY2(room.contains(w.frameGeometry()),
             qPrintable(QStringLiteral("restored %1x%2 on a %3x%4 screen").arg(w.width()).arg(w.height()).arg(room.width()).arg(room.height())));
}

// The sweep dialog (1340×800 by default) fits too, and its Kernel drop-down opens on the screen.
void TestWindowFit::sweep_dialog_fits_the_screen() {
    const QRect room = QGuiApplication::primaryScreen()->availableGeometry();
    MainWindow w(choose_display_path(true));
    w.show();
    QVERIFY(cvz::test::wait_exposed(&w));
    QVERIFY(settle(w));
    w.openSweep();
    SweepDialog* sweep = w.sweepDialog();
    QVERIFY(cvz::test::wait_exposed(sweep));
    QVERIFY2(room.contains(sweep->frameGeometry()),
             qPrintable(QStringLiteral("the sweep %1x%2+%3+%4 on a %5x%6 screen").arg(sweep->frameGeometry().width())
                            .arg(sweep->frameGeometry().height()).arg(sweep->frameGeometry().x())
                            .arg(sweep->frameGeometry().y()).arg(room.width()).arg(room.height())));
    sweep->kernelBox()->showPopup();
    QWidget* popup = sweep->kernelBox()->view()->window();
    QTRY_VERIFY_WITH_TIMEOUT(popup->isVisible(), 120000);
    QVERIFY2(room.contains(popup->geometry()),
             qPrintable(QStringLiteral("the Kernel list at %1,%2").arg(popup->geometry().x()).arg(popup->geometry().y())));
    sweep->kernelBox()->hidePopup();
}

QTEST_MAIN(TestWindowFit)
#include "tst_window_fit.moc"
