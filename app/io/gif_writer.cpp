#include "app/io/gif_writer.h"

#include <QDir>
#include <QHash>
#include <QSaveFile>

#include <algorithm>
#include <vector>

#include <gif_lib.h>

namespace cvz {

namespace {

GifFileType* as_gif(void* p) { return static_cast<GifFileType*>(p); }

// giflib's output callback: the bytes go to the QSaveFile behind UserData.
int write_to_file(GifFileType* gif, const GifByteType* bytes, int count) {
    auto* file = static_cast<QSaveFile*>(gif->UserData);
    const qint64 written = file->write(reinterpret_cast<const char*>(bytes), count);
    return written < 0 ? 0 : int(written);
}

// A frame of at most 256 colours (flat overlays, diagrams) keeps every colour exactly.
bool exact_palette(const std::vector<GifByteType>& r, const std::vector<GifByteType>& g, const std::vector<GifByteType>& b,
                   std::vector<GifByteType>* indices, GifColorType* colors) {
    QHash<quint32, int> index;
    for (std::size_t i = 0; i < r.size(); ++i) {
        const quint32 key = (quint32(r[i]) << 16) | (quint32(g[i]) << 8) | b[i];
        auto it = index.constFind(key);
        if (it == index.constEnd()) {
            if (index.size() == 256) return false;
            colors[index.size()] = GifColorType{r[i], g[i], b[i]};
            it = index.insert(key, int(index.size()));
        }
        (*indices)[i] = GifByteType(it.value());
    }
    return true;
}

}  // namespace

GifWriter::GifWriter() = default;

GifWriter::~GifWriter() { discard(); }

QString GifWriter::giflibError(int code) const {
    // A short write is the file's problem (disk full, ...): say what the file said.
    if (code == E_GIF_ERR_WRITE_FAILED && file_ && !file_->errorString().isEmpty() &&
        file_->error() != QFileDevice::NoError)
        return file_->errorString();
    const char* text = GifErrorString(code);
    return text ? QString::fromUtf8(text) : QStringLiteral("giflib error %1").arg(code);
}

QString GifWriter::fail(const QString& why) {
    const QString message = QStringLiteral("Cannot write '%1': %2").arg(QDir::toNativeSeparators(path_), why);
    discard();
    return message;
}

void GifWriter::discard() {
    if (gif_) {
        int error = 0;
        EGifCloseFile(as_gif(gif_), &error);  // frees it whatever it returns
        gif_ = nullptr;
    }
    if (file_) {
        file_->cancelWriting();
        file_.reset();
    }
}

QString GifWriter::open(const QString& path, QSize size, int delay_cs) {
    discard();
    path_ = path;
    size_ = size;
    delay_cs_ = std::max(2, delay_cs);
    frames_ = 0;
    if (size.isEmpty() || size.width() > 65535 || size.height() > 65535)
        return fail(QStringLiteral("a GIF frame must be 1 to 65535 pixels wide and high, not %1 x %2")
                        .arg(size.width())
                        .arg(size.height()));
    file_ = std::make_unique<QSaveFile>(path);
    if (!file_->open(QIODevice::WriteOnly)) return fail(file_->errorString());
    int error = 0;
    GifFileType* gif = EGifOpen(file_.get(), write_to_file, &error);
    if (!gif) return fail(giflibError(error));
    gif_ = gif;
    EGifSetGifVersion(gif, true);  // GIF89a: frame delays and looping
    // No global colour map: every frame brings its own.
    if (EGifPutScreenDesc(gif, size.width(), size.height(), 8, 0, nullptr) == GIF_ERROR) return fail(giflibError(gif->Error));
    // The NETSCAPE2.0 application extension: loop forever (count 0).
    static const GifByteType kNetscape[] = {'N', 'E', 'T', 'S', 'C', 'A', 'P', 'E', '2', '.', '0'};
    static const GifByteType kLoopForever[] = {1, 0, 0};
    if (EGifPutExtensionLeader(gif, APPLICATION_EXT_FUNC_CODE) == GIF_ERROR ||
        EGifPutExtensionBlock(gif, sizeof kNetscape, kNetscape) == GIF_ERROR ||
        EGifPutExtensionBlock(gif, sizeof kLoopForever, kLoopForever) == GIF_ERROR ||
        EGifPutExtensionTrailer(gif) == GIF_ERROR)
        return fail(giflibError(gif->Error));
    return {};
}

QString GifWriter::addFrame(const QImage& frame) {
    if (!gif_) return QStringLiteral("Cannot write '%1': the GIF is not open").arg(QDir::toNativeSeparators(path_));
    if (frame.size() != size_)
        return fail(QStringLiteral("frame %1 is %2 x %3, the animation %4 x %5")
                        .arg(frames_ + 1)
                        .arg(frame.width())
                        .arg(frame.height())
                        .arg(size_.width())
                        .arg(size_.height()));
    GifFileType* gif = as_gif(gif_);
    const QImage rgb = frame.convertToFormat(QImage::Format_RGB888);
    const std::size_t n = std::size_t(size_.width()) * std::size_t(size_.height());
    std::vector<GifByteType> r(n), g(n), b(n), indices(n);
    for (int y = 0; y < size_.height(); ++y) {
        const uchar* line = rgb.constScanLine(y);
        const std::size_t row = std::size_t(y) * std::size_t(size_.width());
        for (int x = 0; x < size_.width(); ++x) {
            r[row + std::size_t(x)] = line[3 * x];
            g[row + std::size_t(x)] = line[3 * x + 1];
            b[row + std::size_t(x)] = line[3 * x + 2];
        }
    }
    GifColorType colors[256] = {};
    if (!exact_palette(r, g, b, &indices, colors)) {
        // More than 256 colours: giflib's median cut (it works on 5 bits per channel).
        int color_count = 256;
        if (GifQuantizeBuffer(unsigned(size_.width()), unsigned(size_.height()), &color_count, r.data(), g.data(),
                              b.data(), indices.data(), colors) == GIF_ERROR)
            return fail(QStringLiteral("giflib could not reduce frame %1 to 256 colours").arg(frames_ + 1));
    }
    // The map's size must be a power of two; unused entries stay black.
    ColorMapObject* map = GifMakeMapObject(256, colors);
    if (!map) return fail(QStringLiteral("not enough memory for a colour map"));

    GraphicsControlBlock control{};
    control.DisposalMode = DISPOSAL_UNSPECIFIED;  // every frame covers the whole screen
    control.UserInputFlag = false;
    control.DelayTime = delay_cs_;
    control.TransparentColor = NO_TRANSPARENT_COLOR;
    GifByteType extension[4];
    const size_t length = EGifGCBToExtension(&control, extension);
    bool ok = EGifPutExtension(gif, GRAPHICS_EXT_FUNC_CODE, int(length), extension) != GIF_ERROR &&
              EGifPutImageDesc(gif, 0, 0, size_.width(), size_.height(), false, map) != GIF_ERROR;
    GifFreeMapObject(map);  // EGifPutImageDesc keeps a copy
    for (int y = 0; ok && y < size_.height(); ++y)
        ok = EGifPutLine(gif, indices.data() + std::size_t(y) * std::size_t(size_.width()), size_.width()) != GIF_ERROR;
    if (!ok) return fail(giflibError(gif->Error));
    ++frames_;
    return {};
}

QString GifWriter::finish() {
    if (!gif_) return QStringLiteral("Cannot write '%1': the GIF is not open").arg(QDir::toNativeSeparators(path_));
    if (frames_ == 0) return fail(QStringLiteral("an animation needs at least one frame"));
    int error = 0;
    const int closed = EGifCloseFile(as_gif(gif_), &error);  // writes the trailer; frees the handle either way
    gif_ = nullptr;
    if (closed == GIF_ERROR) return fail(giflibError(error));
    if (!file_->commit()) {
        const QString why = file_->errorString();
        file_.reset();
        return fail(why);
    }
    file_.reset();
    return {};
}

}  // namespace cvz
