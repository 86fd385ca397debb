// The block-schedule JSON (app/schedule_json.h): written exactly as the issue states it, read back to
// the same schedule, and every malformed file refused with a message naming the file and the problem.
#include <QtTest>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

#include "app/io/schedule_json.h"

using namespace cvz;

namespace {

BlockSchedule sample() {
    BlockSchedule s;
    s.backend = "cuda";
    s.device = "NVIDIA \"H200\"";
    s.sms = 132;
    s.blocks = {{Dim3{0, 0, 0}, 124, 0, 2080},
                {Dim3{1, 0, 0}, 125, 32, 2112},
                {Dim3{2, 0, 0}, 0, 64, 9000000000ull},
                {Dim3{0, 1, 0}, 131, 96, 96},
                {Dim3{1, 1, 0}, 16, 128, 4000},
                {Dim3{2, 1, 0}, 17, 160, 4100}};
    return s;
}

}  // namespace

class TestScheduleJson : public QObject {
    Q_OBJECT
private slots:
    void writes_the_issue_format();
    void round_trip();
    void malformed_is_refused_data();
    void malformed_is_refused();
    void unreadable_file_is_named();

private:
    QTemporaryDir dir_;
};

void TestScheduleJson::writes_the_issue_format() {
    const QJsonDocument doc = QJsonDocument::fromJson(schedule_to_json(sample()));
    QVERIFY(doc.isObject());
    const QJsonObject o = doc.object();
    QCOMPARE(o.keys(), (QStringList{"backend", "blocks", "device", "sms"}));
    QCOMPARE(o.value("backend").toString(), QString("cuda"));
    QCOMPARE(o.value("device").toString(), QString("NVIDIA \"H200\""));
    QCOMPARE(o.value("sms").toInt(), 132);
    const QJsonArray blocks = o.value("blocks").toArray();
    QCOMPARE(blocks.size(), 6);
    const QJsonObject first = blocks.at(0).toObject();
    QCOMPARE(first.keys(), (QStringList{"block", "end_ns", "sm", "start_ns"}));
    QCOMPARE(first.value("block").toArray(), (QJsonArray{0, 0, 0}));
    QCOMPARE(first.value("sm").toInt(), 124);
    QCOMPARE(first.value("end_ns").toInteger(), 2080);
    QCOMPARE(blocks.at(3).toObject().value("block").toArray(), (QJsonArray{0, 1, 0}));
}

void TestScheduleJson::round_trip() {
    const QString path = dir_.filePath("s.json");
    QCOMPARE(write_schedule_json(path, sample()), QString());
    const LoadedSchedule l = read_schedule_json(path);
    QVERIFY2(l.ok(), qPrintable(l.error));
    QVERIFY(l.grid == (Dim3{3, 2, 1}));
    const BlockSchedule want = sample();
    QCOMPARE(l.schedule.device, want.device);
    QCOMPARE(l.schedule.sms, want.sms);
    QCOMPARE(l.schedule.blocks.size(), want.blocks.size());
    for (std::size_t i = 0; i < want.blocks.size(); ++i) {
        QVERIFY(l.schedule.blocks[i].block == want.blocks[i].block);
        QCOMPARE(l.schedule.blocks[i].sm, want.blocks[i].sm);
        QCOMPARE(l.schedule.blocks[i].start_ns, want.blocks[i].start_ns);
        QCOMPARE(l.schedule.blocks[i].end_ns, want.blocks[i].end_ns);
    }
}

void TestScheduleJson::malformed_is_refused_data() {
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("expected");
    const QByteArray head = R"({"backend": "cuda", "device": "x", "sms": 2, "blocks": )";
    QTest::newRow("empty") << QByteArray() << "invalid JSON at byte 0";
    QTest::newRow("truncated") << head + R"([{"block": [0,0,0], "sm": 0, )" << "invalid JSON";
    QTest::newRow("array at top") << QByteArray("[1, 2]") << "the top level must be an object";
    QTest::newRow("no device") << QByteArray(R"({"backend": "cuda", "sms": 2, "blocks": []})") << "\"device\" must be a string";
    QTest::newRow("sms zero") << QByteArray(R"({"backend": "cuda", "device": "x", "sms": 0, "blocks": []})")
                              << "\"sms\" must be a whole number";
    QTest::newRow("sms fraction") << QByteArray(R"({"backend": "cuda", "device": "x", "sms": 1.5, "blocks": []})")
                                  << "\"sms\" must be a whole number";
    QTest::newRow("blocks not array") << head + "{}}" << "\"blocks\" must be an array";
    QTest::newRow("no blocks") << head + "[]}" << "there are no blocks";
    QTest::newRow("block of two") << head + R"([{"block": [0,0], "sm": 0, "start_ns": 0, "end_ns": 1}]})"
                                  << "blocks[0].block must be [x, y, z]";
    QTest::newRow("negative index") << head + R"([{"block": [0,-1,0], "sm": 0, "start_ns": 0, "end_ns": 1}]})"
                                    << "blocks[0].block must hold three whole numbers";
    QTest::newRow("sm string") << head + R"([{"block": [0,0,0], "sm": "1", "start_ns": 0, "end_ns": 1}]})"
                               << "blocks[0].sm must be a whole number";
    QTest::newRow("sm beyond sms") << head + R"([{"block": [0,0,0], "sm": 2, "start_ns": 0, "end_ns": 1}]})"
                                   << "ran on SM 2, outside 0..1";
    QTest::newRow("end before start")
        << head + R"([{"block": [0,0,0], "sm": 0, "start_ns": 0, "end_ns": 1}, {"block": [1,0,0], "sm": 1, "start_ns": 9, "end_ns": 3}]})"
        << "block [1, 0, 0] ends before it starts";
    QTest::newRow("missing block")
        << head + R"([{"block": [0,0,0], "sm": 0, "start_ns": 0, "end_ns": 1}, {"block": [2,0,0], "sm": 1, "start_ns": 0, "end_ns": 3}]})"
        << "span a grid of 3x1x1 = 3 blocks but 2 are listed";
    QTest::newRow("twice")
        << head + R"([{"block": [0,0,0], "sm": 0, "start_ns": 0, "end_ns": 1}, {"block": [0,0,0], "sm": 1, "start_ns": 0, "end_ns": 3}, {"block": [2,0,0], "sm": 1, "start_ns": 0, "end_ns": 3}]})"
        << "block [0, 0, 0] is listed twice";
    QTest::newRow("huge grid")
        << head + R"([{"block": [2147483646,65535,65535], "sm": 0, "start_ns": 0, "end_ns": 1}]})"
        << "but 1 are listed";
    QTest::newRow("not relative") << head + R"([{"block": [0,0,0], "sm": 0, "start_ns": 7, "end_ns": 9}]})"
                                  << "the earliest start is 7 ns";
    QTest::newRow("negative time") << head + R"([{"block": [0,0,0], "sm": 0, "start_ns": -1, "end_ns": 9}]})"
                                   << ".start_ns and .end_ns must be whole numbers";
}

void TestScheduleJson::malformed_is_refused() {
    QFETCH(QByteArray, json);
    QFETCH(QString, expected);
    const QString path = dir_.filePath("bad.json");
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(json);
    f.close();
    const LoadedSchedule l = read_schedule_json(path);
    QVERIFY(!l.ok());
    QVERIFY2(l.error.contains(QDir::toNativeSeparators(path)), qPrintable(l.error));
    QVERIFY2(l.error.contains(expected), qPrintable(l.error));
}

void TestScheduleJson::unreadable_file_is_named() {
    const QString path = dir_.filePath("missing.json");
    const LoadedSchedule l = read_schedule_json(path);
    QVERIFY(!l.ok());
    QVERIFY2(l.error.startsWith("cannot read '" + QDir::toNativeSeparators(path) + "'"), qPrintable(l.error));
    QVERIFY2(!write_schedule_json(dir_.filePath("no/such/dir/s.json"), sample()).isEmpty(), "a write into a missing folder fails");
}

QTEST_GUILESS_MAIN(TestScheduleJson)
#include "tst_schedule_json.moc"
