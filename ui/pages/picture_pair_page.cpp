#include "ui/pages/picture_pair_page.h"

#include <QEvent>
#include <QLabel>
#include <QSplitter>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

#include "ui/views/image_surface.h"
#include "ui/views/image_view.h"
#include "ui/views/overlay_legend.h"
#include "ui/views/raster_image_view.h"
#include "ui/views/view_navigator.h"
#include "ui/views/view_transform.h"
#include "ui/windows/animation_export.h"

namespace cvz {

PicturePairPage::PicturePairPage(const DisplayPathChoice& display, QWidget* parent) : KernelPage(parent), display_(display) {
    transform_ = new ViewTransform(this);
    connect(transform_, &ViewTransform::zoomChanged, this, &KernelPage::documentChanged);
    // Block lines closer than a few device pixels are merged (and the legend says so): by zoom.
    connect(transform_, &ViewTransform::zoomChanged, this, [this](double zoom) {
        if (OverlayState::lineMergeFor(overlay_.plan, zoom * devicePixelRatioF()) != overlay_.line_merge) pushOverlay();
    });
}

void PicturePairPage::buildPictures(const QString& input_caption, const QString& output_caption, const QString& splitter_name) {
    auto* column = new QVBoxLayout(this);
    column->setContentsMargins(0, 0, 0, 0);
    column->setSpacing(0);
    splitter_ = new QSplitter(Qt::Horizontal, this);
    splitter_->setObjectName(splitter_name);
    splitter_->setChildrenCollapsible(false);
    const QString captions[2] = {input_caption, output_caption};
    for (int i = 0; i < 2; ++i) {
        auto* panel = new QWidget(splitter_);
        panel_layouts_[i] = new QVBoxLayout(panel);
        panel_layouts_[i]->setContentsMargins(2, 2, 2, 2);
        panel_layouts_[i]->setSpacing(2);
        captions_[i] = new QLabel(captions[i], panel);
        captions_[i]->setAlignment(Qt::AlignCenter);
        captions_[i]->setWordWrap(true);  // the animation adds a sentence to the output's
        panel_layouts_[i]->addWidget(captions_[i]);
        splitter_->addWidget(panel);
        splitter_->setStretchFactor(i, 1);
    }
    splitter_->setSizes({1000, 1000});  // equal halves until the user moves the handle
    column->addWidget(splitter_, 1);
    legend_ = new OverlayLegend(this);
    legend_->setObjectName(QStringLiteral("overlayLegend"));
    column->addWidget(legend_);
    installViews();
}

void PicturePairPage::installViews() {
    for (int i = 0; i < 2; ++i) {
        if (views_[i]) {
            QWidget* old = views_[i]->widget();
            panel_layouts_[i]->removeWidget(old);
            old->hide();
            old->deleteLater();  // it may be the sender of the failure being handled
        }
        if (display_.path == DisplayPath::OpenGL) {
            auto* view = new ImageView(transform_);
            connect(view, &ImageView::failed, this, &PicturePairPage::switchToRaster, Qt::QueuedConnection);
            views_[i] = view;
        } else {
            views_[i] = new RasterImageView(transform_);
        }
        QWidget* widget = views_[i]->widget();
        widget->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
        widget->setFocusPolicy(Qt::ClickFocus);
        widget->installEventFilter(this);  // refit on resize
        panel_layouts_[i]->addWidget(widget, 1);
        // Hover shows a pixel's thread in the inspector; a click keeps it.
        if (auto* navigator = widget->findChild<ViewNavigator*>()) {
            ImageSurface* view = views_[i];
            auto to_pixel = [view](QPointF pos) {
                const QPointF p = view->widgetToImage(pos);
                return QPoint(int(std::floor(p.x())), int(std::floor(p.y())));
            };
            connect(navigator, &ViewNavigator::hovered, this, [this, to_pixel](QPointF pos) { inspectPixel(to_pixel(pos), false); });
            connect(navigator, &ViewNavigator::clicked, this, [this, to_pixel](QPointF pos) { inspectPixel(to_pixel(pos), true); });
            connect(navigator, &ViewNavigator::left, this, [this] {
                hovered_pixel_ = QPoint(-1, -1);
                if (overlay_.hovered_block >= 0) pushOverlay();
                refreshInspector();
            });
        }
        viewInstalled(i, views_[i]);
    }
    views_[0]->setImage(inputImage());
    views_[1]->setImage(outputImage());
    views_[1]->setSourceImage(inputImage());
    for (ImageSurface* view : views_) view->setOverlay(overlay_);
    viewsInstalled();
}

void PicturePairPage::switchToRaster(const QString& reason) {
    if (display_.path == DisplayPath::Raster) return;  // both views report; switch once
    display_ = {DisplayPath::Raster, reason};
    installViews();
    setStatus(tr("%1; drawing with the raster fallback").arg(reason), true);
}

void PicturePairPage::zoomIn() { transform_->zoomBy(ViewTransform::kStep); }

void PicturePairPage::zoomOut() { transform_->zoomBy(1 / ViewTransform::kStep); }

void PicturePairPage::zoomToActualSize() { transform_->setZoom(1); }

void PicturePairPage::zoomToFit() {
    // Both views show the same region: fit the smaller one.
    const QSize a = views_[0]->widget()->size(), b = views_[1]->widget()->size();
    const QSize image = pictureSize();
    // With the grid shown past the image, fit the whole grid: the idle threads stay in view.
    const QSize content = overlay_.decorates() ? overlay_.extent() : image;
    transform_->fitTo(QSizeF(std::min(a.width(), b.width()), std::min(a.height(), b.height())),
                      QSizeF(content.isEmpty() ? image : content));
}

// The rectangle fills about 80% of the smaller view, centred; never past the zoom limits.
void PicturePairPage::frame(const QRect& r) {
    if (r.isEmpty()) return;
    const QSize a = views_[0]->widget()->size(), b = views_[1]->widget()->size();
    const QSizeF view(std::min(a.width(), b.width()) * 0.8, std::min(a.height(), b.height()) * 0.8);
    transform_->setZoom(ViewTransform::fitZoom(r.size(), view));
    transform_->setCenter(QRectF(r).center());
}

bool PicturePairPage::eventFilter(QObject* watched, QEvent* event) {
    if (event->type() == QEvent::Resize && transform_->fitting())
        for (ImageSurface* view : views_)
            if (view && view->widget() == watched) zoomToFit();
    return KernelPage::eventFilter(watched, event);
}

bool PicturePairPage::viewExport(AnimationExportRequest* request) const {
    request->overlay = overlay_;
    request->image = outputImage();
    request->source = inputImage();
    request->size = views_[1]->widget()->size();
    request->zoom = transform_->zoom();
    request->center = transform_->center();
    describeAnimation(request);
    return true;
}

}  // namespace cvz
