// Space and G typed into a focused number field keep its value (issue 14, item 10): with the field's
// text selected, as after Tab or a click, the key used to replace the number with nothing. The window's
// one-key shortcuts do not fire from a field either. Keys go through the window, as a real keyboard's do.
#include <QtTest>

#include <QAction>
#include <QSpinBox>
#include <QTabWidget>

#include "support/window_waits.h"
#include "support/event_waits.h"
#include "ui/pages/matmul/matmul_page.h"
#include "ui/views/display_path.h"
#include "ui/windows/main_window.h"
#include "ui/windows/number_field_guard.h"

using namespace cvz;

class TestNumberFieldGuard : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void keys_that_are_no_number_keep_the_value();
    void every_field_of_the_window_keeps_its_value();
};

void TestNumberFieldGuard::initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("cudaviz"));
    QCoreApplication::setApplicationName(QStringLiteral("cudaviz-number-field-test"));
    QSettings().clear();
}

void TestNumberFieldGuard::keys_that_are_no_number_keep_the_value() {
    NumberFieldGuard guard;
    qApp->installEventFilter(&guard);
    QWidget window;
    auto* box = new QSpinBox(&window);
    box->setRange(1, 1000);
    box->setValue(16);
    window.show();
    window.activateWindow();
    QVERIFY(cvz::test::wait_active(&window));
    box->setFocus();
    for (Qt::Key key : {Qt::Key_Space, Qt::Key_G, Qt::Key_X, Qt::Key_Period}) {
        box->selectAll();
        QTest::keyClick(window.windowHandle(), key);
        QCOMPARE(box->text(), QStringLiteral("16"));
    }
    // Numbers are still typed, over the selection, as before.
    box->selectAll();
    QTest::keyClick(window.windowHandle(), Qt::Key_2);
    QTest::keyClick(window.windowHandle(), Qt::Key_4);
    QCOMPARE(box->text(), QStringLiteral("24"));
    QTest::keyClick(window.windowHandle(), Qt::Key_Backspace);
    QCOMPARE(box->text(), QStringLiteral("2"));
    QTest::keyClick(window.windowHandle(), Qt::Key_Up);
    QCOMPARE(box->value(), 3);
}

void TestNumberFieldGuard::every_field_of_the_window_keeps_its_value() {
    for (const bool matrices : {false, true}) {
        MainWindow w(choose_display_path(true));
        if (matrices) w.tabs()->setCurrentWidget(w.page<MatmulPage>());
        w.resize(1300, 800);
        w.show();
        w.activateWindow();
        QVERIFY(cvz::test::wait_active(&w));
        QVERIFY(test::drain(*w.jobs()));
        int fields = 0;
        for (QSpinBox* box : w.findChildren<QSpinBox*>()) {
            if (!box->isVisible() || !box->isEnabled()) continue;
            ++fields;
            box->setFocus();
            const QString before = box->text();
            const bool overlay = w.overlayAction()->isChecked();
            for (Qt::Key key : {Qt::Key_Space, Qt::Key_G}) {
                box->selectAll();
                QTest::keyClick(w.windowHandle(), key);
                QCOMPARE(box->text(), before);
            }
            QCOMPARE(w.overlayAction()->isChecked(), overlay);  // G typed in a field is not the shortcut
        }
        QVERIFY2(fields >= (matrices ? 7 : 2), qPrintable(QStringLiteral("%1 fields").arg(fields)));
    }
}

QTEST_MAIN(TestNumberFieldGuard)
#include "tst_number_field_guard.moc"
