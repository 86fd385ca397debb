#pragma once
#include <QImage>
#include <QPoint>
#include <QSize>
#include <QString>

#include "ui/pages/kernel_page.h"
#include "ui/views/display_path.h"
#include "ui/views/overlay_state.h"

class QLabel;
class QSplitter;
class QVBoxLayout;

namespace cvz {

class ImageSurface;
class OverlayLegend;
class ViewTransform;

// A page that shows a kernel's input picture and its output side by side, in step (one
// ViewTransform), with the launch grid over both and its legend beneath: the image page and the
// convolution page. This base owns the two views (OpenGL, or the raster fallback when GL fails), their
// zoom, the hovered pixel and the View and Animation exports; the family's page says what the pictures
// are, what a hover or a click on a pixel does and how the overlay is made.
class PicturePairPage : public KernelPage {
    Q_OBJECT
public:
    ImageSurface* inputView() const { return views_[0]; }
    ImageSurface* outputView() const { return views_[1]; }
    ViewTransform* viewTransform() const { return transform_; }
    DisplayPath displayPath() const { return display_.path; }
    OverlayLegend* legend() const { return legend_; }
    const OverlayState& overlayState() const { return overlay_; }
    QSplitter* splitter() const { return splitter_; }
    QLabel* outputCaption() const { return captions_[1]; }

    // The mouse over image pixel `pixel` (pin false), or a click on it (pin true).
    virtual void inspectPixel(QPoint pixel, bool pin) = 0;

    bool canZoom() const override { return true; }
    void zoomIn() override;
    void zoomOut() override;
    void zoomToFit() override;  // the picture, or the whole grid while it is drawn past the picture
    void zoomToActualSize() override;
    bool viewExport(AnimationExportRequest* request) const override;

protected:
    PicturePairPage(const DisplayPathChoice& display, QWidget* parent);

    // Builds the splitter with the two captioned panels and the legend under them; then installViews().
    void buildPictures(const QString& input_caption, const QString& output_caption, const QString& splitter_name);
    // Both views for the current display path, replacing any there were.
    void installViews();
    // Hands both views to the raster fallback (a GL view failed): once, with a message.
    void switchToRaster(const QString& reason);
    // Frames `r` (image pixels) at about 80% of the smaller view.
    void frame(const QRect& r);
    bool eventFilter(QObject* watched, QEvent* event) override;

    // ---- what the family's page says ----
    virtual QSize pictureSize() const = 0;
    virtual QImage inputImage() const = 0;
    virtual QImage outputImage() const = 0;
    // The overlay from the session and the overlay dock, to both views and the legend (overlay_).
    virtual void pushOverlay() = 0;
    virtual void refreshInspector() = 0;
    // A view was just made (index 0: the input, 1: the output): the page's own connections and
    // children on it.
    virtual void viewInstalled(int index, ImageSurface* view) {
        Q_UNUSED(index);
        Q_UNUSED(view);
    }
    // Both views were made and hold the pictures and the overlay.
    virtual void viewsInstalled() {}
    // The Animation export's animation and caption: waves, mode, block and title.
    virtual void describeAnimation(AnimationExportRequest* request) const = 0;

    DisplayPathChoice display_;
    ViewTransform* transform_ = nullptr;
    ImageSurface* views_[2] = {nullptr, nullptr};
    QVBoxLayout* panel_layouts_[2] = {nullptr, nullptr};
    QLabel* captions_[2] = {nullptr, nullptr};
    QSplitter* splitter_ = nullptr;
    OverlayLegend* legend_ = nullptr;
    OverlayState overlay_;
    QPoint hovered_pixel_{-1, -1};  // (-1, -1): the mouse is not over a view
};

}  // namespace cvz
