// parse_launch_config / validate_launch_config: the --block syntax and the block limits CUDA enforces
// (1..1024 threads per block, blockDim.x and .y each 1..1024), with messages that say what is wrong.
#include <QtTest>

#include <QRegularExpression>

#include "app/models/launch_config.h"

using namespace cvz;

Q_DECLARE_METATYPE(cvz::LaunchShape)

class TestLaunchConfig : public QObject {
    Q_OBJECT
private slots:
    void accepts_valid_blocks_data();
    void accepts_valid_blocks();
    void rejects_invalid_blocks_data();
    void rejects_invalid_blocks();
    void validates_shapes_data();
    void validates_shapes();
};

void TestLaunchConfig::accepts_valid_blocks_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<LaunchShape>("shape");
    QTest::newRow("1") << "1" << LaunchShape::one_d(1);
    QTest::newRow("256 (the lecture's 1-D)") << "256" << LaunchShape::one_d(256);
    QTest::newRow("1024 (the limit)") << "1024" << LaunchShape::one_d(1024);
    QTest::newRow("16x16 (the lecture's 2-D)") << "16x16" << LaunchShape::two_d(16, 16);
    QTest::newRow("32x32 (1024 threads)") << "32x32" << LaunchShape::two_d(32, 32);
    QTest::newRow("1024x1") << "1024x1" << LaunchShape::two_d(1024, 1);
    QTest::newRow("1x1024") << "1x1024" << LaunchShape::two_d(1, 1024);
    QTest::newRow("7x3 (odd)") << "7x3" << LaunchShape::two_d(7, 3);
}

void TestLaunchConfig::accepts_valid_blocks() {
    QFETCH(QString, text);
    QFETCH(LaunchShape, shape);
    const LaunchConfigParse parsed = parse_launch_config(text);
    QVERIFY2(parsed.ok(), qPrintable(parsed.error));
    QCOMPARE(parsed.error, QString());
    QCOMPARE(int(parsed.shape.kind), int(shape.kind));
    QCOMPARE(parsed.shape.block.x, shape.block.x);
    QCOMPARE(parsed.shape.block.y, shape.block.y);
    QCOMPARE(parsed.shape.block.z, 1u);
    QCOMPARE(validate_launch_config(parsed.shape), QString());
    QCOMPARE(QString::fromStdString(to_string(parsed.shape)), text);  // the syntax round-trips
}

void TestLaunchConfig::rejects_invalid_blocks_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("mentions");  // a pattern the message must match: the offending value or the limit
    QTest::newRow("0") << "0" << "\\b0\\b";
    QTest::newRow("1025 (over 1024)") << "1025" << "1025|1024";
    QTest::newRow("64x32 (2048 threads)") << "64x32" << "2048|1024";
    QTest::newRow("0x4") << "0x4" << "\\b0\\b";
    QTest::newRow("4x0") << "4x0" << "\\b0\\b";
    QTest::newRow("abc") << "abc" << "abc";
    QTest::newRow("empty") << "" << "(?i)block";
    QTest::newRow("16x") << "16x" << "16x";
    QTest::newRow("x16") << "x16" << "x16";
    QTest::newRow("-1") << "-1" << "-1";
    QTest::newRow("16x16x2 (3-D)") << "16x16x2" << "16x16x2";
    QTest::newRow("99999999999 (overflows 32 bits)") << "99999999999" << "99999999999|1024";
}

void TestLaunchConfig::rejects_invalid_blocks() {
    QFETCH(QString, text);
    QFETCH(QString, mentions);
    const LaunchConfigParse parsed = parse_launch_config(text);
    QVERIFY(!parsed.ok());
    QVERIFY(!parsed.error.trimmed().isEmpty());
    QVERIFY2(parsed.error.contains(QRegularExpression(mentions)),
             qPrintable(QString("message \"%1\" does not match /%2/").arg(parsed.error, mentions)));
}

void TestLaunchConfig::validates_shapes_data() {
    QTest::addColumn<LaunchShape>("shape");
    QTest::addColumn<bool>("valid");
    QTest::newRow("1-D 1") << LaunchShape::one_d(1) << true;
    QTest::newRow("1-D 1024") << LaunchShape::one_d(1024) << true;
    QTest::newRow("1-D 0") << LaunchShape::one_d(0) << false;
    QTest::newRow("1-D 1025") << LaunchShape::one_d(1025) << false;
    QTest::newRow("2-D 32x32") << LaunchShape::two_d(32, 32) << true;
    QTest::newRow("2-D 33x32") << LaunchShape::two_d(33, 32) << false;
    QTest::newRow("2-D 1x1024") << LaunchShape::two_d(1, 1024) << true;
    QTest::newRow("2-D 1x1025") << LaunchShape::two_d(1, 1025) << false;
    QTest::newRow("2-D 0x16") << LaunchShape::two_d(0, 16) << false;
    QTest::newRow("2-D 16x0") << LaunchShape::two_d(16, 0) << false;
    QTest::newRow("1-D with y = 2") << LaunchShape{GrayscaleVariant::OneD, Dim3{16, 2, 1}} << false;
}

void TestLaunchConfig::validates_shapes() {
    QFETCH(LaunchShape, shape);
    QFETCH(bool, valid);
    const QString error = validate_launch_config(shape);
    QVERIFY2(error.isEmpty() == valid, qPrintable(error.isEmpty() ? QString("accepted") : error));
}

QTEST_GUILESS_MAIN(TestLaunchConfig)
#include "tst_launch_config.moc"
