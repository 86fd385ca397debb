// GifWriter (app/gif_writer.h): animated GIFs through giflib, read back with Qt's GIF reader; errors
// name the file; a failed or abandoned GIF leaves nothing behind.
#include <QtTest>

#include <QFile>
#include <QImageReader>
#include <QTemporaryDir>

#include "app/io/gif_writer.h"

using namespace cvz;

namespace {

QImage solid(QSize size, QRgb colour) {
    QImage image(size, QImage::Format_RGB32);
    image.fill(colour);
    return image;
}

// Left half one colour, right half another, a one-pixel column of a third between: every pixel's
// colour must survive the 256-colour map exactly (there are only three).
QImage split(QSize size, QRgb left, QRgb right, QRgb line) {
    QImage image = solid(size, left);
    for (int y = 0; y < size.height(); ++y) {
        for (int x = size.width() / 2; x < size.width(); ++x) image.setPixel(x, y, right);
        image.setPixel(size.width() / 2, y, line);
    }
    return image;
}

}  // namespace

class TestGifWriter : public QObject {
    Q_OBJECT
private slots:
    void frames_read_back_exactly();
    void many_colours_quantised_closely();
    void delay_and_loop_written();
    void wrong_frame_size_is_refused();
    void unwritable_path_names_the_file();
    void abandoned_writer_leaves_no_file();
};

void TestGifWriter::frames_read_back_exactly() {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("anim.gif"));
    const QSize size(37, 21);  // odd, non-square
    const QList<QImage> frames = {split(size, qRgb(255, 0, 0), qRgb(0, 0, 255), qRgb(255, 255, 255)),
                                  split(size, qRgb(10, 200, 30), qRgb(250, 250, 0), qRgb(0, 0, 0)),
                                  solid(size, qRgb(0x30, 0x30, 0x30))};
    GifWriter writer;
    QCOMPARE(writer.open(path, size, 25), QString());
    for (const QImage& frame : frames) QCOMPARE(writer.addFrame(frame), QString());
    QCOMPARE(writer.frames(), 3);
    QCOMPARE(writer.finish(), QString());

    QImageReader reader(path);
    QCOMPARE(reader.format(), QByteArray("gif"));
    QVERIFY(reader.supportsAnimation());
    QCOMPARE(reader.imageCount(), 3);
    for (int i = 0; i < frames.size(); ++i) {
        const QImage got = reader.read().convertToFormat(QImage::Format_RGB32);
        QVERIFY2(!got.isNull(), qPrintable(reader.errorString()));
        QCOMPARE(got.size(), size);
        for (int y = 0; y < size.height(); ++y)
            for (int x = 0; x < size.width(); ++x)
                QVERIFY2((got.pixel(x, y) & 0xffffff) == (frames[i].pixel(x, y) & 0xffffff),
                         qPrintable(QStringLiteral("frame %1 pixel %2,%3").arg(i).arg(x).arg(y)));
    }
}

void TestGifWriter::many_colours_quantised_closely() {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("gradient.gif"));
    const QSize size(64, 48);
    QImage gradient(size, QImage::Format_RGB32);  // 3072 colours
    for (int y = 0; y < size.height(); ++y)
        for (int x = 0; x < size.width(); ++x) gradient.setPixel(x, y, qRgb(x * 4, y * 5, (x + y) * 2));
    GifWriter writer;
    QCOMPARE(writer.open(path, size, 10), QString());
    QCOMPARE(writer.addFrame(gradient), QString());
    QCOMPARE(writer.finish(), QString());
    const QImage got = QImage(path).convertToFormat(QImage::Format_RGB32);
    QCOMPARE(got.size(), size);
    int worst = 0;
    for (int y = 0; y < size.height(); ++y)
        for (int x = 0; x < size.width(); ++x) {
            const QRgb a = got.pixel(x, y), b = gradient.pixel(x, y);
            worst = std::max({worst, std::abs(qRed(a) - qRed(b)), std::abs(qGreen(a) - qGreen(b)), std::abs(qBlue(a) - qBlue(b))});
        }
    QVERIFY2(worst <= 40, qPrintable(QString::number(worst)));  // 256 boxes for 3072 colours: close, not exact
}

void TestGifWriter::delay_and_loop_written() {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("delay.gif"));
    GifWriter writer;
    QCOMPARE(writer.open(path, QSize(8, 5), 40), QString());
    QCOMPARE(writer.addFrame(solid(QSize(8, 5), qRgb(1, 2, 3))), QString());
    QCOMPARE(writer.addFrame(solid(QSize(8, 5), qRgb(200, 100, 50))), QString());
    QCOMPARE(writer.finish(), QString());
    QImageReader reader(path);
    QCOMPARE(reader.loopCount(), -1);  // Qt's "forever": NETSCAPE2.0 with count 0
    QVERIFY(!reader.read().isNull());
    QCOMPARE(reader.nextImageDelay(), 400);  // 40 hundredths of a second, in milliseconds

    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray bytes = file.readAll();
    QVERIFY(bytes.startsWith("GIF89a"));
    QVERIFY(bytes.contains("NETSCAPE2.0"));
    QVERIFY(bytes.endsWith(";"));  // the trailer
}

void TestGifWriter::wrong_frame_size_is_refused() {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("size.gif"));
    GifWriter writer;
    QCOMPARE(writer.open(path, QSize(10, 10), 10), QString());
    const QString error = writer.addFrame(solid(QSize(11, 10), qRgb(0, 0, 0)));
    QVERIFY(error.contains(QStringLiteral("size.gif")));
    QVERIFY2(error.contains(QStringLiteral("11 x 10")), qPrintable(error));
    QVERIFY(!QFile::exists(path));
    QVERIFY(!writer.finish().isEmpty());  // closed by the failure

    GifWriter empty;
    QVERIFY(empty.open(dir.filePath(QStringLiteral("zero.gif")), QSize(0, 4), 10).contains(QStringLiteral("zero.gif")));
    GifWriter no_frames;
    QCOMPARE(no_frames.open(dir.filePath(QStringLiteral("none.gif")), QSize(4, 4), 10), QString());
    QVERIFY(no_frames.finish().contains(QStringLiteral("at least one frame")));
    QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("none.gif"))));
}

void TestGifWriter::unwritable_path_names_the_file() {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("missing/folder/anim.gif"));
    GifWriter writer;
    const QString error = writer.open(path, QSize(4, 4), 10);
    QVERIFY2(error.contains(QDir::toNativeSeparators(path)), qPrintable(error));
    QVERIFY2(error.startsWith(QStringLiteral("Cannot write")), qPrintable(error));
}

void TestGifWriter::abandoned_writer_leaves_no_file() {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("abandoned.gif"));
    {
        GifWriter writer;
        QCOMPARE(writer.open(path, QSize(6, 6), 10), QString());
        QCOMPARE(writer.addFrame(solid(QSize(6, 6), qRgb(9, 9, 9))), QString());
    }  // destroyed before finish(): a cancelled export
    QVERIFY(!QFile::exists(path));
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files).size(), 0);  // no temporary left either
}

QTEST_GUILESS_MAIN(TestGifWriter)
#include "tst_gif_writer.moc"
