#include "app/io/image_loader.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QImageReader>

#include <algorithm>
#include <cmath>
#include <new>

namespace cvz {

namespace {

// The path as the user gave it, with the platform's separators, quoted for messages.
QString shown(const QString& path) { return "'" + QDir::toNativeSeparators(path) + "'"; }

LoadedImage failure(const QString& path, const QString& problem) {
    LoadedImage result;
    result.error = "Cannot load " + shown(path) + ": " + problem;
    return result;
}

// Problems visible from the file system alone, before any byte is decoded; empty when none. Opens
// `file` for reading: the decoder reads the file opened here, so a file deleted or made unreadable
// after these checks is still the one that was checked.
QString file_problem(const QString& path, QFile* file) {
    const QFileInfo info(path);
    if (!info.exists()) return "no such file";
    if (info.isDir()) return "it is a directory, not an image file";
    if (!info.isFile()) return "it is not a regular file";
    file->setFileName(path);
    if (!file->open(QIODevice::ReadOnly))  // permissions, and anything else open() refuses
        return "the file cannot be read (" + file->errorString() + ")";
    if (file->size() == 0) return "the file is empty (0 bytes)";
    return {};
}

// The bounds a call applies: the caller's, never above ImageLimits' constants.
ImageLimits effective(const ImageLimits& asked) {
    ImageLimits l;
    l.max_pixels = std::clamp<qint64>(asked.max_pixels, 1, ImageLimits::kMaxPixels);
    l.max_side = std::clamp(asked.max_side, 1, ImageLimits::kMaxSide);
    return l;
}

// Empty when `size` is within `limits`, else a sentence naming the declared and allowed sizes.
QString size_problem(const QSize& size, const ImageLimits& limits) {
    if (size.width() <= 0 || size.height() <= 0)
        return QString("the image declares %1 x %2 pixels, which is empty").arg(size.width()).arg(size.height());
    const qint64 pixels = qint64(size.width()) * size.height();
    if (size.width() > limits.max_side || size.height() > limits.max_side || pixels > limits.max_pixels) {
        const auto square = qint64(std::sqrt(double(limits.max_pixels)));
        const QString as_square = square * square == limits.max_pixels
                                      ? QString(" (%1 x %1)").arg(square)
                                      : QString();
        return QString("the image declares %1 x %2 pixels, more than the limit of %3 pixels%4 "
                       "and %5 pixels per side")
            .arg(size.width())
            .arg(size.height())
            .arg(limits.max_pixels)
            .arg(as_square)
            .arg(limits.max_side);
    }
    return {};
}

// Why QImageReader::read failed. `size_known` tells a header Qt could read (so the pixel data is at
// fault) from one it could not: Qt's own handlers refuse some impossible sizes there (BMP over 2^28
// pixels, say) without saying so.
QString decode_problem(const QImageReader& reader, bool size_known) {
    const QString qt_says = " (" + reader.errorString() + ")";
    switch (reader.error()) {
        case QImageReader::UnsupportedFormatError:
            return "not an image, or a format this build of Qt cannot read" + qt_says;
        case QImageReader::DeviceError: return "the file could not be read" + qt_says;
        case QImageReader::InvalidDataError:
        case QImageReader::UnknownError:
        case QImageReader::FileNotFoundError: break;
    }
    if (!size_known) return "the image header is damaged or declares an impossible size" + qt_says;
    return "the image data is truncated or corrupt" + qt_says;
}

// Qt refuses to decode into a QImage larger than QImageReader::allocationLimit() (128 MiB by default).
// Where the header declared a size within the limits, allow what it needs at up to 8 bytes per pixel
// (16-bit RGBA). Where the handler cannot tell the size before decoding (ICNS, MNG), allow only what
// the largest legal image needs at 4 bytes per pixel: a 120-byte MNG declaring 64262 x 8349 pixels
// would otherwise have Qt allocate and fill 2 GiB before the decoded size could be checked. Never
// below Qt's default, which the rest of the program (icons) relies on. The limit is process-wide; it
// is set for each load.
void set_allocation_limit(const QSize& declared, const ImageLimits& limits) {
    constexpr qint64 kMiB = 1024 * 1024;
    constexpr qint64 kQtDefaultMiB = 128;
    const qint64 bytes = declared.isValid() ? qint64(declared.width()) * declared.height() * 8 : limits.max_pixels * 4;
    static_assert(ImageLimits::kMaxPixels * 8 / kMiB <= 0x7fffffff, "allocation limit is an int in MiB");
    QImageReader::setAllocationLimit(int(std::max(kQtDefaultMiB, (bytes + kMiB - 1) / kMiB)));
}

}  // namespace

// Alpha is dropped, not composited: the colour channels are kept as stored (as PIL's convert("RGB")
// does), so a pixel's grey value does not depend on an invented background colour.
LoadedImage load_image(const QString& path, const ImageLimits& asked) {
    const ImageLimits limits = effective(asked);
    QFile file;
    if (const QString problem = file_problem(path, &file); !problem.isEmpty()) return failure(path, problem);

    QImageReader reader(&file);  // a QFile: Qt still takes the file name's suffix as a format hint
    reader.setAutoTransform(true);  // EXIF orientation

    // Some of Qt's handlers allocate what a header declares before reading it (an ICNS entry of 139
    // bytes may ask for 2 GiB); where that allocation fails, Qt throws std::bad_alloc, which must end
    // as a message here, not as std::terminate on the worker thread.
    try {
        if (!reader.canRead()) return failure(path, decode_problem(reader, false));
        const QString format = QString::fromLatin1(reader.format());  // known once canRead() chose a handler

        // A handler that cannot tell the size without decoding is still guarded by the allocation limit,
        // and the decoded size is checked again below.
        const QSize declared = reader.size();
        if (declared.isValid())
            if (const QString problem = size_problem(declared, limits); !problem.isEmpty()) return failure(path, problem);
        set_allocation_limit(declared, limits);

        QImage decoded;
        if (!reader.read(&decoded) || decoded.isNull()) return failure(path, decode_problem(reader, declared.isValid()));
        if (const QString problem = size_problem(decoded.size(), limits); !problem.isEmpty()) return failure(path, problem);

        LoadedImage result;
        result.format = format;
        result.rgb = decoded.convertToFormat(QImage::Format_RGB888);
        if (result.rgb.isNull()) return failure(path, "not enough memory to convert the image to 8-bit RGB");
        return result;
    } catch (const std::bad_alloc&) {
        return failure(path, "not enough memory to decode it (the file may declare far more data than it holds)");
    }
}

}  // namespace cvz
