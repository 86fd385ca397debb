// The SM panel's caption counts in words: "1 wave", "1 slot", "1 SM", and plurals otherwise (issue 14,
// item 10: "1 waves", "1 slots").
#include <QtTest>

#include "app/models/wave_model.h"
#include "ui/panels/sm_panel.h"

using namespace cvz;

class TestSmPanel : public QObject {
    Q_OBJECT
private slots:
    void caption_counts_data();
    void caption_counts();
};

void TestSmPanel::caption_counts_data() {
    QTest::addColumn<quint64>("blocks");
    QTest::addColumn<int>("sms");
    QTest::addColumn<int>("per_sm");
    QTest::addColumn<int>("wave");  // shown; a wave past the last shows "done"
    QTest::addColumn<QString>("caption");
    QTest::newRow("one block, one slot, one SM") << quint64(1) << 1 << 1 << 0 << QStringLiteral("Wave 1 of 1: block 0 on 1 SM × 1 slot");
    QTest::newRow("one block done") << quint64(1) << 1 << 1 << 1 << QStringLiteral("All 1 block done in 1 wave");
    QTest::newRow("several") << quint64(10) << 2 << 4 << 0 << QStringLiteral("Wave 1 of 2: blocks 0–7 on 2 SMs × 4 slots");
    QTest::newRow("tail") << quint64(10) << 2 << 4 << 1
                          << QStringLiteral("Wave 2 of 2: blocks 8–9 on 2 SMs × 4 slots — the tail: 25% of the slots busy");
    QTest::newRow("all done") << quint64(1000) << 132 << 8 << 1 << QStringLiteral("All 1,000 blocks done in 1 wave");
}

void TestSmPanel::caption_counts() {
    QFETCH(quint64, blocks);
    QFETCH(int, sms);
    QFETCH(int, per_sm);
    QFETCH(int, wave);
    QFETCH(QString, caption);
    SmPanel panel;
    panel.setPlan(plan_waves(blocks, sms, per_sm));
    panel.setWave(wave);
    QCOMPARE(panel.caption(), caption);
}

QTEST_MAIN(TestSmPanel)
#include "tst_sm_panel.moc"
