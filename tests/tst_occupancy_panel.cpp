// The occupancy panel in plain words (issue 14, item 10): each limit named with what it allows, instead
// of "per SM: warps 2, blocks 32, registers 2, shared memory 228"; tooltips on the numbers and the chart.
#include <QtTest>

#include <QChartView>
#include <QComboBox>
#include <QLabel>
#include <QTextDocument>

#include "ui/panels/occupancy_panel.h"

using namespace cvz;

namespace {
QString plain(const QString& html) {
    QTextDocument doc;
    doc.setHtml(html);
    return doc.toPlainText();
}
}  // namespace

class TestOccupancyPanel : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void limits_in_plain_words();
};

void TestOccupancyPanel::initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("cudaviz"));
    QCoreApplication::setApplicationName(QStringLiteral("cudaviz-occupancy-panel-test"));
    QSettings().clear();
}

void TestOccupancyPanel::limits_in_plain_words() {
    OccupancyPanel panel;
    int h200 = -1;
    for (int i = 0; i < panel.deviceBox()->count(); ++i)
        if (panel.deviceBox()->itemText(i).startsWith(QStringLiteral("H200"))) h200 = i;
    if (h200 < 0) QSKIP("this machine's GPU heads the list and no H200 profile follows it");
    panel.deviceBox()->setCurrentIndex(h200);
    // 1024 threads, 32 registers each, no shared memory: 2 blocks by warps (64 per SM), 32 by block
    // slots, 2 by registers (65536 / 32768).
    panel.setBlock(BlockResources{1024, 32, 0});
    const QString text = plain(panel.summaryText());
    QVERIFY2(!text.contains(QStringLiteral("per SM: warps")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("How many of these blocks one SM can hold, by each of its limits")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("by its warps: 2")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("by its block slots: 32")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("by its registers: 2 (32 per thread)")), qPrintable(text));
    // Without shared memory the limit is the per-block reservation the model counts (228 on the H200).
    QVERIFY2(text.contains(QStringLiteral("by its shared memory: %1 (0 bytes per block)").arg(panel.occupancy().blocks_by_shared)),
             qPrintable(text));
    QVERIFY(!panel.findChild<QLabel*>(QStringLiteral("occupancySummary"))->toolTip().isEmpty());
    QVERIFY(!panel.findChild<QChartView*>()->toolTip().isEmpty());
}

QTEST_MAIN(TestOccupancyPanel)
#include "tst_occupancy_panel.moc"
