#pragma once
#include <QImage>
#include <QSize>
#include <QString>

#include <memory>

class QSaveFile;

namespace cvz {

// An animated GIF written frame by frame through giflib (Debian libgif-dev), so an export of
// hundreds of frames never holds them all: each frame gets its own colour map, exact when it has at
// most 256 colours, else giflib's median cut (GifQuantizeBuffer, 5 bits per channel); every frame
// shows for a fixed delay, and the animation loops.
// The file appears only when finish() succeeds (QSaveFile); a failure or a destroyed writer leaves
// whatever was at the path as it was. Every error is a sentence naming the file and the problem.
class GifWriter {
public:
    GifWriter();
    ~GifWriter();
    GifWriter(const GifWriter&) = delete;
    GifWriter& operator=(const GifWriter&) = delete;

    // `delay_cs`: how long each frame shows, in hundredths of a second (GIF's unit; at least 2,
    // since browsers draw shorter delays as 10).
    QString open(const QString& path, QSize size, int delay_cs);
    // `frame` must have the size given to open(); any format.
    QString addFrame(const QImage& frame);
    QString finish();
    int frames() const { return frames_; }

private:
    QString fail(const QString& why);
    QString giflibError(int code) const;
    void discard();

    QString path_;
    QSize size_;
    int delay_cs_ = 10;
    int frames_ = 0;
    std::unique_ptr<QSaveFile> file_;
    void* gif_ = nullptr;  // GifFileType*, kept out of the header so gif_lib.h stays private to app/
};

}  // namespace cvz
