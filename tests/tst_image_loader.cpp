// load_image against good files of every kind Qt writes (and a hand-made GIF), against conversions to
// 8-bit RGB (palette, grey, alpha, 16-bit), EXIF orientation, and against bad files, each of which
// must give a message naming the file and the problem.
#include <QtTest>

#include <QColor>
#include <QDataStream>
#include <QDir>
#include <QFile>
#include <QImageReader>
#include <QImageWriter>
#include <QTemporaryDir>

#include <unistd.h>

#include "app/io/image_loader.h"

using namespace cvz;

namespace {

// ---- byte builders for files Qt cannot be asked to write ----

QByteArray be32(quint32 v) {
    QByteArray b;
    QDataStream(&b, QIODevice::WriteOnly) << v;  // QDataStream is big-endian by default
    return b;
}

quint32 crc32(const QByteArray& bytes) {
    quint32 crc = 0xFFFFFFFFu;
    for (char c : bytes) {
        crc ^= quint8(c);
        for (int k = 0; k < 8; ++k) crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
    }
    return ~crc;
}

QByteArray png_chunk(const QByteArray& type, const QByteArray& data) {
    return be32(quint32(data.size())) + type + data + be32(crc32(type + data));
}

// A PNG whose IHDR declares width x height RGB pixels, with correct CRCs and a token IDAT (libpng
// reads the header up to the first IDAT; the data is never reached).
QByteArray png_declaring(quint32 width, quint32 height) {
    QByteArray ihdr = be32(width) + be32(height);
    ihdr += char(8);  // bit depth
    ihdr += char(2);  // colour type: RGB
    ihdr += QByteArray(3, '\0');  // compression, filter, interlace
    return QByteArray("\x89PNG\r\n\x1a\n", 8) + png_chunk("IHDR", ihdr) + png_chunk("IDAT", QByteArray(16, '\0')) +
           png_chunk("IEND", {});
}

// A BMP whose BITMAPINFOHEADER declares width x height 24-bit pixels, with no pixel data.
QByteArray bmp_declaring(qint32 width, qint32 height) {
    QByteArray b;
    QDataStream s(&b, QIODevice::WriteOnly);
    s.setByteOrder(QDataStream::LittleEndian);
    s.writeRawData("BM", 2);
    s << quint32(54) << quint32(0) << quint32(54);                     // file size, reserved, pixel offset
    s << quint32(40) << width << height << quint16(1) << quint16(24);  // info header size, w, h, planes, bpp
    s << quint32(0) << quint32(0) << qint32(2835) << qint32(2835) << quint32(0) << quint32(0);
    return b;
}

// A GIF89a of `indices` (one byte per pixel into a 4-colour table). Qt reads GIF but cannot write it.
// The LZW stream sends a clear code before every pixel, so no table entry is ever made and every code
// stays 3 bits wide: valid for any decoder, just not compressed.
QByteArray gif_bytes(const QVector<QRgb>& palette, const QByteArray& indices, quint16 width, quint16 height) {
    QByteArray b("GIF89a");
    QDataStream s(&b, QIODevice::Append);
    s.setByteOrder(QDataStream::LittleEndian);
    s << width << height << quint8(0x91) << quint8(0) << quint8(0);  // global table of 4 colours
    for (QRgb c : palette) s << quint8(qRed(c)) << quint8(qGreen(c)) << quint8(qBlue(c));
    s << quint8(0x2C) << quint16(0) << quint16(0) << width << height << quint8(0);
    s << quint8(2);  // LZW minimum code size: clear = 4, end = 5

    QByteArray lzw;
    quint32 bits = 0;
    int nbits = 0;
    auto emit_code = [&](quint32 code) {
        bits |= code << nbits;
        nbits += 3;
        while (nbits >= 8) {
            lzw += char(bits & 0xFF);
            bits >>= 8;
            nbits -= 8;
        }
    };
    for (char index : indices) {
        emit_code(4);
        emit_code(quint8(index));
    }
    emit_code(5);
    if (nbits > 0) lzw += char(bits & 0xFF);
    for (int at = 0; at < lzw.size(); at += 255) {
        const QByteArray block = lzw.mid(at, 255);
        s << quint8(block.size());
        s.writeRawData(block.constData(), int(block.size()));
    }
    s << quint8(0) << quint8(0x3B);  // end of image data, trailer
    return b;
}

// An APP1 Exif segment holding one IFD entry: Orientation (0x0112), SHORT, = `orientation`.
QByteArray exif_orientation_segment(quint16 orientation) {
    QByteArray tiff("MM\x00\x2A", 4);
    tiff += be32(8);                                  // IFD0 right after the header
    tiff += QByteArray("\x00\x01", 2);                // one entry
    tiff += QByteArray("\x01\x12\x00\x03", 4);        // tag Orientation, type SHORT
    tiff += be32(1);                                  // count
    tiff += char(orientation >> 8);
    tiff += char(orientation & 0xFF);
    tiff += QByteArray(2, '\0');                      // value padded to 4 bytes
    tiff += be32(0);                                  // no next IFD
    const QByteArray payload = QByteArray("Exif\0\0", 6) + tiff;
    const int length = int(payload.size()) + 2;       // the length field counts itself
    return QByteArray("\xFF\xE1", 2) + char(length >> 8) + char(length & 0xFF) + payload;
}

// ---- images ----

const QVector<QRgb> kQuadrantColours = {qRgb(200, 30, 40), qRgb(20, 180, 60), qRgb(10, 40, 220), qRgb(128, 128, 128)};

int quadrant_of(int x, int y, int w, int h) { return (y < h / 2 ? 0 : 2) + (x < w / 2 ? 0 : 1); }

QImage quadrants(int w, int h) {
    QImage img(w, h, QImage::Format_RGB888);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) img.setPixel(x, y, kQuadrantColours[quadrant_of(x, y, w, h)]);
    return img;
}

QByteArray quadrant_indices(int w, int h) {
    QByteArray idx;
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) idx += char(quadrant_of(x, y, w, h));
    return idx;
}

bool write_file(const QString& path, const QByteArray& bytes) {
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

QByteArray read_file(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

QString rgb_text(QRgb c) { return QString("(%1, %2, %3)").arg(qRed(c)).arg(qGreen(c)).arg(qBlue(c)); }

bool near(QRgb a, QRgb b, int tolerance) {
    return std::abs(qRed(a) - qRed(b)) <= tolerance && std::abs(qGreen(a) - qGreen(b)) <= tolerance &&
           std::abs(qBlue(a) - qBlue(b)) <= tolerance;
}

const QString kChelsea = QStringLiteral(CUDAVIZ_SOURCE_DIR "/resources/samples/chelsea.png");

}  // namespace

class TestImageLoader : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void loads_bundled_sample();
    void loads_every_format_data();
    void loads_every_format();
    void palette_becomes_rgb();
    void grayscale_becomes_rgb();
    void alpha_is_dropped();
    void sixteen_bit_becomes_eight_data();
    void sixteen_bit_becomes_eight();
    void exif_orientation_is_applied();
    void image_over_qt_default_allocation_limit_loads();
    void bad_files_are_refused_data();
    void bad_files_are_refused();

private:
    QString path(const QString& name) const { return dir_.filePath(name); }
    QTemporaryDir dir_;
};

void TestImageLoader::initTestCase() { QVERIFY(dir_.isValid()); }

void TestImageLoader::loads_bundled_sample() {
    const LoadedImage img = load_image(kChelsea);
    QVERIFY2(img.ok(), qPrintable(img.error));
    QCOMPARE(img.rgb.size(), QSize(451, 300));
    QCOMPARE(img.rgb.format(), QImage::Format_RGB888);
    QCOMPARE(img.format, QString("png"));
    QCOMPARE(img.rgb, QImage(kChelsea).convertToFormat(QImage::Format_RGB888));
}

void TestImageLoader::loads_every_format_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("format");
    QTest::addColumn<int>("tolerance");  // -1: lossless, every pixel must match
    const int w = 37, h = 23;  // odd and not square
    const QImage src = quadrants(w, h);
    struct Written {
        const char* name;
        const char* format;
        int tolerance;
    };
    for (const Written& f : {Written{"q.png", "png", -1}, Written{"q.bmp", "bmp", -1}, Written{"q.tif", "tiff", -1},
                             Written{"q.jpg", "jpeg", 12}, Written{"q.webp", "webp", 12}}) {
        if (!QImageWriter::supportedImageFormats().contains(f.format)) continue;  // a plugin not installed
        QVERIFY(src.save(path(f.name), f.format, f.tolerance < 0 ? -1 : 100));
        QTest::newRow(f.format) << path(f.name) << QString(f.format) << f.tolerance;
    }
    QVERIFY(write_file(path("q.gif"), gif_bytes(kQuadrantColours, quadrant_indices(w, h), w, h)));
    QTest::newRow("gif (hand-made)") << path("q.gif") << QString("gif") << -1;
    // Content decides, not the name.
    QVERIFY(src.save(path("png-named.jpg"), "png"));
    QTest::newRow("png named .jpg") << path("png-named.jpg") << QString("png") << -1;
}

void TestImageLoader::loads_every_format() {
    QFETCH(QString, file);
    QFETCH(QString, format);
    QFETCH(int, tolerance);
    const LoadedImage img = load_image(file);
    QVERIFY2(img.ok(), qPrintable(img.error));
    QCOMPARE(img.format, format);
    QCOMPARE(img.rgb.format(), QImage::Format_RGB888);
    const QImage src = quadrants(37, 23);
    QCOMPARE(img.rgb.size(), src.size());
    if (tolerance < 0) {
        QCOMPARE(img.rgb, src);
        return;
    }
    for (QPoint p : {QPoint(9, 5), QPoint(27, 5), QPoint(9, 17), QPoint(27, 17)}) {  // quadrant centres
        const QRgb got = img.rgb.pixel(p), want = src.pixel(p);
        const QString where = QString("at %1,%2: ").arg(p.x()).arg(p.y());
        QVERIFY2(near(got, want, tolerance), qPrintable(where + rgb_text(got) + ", expected " + rgb_text(want)));
    }
}

void TestImageLoader::palette_becomes_rgb() {
    QImage src(5, 3, QImage::Format_Indexed8);
    src.setColorTable({qRgb(255, 0, 0), qRgb(0, 0, 255), qRgb(12, 200, 99)});
    for (int y = 0; y < 3; ++y)
        for (int x = 0; x < 5; ++x) src.setPixel(x, y, uint((x + y) % 3));
    QVERIFY(src.save(path("palette.png")));
    QCOMPARE(QImageReader(path("palette.png")).imageFormat(), QImage::Format_Indexed8);  // really a palette file

    const LoadedImage img = load_image(path("palette.png"));
    QVERIFY2(img.ok(), qPrintable(img.error));
    QCOMPARE(img.rgb.format(), QImage::Format_RGB888);
    for (int y = 0; y < 3; ++y)
        for (int x = 0; x < 5; ++x) QCOMPARE(img.rgb.pixel(x, y), src.colorTable()[(x + y) % 3]);
}

void TestImageLoader::grayscale_becomes_rgb() {
    QImage src(7, 2, QImage::Format_Grayscale8);
    for (int y = 0; y < 2; ++y)
        for (int x = 0; x < 7; ++x) src.scanLine(y)[x] = uchar(x * 40 + y);
    QVERIFY(src.save(path("grey.png")));
    QCOMPARE(QImageReader(path("grey.png")).imageFormat(), QImage::Format_Grayscale8);

    const LoadedImage img = load_image(path("grey.png"));
    QVERIFY2(img.ok(), qPrintable(img.error));
    QCOMPARE(img.rgb.format(), QImage::Format_RGB888);
    for (int y = 0; y < 2; ++y)
        for (int x = 0; x < 7; ++x) {
            const int v = x * 40 + y;
            QCOMPARE(img.rgb.pixel(x, y), qRgb(v, v, v));
        }
}

// Alpha is dropped, not composited: the stored colour survives whatever the alpha.
void TestImageLoader::alpha_is_dropped() {
    QImage src(4, 1, QImage::Format_ARGB32);
    src.setPixel(0, 0, qRgba(200, 100, 50, 128));
    src.setPixel(1, 0, qRgba(10, 20, 30, 0));
    src.setPixel(2, 0, qRgba(1, 2, 3, 255));
    src.setPixel(3, 0, qRgba(255, 255, 255, 1));
    QVERIFY(src.save(path("alpha.png")));
    QVERIFY(QImageReader(path("alpha.png")).imageFormat() == QImage::Format_ARGB32);

    const LoadedImage img = load_image(path("alpha.png"));
    QVERIFY2(img.ok(), qPrintable(img.error));
    QCOMPARE(img.rgb.format(), QImage::Format_RGB888);
    QCOMPARE(img.rgb.pixel(0, 0), qRgb(200, 100, 50));
    QCOMPARE(img.rgb.pixel(1, 0), qRgb(10, 20, 30));
    QCOMPARE(img.rgb.pixel(2, 0), qRgb(1, 2, 3));
    QCOMPARE(img.rgb.pixel(3, 0), qRgb(255, 255, 255));
}

void TestImageLoader::sixteen_bit_becomes_eight_data() {
    QTest::addColumn<int>("format");
    QTest::newRow("RGBA64") << int(QImage::Format_RGBA64);
    QTest::newRow("Grayscale16") << int(QImage::Format_Grayscale16);
}

// 16-bit channels v * 257 must come back as exactly v.
void TestImageLoader::sixteen_bit_becomes_eight() {
    QFETCH(int, format);
    const bool grey = format == QImage::Format_Grayscale16;
    const QVector<QRgb> want = grey ? QVector<QRgb>{qRgb(0, 0, 0), qRgb(77, 77, 77), qRgb(255, 255, 255)}
                                    : QVector<QRgb>{qRgb(200, 100, 50), qRgb(10, 20, 30), qRgb(255, 0, 255)};
    QImage src(3, 2, QImage::Format(format));
    for (int y = 0; y < 2; ++y)
        for (int x = 0; x < 3; ++x) {
            const QRgb c = want[x];
            if (grey) {
                reinterpret_cast<quint16*>(src.scanLine(y))[x] = quint16(qRed(c) * 257);
            } else {
                const quint16 alpha = y == 0 ? 65535 : 30000;  // the second row is translucent
                src.setPixelColor(x, y, QColor::fromRgba64(quint16(qRed(c) * 257), quint16(qGreen(c) * 257),
                                                           quint16(qBlue(c) * 257), alpha));
            }
        }
    const QString file = path(grey ? "grey16.png" : "rgba64.png");
    QVERIFY(src.save(file));
    QCOMPARE(QImageReader(file).imageFormat(), QImage::Format(format));  // really 16 bits per channel

    const LoadedImage img = load_image(file);
    QVERIFY2(img.ok(), qPrintable(img.error));
    QCOMPARE(img.rgb.format(), QImage::Format_RGB888);
    QCOMPARE(img.rgb.size(), QSize(3, 2));
    for (int y = 0; y < 2; ++y)
        for (int x = 0; x < 3; ++x) {
            const QString where = QString("at %1,%2: ").arg(x).arg(y);
            QVERIFY2(img.rgb.pixel(x, y) == want[x],
                     qPrintable(where + rgb_text(img.rgb.pixel(x, y)) + ", expected " + rgb_text(want[x])));
        }
}

// A 64x32 JPEG with a red square at its top-left, tagged Orientation = 6 ("rotate 90 degrees clockwise
// to display"): it must load as 32x64 with the square at the top-right.
void TestImageLoader::exif_orientation_is_applied() {
    QImage src(64, 32, QImage::Format_RGB888);
    src.fill(Qt::white);
    for (int y = 0; y < 16; ++y)
        for (int x = 0; x < 16; ++x) src.setPixel(x, y, qRgb(255, 0, 0));
    QVERIFY(src.save(path("plain.jpg"), "jpeg", 100));
    QByteArray jpeg = read_file(path("plain.jpg"));
    QVERIFY(jpeg.startsWith("\xFF\xD8"));
    jpeg.insert(2, exif_orientation_segment(6));
    QVERIFY(write_file(path("rotated.jpg"), jpeg));
    QCOMPARE(QImageReader(path("rotated.jpg")).transformation(), QImageIOHandler::TransformationRotate90);

    const LoadedImage plain = load_image(path("plain.jpg"));  // the control: no tag, no rotation
    QVERIFY2(plain.ok(), qPrintable(plain.error));
    QCOMPARE(plain.rgb.size(), QSize(64, 32));

    const LoadedImage img = load_image(path("rotated.jpg"));
    QVERIFY2(img.ok(), qPrintable(img.error));
    QCOMPARE(img.rgb.size(), QSize(32, 64));
    const QRgb top_right = img.rgb.pixel(32 - 8, 8), top_left = img.rgb.pixel(8, 8);
    const QRgb bottom_right = img.rgb.pixel(32 - 8, 64 - 8);
    QVERIFY2(near(top_right, qRgb(255, 0, 0), 16), qPrintable(rgb_text(top_right)));
    QVERIFY2(near(top_left, qRgb(255, 255, 255), 16), qPrintable(rgb_text(top_left)));
    QVERIFY2(near(bottom_right, qRgb(255, 255, 255), 16), qPrintable(rgb_text(bottom_right)));
}

// 12000 x 12000 grey decodes to 137 MiB, which Qt's default 128 MiB allocation limit refuses; it is
// well inside ImageLimits, so load_image must accept it.
void TestImageLoader::image_over_qt_default_allocation_limit_loads() {
    {
        QImage src(12000, 12000, QImage::Format_Grayscale8);
        QVERIFY(!src.isNull());
        src.fill(77);
        src.scanLine(11999)[11999] = 200;
        QVERIFY(src.save(path("big.png"), "png", 0));
    }
    const LoadedImage img = load_image(path("big.png"));
    QVERIFY2(img.ok(), qPrintable(img.error));
    QCOMPARE(img.rgb.size(), QSize(12000, 12000));
    QCOMPARE(img.rgb.pixel(0, 0), qRgb(77, 77, 77));
    QCOMPARE(img.rgb.pixel(11999, 11999), qRgb(200, 200, 200));
    QFile::remove(path("big.png"));
}

void TestImageLoader::bad_files_are_refused_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("problem");  // what the message must say, besides the file's name

    QVERIFY(write_file(path("empty.png"), {}));
    QTest::newRow("empty") << path("empty.png") << "empty";

    const QByteArray chelsea = read_file(kChelsea);
    QVERIFY(chelsea.size() > 1000);
    QVERIFY(write_file(path("truncated.png"), chelsea.left(chelsea.size() / 2)));
    QTest::newRow("truncated png") << path("truncated.png") << "truncated or corrupt";

    QByteArray damaged = chelsea;
    for (qsizetype i = damaged.size() / 2; i < damaged.size() / 2 + 64; ++i) damaged[i] = char(~damaged[i]);
    QVERIFY(write_file(path("damaged.png"), damaged));
    QTest::newRow("corrupt png data") << path("damaged.png") << "truncated or corrupt";

    QVERIFY(write_file(path("notes.txt"), "This is a text file, not a picture.\nSecond line.\n"));
    QTest::newRow("text") << path("notes.txt") << "not an image";
    QVERIFY(write_file(path("notes.png"), "This is a text file named like a picture.\n"));
    QTest::newRow("text named .png") << path("notes.png") << "not an image";

    QVERIFY(write_file(path("huge.png"), png_declaring(100000, 100000)));
    QTest::newRow("png declaring 100000x100000") << path("huge.png") << "declares 100000 x 100000 pixels";
    QVERIFY(write_file(path("many.png"), png_declaring(20000, 20000)));  // each side legal, the area not
    QTest::newRow("png over 2^28 pixels") << path("many.png") << "declares 20000 x 20000 pixels";
    // Qt's BMP reader itself rejects headers over 2^28 pixels, before its size is known to us.
    QVERIFY(write_file(path("huge.bmp"), bmp_declaring(100000, 100000)));
    QTest::newRow("bmp declaring 100000x100000") << path("huge.bmp") << "declares an impossible size";
    QVERIFY(write_file(path("long.bmp"), bmp_declaring(2000000, 1)));
    QTest::newRow("bmp side over 2^20") << path("long.bmp") << "declares 2000000 x 1 pixels";

    QTest::newRow("missing") << path("no-such-file.png") << "no such file";
    QVERIFY(QDir(dir_.path()).mkpath("folder.png"));
    QTest::newRow("directory") << path("folder.png") << "directory";

    QVERIFY(QFile::copy(kChelsea, path("locked.png")));
    QVERIFY(QFile::setPermissions(path("locked.png"), QFileDevice::Permissions()));
    QTest::newRow("unreadable") << path("locked.png") << "cannot be read";
}

void TestImageLoader::bad_files_are_refused() {
    QFETCH(QString, file);
    QFETCH(QString, problem);
    if (QTest::currentDataTag() == QByteArray("unreadable") && geteuid() == 0)
        QSKIP("running as root: permissions do not stop root from reading");
    const LoadedImage img = load_image(file);
    QVERIFY(!img.ok());
    QVERIFY(img.rgb.isNull());
    QVERIFY2(img.error.contains(QDir::toNativeSeparators(file)), qPrintable(img.error));
    QVERIFY2(img.error.contains(problem, Qt::CaseInsensitive), qPrintable(img.error));
}

QTEST_GUILESS_MAIN(TestImageLoader)
#include "tst_image_loader.moc"
