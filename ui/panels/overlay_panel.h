#pragma once
#include <QWidget>

#include "ui/views/overlay_state.h"

class QCheckBox;
class QComboBox;
class QSlider;

namespace cvz {

// The overlay's settings: on/off, colouring, opacity, idle threads. The window's View > Grid Overlay
// action and this panel's check box are the same setting; the legend is a strip under the images.
class OverlayPanel : public QWidget {
    Q_OBJECT
public:
    explicit OverlayPanel(QWidget* parent = nullptr);

    bool overlayEnabled() const;
    void setOverlayEnabled(bool on);
    OverlayColoring coloring() const;
    void setColoring(OverlayColoring coloring);
    double opacity() const;
    void setOpacity(double opacity);  // 0..1
    bool showIdle() const;
    void setShowIdle(bool show);

    // Copies the settings into `state` (the plan and the animation come from elsewhere).
    void apply(OverlayState* state) const;
    QSlider* opacitySlider() const { return opacity_; }
    QComboBox* coloringBox() const { return coloring_; }

signals:
    void changed();

private:
    QCheckBox* enabled_ = nullptr;
    QComboBox* coloring_ = nullptr;
    QSlider* opacity_ = nullptr;
    QCheckBox* idle_ = nullptr;
};

}  // namespace cvz
