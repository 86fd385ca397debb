#pragma once
#include <QWidget>

#include "app/grayscale/pixel_inspection.h"
#include "app/models/wave_model.h"

class QLabel;

namespace cvz {

// Which thread made this pixel, and how: blockIdx, threadIdx, their linear ids, warp and lane, the
// index arithmetic with the numbers filled in, the guard, the three flat indices the kernel reads in
// the chosen layout with their values, the grey it computes (luma_u8) and the wave that runs it.
// Fed by the current page: the image page for the pixel under the mouse or the one last clicked.
class InspectorPanel : public QWidget {
    Q_OBJECT
public:
    explicit InspectorPanel(QWidget* parent = nullptr);

    // `output` is the kernel's byte for this pixel as shown, or -1 when there is no result yet.
    void showPixel(const PixelInspection& inspection, const LaunchPlan& plan, PixelLayout layout,
                   const WavePlan& waves, int output);
    void showHint(const QString& text);
    // Preformatted lines (another family's inspection, e.g. the matmul thread of an element of C).
    void showText(const QString& text);

    QString html() const;
    QString plainText() const;  // the same without markup, for tests and the clipboard

    QSize sizeHint() const override { return {300, 320}; }

private:
    QLabel* text_ = nullptr;
};

}  // namespace cvz
