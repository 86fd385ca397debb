#pragma once
#include <QRect>
#include <QSize>
#include <QWidget>

namespace cvz {

class ImageSurface;

// What a convolution block and pixel read, drawn over one of the page's views: the block's output
// tile, its input tile (the output tile grown by the mask's radius on every side: the halo, which a
// tiled variant stages in shared memory and the others read from global memory), and the pixel's
// mask window with the reads that fall outside the image (ghost cells, read as 0) hatched. A
// transparent child of the view's widget, painted through the view's own image <-> widget mapping,
// so it works over the OpenGL view and the raster fallback alike and lets the mouse through.
class TileOverlay : public QWidget {
    Q_OBJECT
public:
    struct State {
        QSize image;        // the picture's size: what lies outside it is a ghost cell
        QRect output_tile;  // in image pixels; empty: no block to show
        QRect input_tile;   // the output tile with its halo
        QRect window;       // the pixel's mask window; empty: no pixel
        bool halo_in_shared = false;  // the variant stages the halo in shared memory (says the legend)
    };

    explicit TileOverlay(ImageSurface* view);
    void setState(const State& state);
    const State& state() const { return state_; }

protected:
    void paintEvent(QPaintEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    QRectF toWidget(const QRect& image_rect) const;

    ImageSurface* view_;
    State state_;
};

}  // namespace cvz
