#pragma once
#include <QWidget>

#include <functional>

#include "ui/views/overlay_state.h"

namespace cvz {

// The key to the overlay, as a strip under the images: what the colours mean in the current
// colouring (blocks, a thread ramp, the warps of a block), the idle-thread hatch with how many
// threads are idle, block boundaries, the guard line, running blocks and the selection. Drawn with
// the same colour functions and constants as the views. Items flow left to right and wrap.
class OverlayLegend : public QWidget {
    Q_OBJECT
public:
    explicit OverlayLegend(QWidget* parent = nullptr);

    void setState(const OverlayState& state);
    QStringList captions() const;  // the items' texts, in order (for tests)

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;
    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override;

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    enum class Key { Colors, Idle, Boundary, Guard, Running, Selection };
    struct Item {
        Key key;
        QString text;
    };
    QList<Item> items() const;
    // Lays the items out for `width`; calls `place` with each item's rectangle. Returns the height.
    int layout(int width, const std::function<void(const Item&, const QRect& swatch, const QRect& text)>& place) const;
    void paintSwatch(QPainter& p, Key key, const QRect& r) const;
    QString colorCaption() const;
    QString idleCaption() const;
    QString boundaryCaption() const;

    OverlayState state_;
};

}  // namespace cvz
