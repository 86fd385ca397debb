#pragma once
// A synthetic photo for the tests: every pixel different (red across, green down, blue a mix of
// both and `seed`), extremes included, so that a swapped x/y, a wrong channel or a wrong row is seen.
#include <QImage>

#include <algorithm>

namespace cvz::test {

inline QImage make_test_image(int width, int height, int seed = 0) {
    QImage image(width, height, QImage::Format_RGB888);
    for (int y = 0; y < height; ++y) {
        uchar* line = image.scanLine(y);
        for (int x = 0; x < width; ++x) {
            line[3 * x] = uchar(x * 255 / std::max(1, width - 1));
            line[3 * x + 1] = uchar(y * 255 / std::max(1, height - 1));
            line[3 * x + 2] = uchar((x * 7 + y * 13 + seed) % 256);
        }
    }
    return image;
}

}  // namespace cvz::test
