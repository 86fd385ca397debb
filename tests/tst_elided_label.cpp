// The status bar's label: a text too long for its width is drawn cut with "…" (never silently
// clipped), whole when it fits, and always whole in the tooltip the main window sets.
#include <QtTest>

#include "support/window_waits.h"
#include "ui/views/display_path.h"
#include "ui/windows/elided_label.h"
#include "ui/windows/main_window.h"

using namespace cvz;

class TestElidedLabel : public QObject {
    Q_OBJECT
private slots:
    void elides_only_what_does_not_fit();
    void main_window_status_at_1024_wide();
};

void TestElidedLabel::elides_only_what_does_not_fit() {
    ElidedLabel label;
    const QString text = QStringLiteral("CPU emulator (2 threads) · 2-D block 16x16 · grid 29x19 · kernel 1.635 ms (one run, not warmed up)");
    label.setText(text);
    label.resize(label.fontMetrics().horizontalAdvance(text) + 10, 20);
    QCOMPARE(label.shownText(), text);
    // Narrower: the parenthesised remarks go first, the rest stays whole.
    const QString plain = QStringLiteral("CPU emulator · 2-D block 16x16 · grid 29x19 · kernel 1.635 ms");
    QCOMPARE(ElidedLabel::withoutRemarks(text), plain);
    // Coordinates and sizes in parentheses are not remarks.
    QCOMPARE(ElidedLabel::withoutRemarks(QStringLiteral("Block (0, 0) · mask (5×5) (sample)")), QStringLiteral("Block (0, 0) · mask (5×5)"));
    label.resize(label.fontMetrics().horizontalAdvance(plain) + 10, 20);
    QCOMPARE(label.shownText(), plain);
    // A shorter form the owner gives is tried before the remarks go.
    const QString brief = QStringLiteral("CPU emulator (2 threads) · kernel 1.635 ms (one run, not warmed up)");
    label.setShortTexts({brief});
    label.resize(label.fontMetrics().horizontalAdvance(brief) + 2, 20);
    QCOMPARE(label.shownText(), brief);
    label.setShortTexts({});
    // Nothing fits: the shortest form, cut with an ellipsis.
    label.resize(200, 20);
    const QString cut = label.shownText();
    QVERIFY(cut.endsWith(QChar(0x2026)));
    QVERIFY(label.fontMetrics().horizontalAdvance(cut) <= 200);
    QVERIFY(plain.startsWith(cut.chopped(1)));
    QCOMPARE(label.text(), text);  // the text itself is kept
}

void TestElidedLabel::main_window_status_at_1024_wide() {
    MainWindow w(choose_display_path(false));
    w.resize(1024, 700);
    w.show();
    QVERIFY(cvz::test::wait_exposed(&w));
    QTRY_VERIFY_WITH_TIMEOUT(!w.statusText().isEmpty(), 30000);
    auto* label = w.findChild<ElidedLabel*>(QStringLiteral("statusMessage"));
    QVERIFY(label);
    QCOMPARE(label->toolTip(), label->text());
    const QString shown = label->shownText();
    QVERIFY(shown == label->text() || shown == ElidedLabel::withoutRemarks(label->text()) || shown.endsWith(QChar(0x2026)));
    QVERIFY(label->fontMetrics().horizontalAdvance(shown) <= label->contentsRect().width());
}

int main(int argc, char* argv[]) {
    if (qEnvironmentVariableIsEmpty("DISPLAY") && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("cudaviz-elided-label-test"));
    TestElidedLabel test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_elided_label.moc"
