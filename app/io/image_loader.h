#pragma once
#include <QImage>
#include <QString>

namespace cvz {

// The largest image accepted, checked from the header before any pixel is decoded: 2^28 pixels
// (16384 x 16384; 768 MiB as RGB, 1 GiB while Qt decodes to 32 bits) and 2^20 pixels per side.
// README "Limits" states the same numbers.
struct ImageLimits {
    static constexpr qint64 kMaxPixels = qint64(1) << 28;
    static constexpr int kMaxSide = 1 << 20;

    // The bounds one call applies: these by default. A caller may lower them (the fuzz target does, to
    // keep its memory small); values above the constants are clamped to them.
    qint64 max_pixels = kMaxPixels;
    int max_side = kMaxSide;
};

// A decoded image as 8-bit RGB (QImage::Format_RGB888), or the reason it could not be loaded.
struct LoadedImage {
    QImage rgb;        // null on failure
    QString error;     // names the file and the problem; empty on success
    QString format;    // "png", "jpeg", ... as Qt detected it
    bool ok() const { return error.isEmpty(); }
};

// Loads any format QImageReader reads. Converts palette, grey, alpha and 16-bit images to 8-bit
// RGB, applies EXIF orientation, and refuses absurd dimensions before decoding. Alpha is dropped
// (the stored colour is kept, not composited over a background).
LoadedImage load_image(const QString& path, const ImageLimits& limits = {});

}  // namespace cvz
