#include "ui/panels/overlay_panel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QSignalBlocker>
#include <QSlider>
#include <QVBoxLayout>

#include <cmath>


namespace cvz {

OverlayPanel::OverlayPanel(QWidget* parent) : QWidget(parent) {
    auto* v = new QVBoxLayout(this);
    enabled_ = new QCheckBox(tr("Show the launch grid (G)"), this);
    enabled_->setObjectName(QStringLiteral("overlayEnabled"));
    v->addWidget(enabled_);

    auto* form = new QFormLayout;
    coloring_ = new QComboBox(this);
    coloring_->setObjectName(QStringLiteral("overlayColoring"));
    coloring_->addItem(tr("Block"), int(OverlayColoring::Block));
    coloring_->addItem(tr("Thread in block"), int(OverlayColoring::Thread));
    coloring_->addItem(tr("Warp"), int(OverlayColoring::Warp));
    coloring_->addItem(tr("None (boundaries only)"), int(OverlayColoring::None));
    coloring_->setToolTip(tr("What the colours tell apart: blocks, threads within a block, or warps of 32 threads"));
    form->addRow(tr("Colour by"), coloring_);
    opacity_ = new QSlider(Qt::Horizontal, this);
    opacity_->setObjectName(QStringLiteral("overlayOpacity"));
    opacity_->setRange(0, 100);
    opacity_->setValue(45);
    opacity_->setToolTip(tr("How strongly the colours cover the image"));
    form->addRow(tr("Opacity"), opacity_);
    v->addLayout(form);
    idle_ = new QCheckBox(tr("Show idle threads past the image"), this);
    idle_->setObjectName(QStringLiteral("overlayShowIdle"));
    idle_->setChecked(true);
    idle_->setToolTip(tr("Draw the whole grid: the threads the guard switches off lie right of and below "
                         "the image (2-D), or after the last pixel (1-D)"));
    v->addWidget(idle_);
    v->addStretch();

    connect(enabled_, &QCheckBox::toggled, this, &OverlayPanel::changed);
    connect(coloring_, qOverload<int>(&QComboBox::currentIndexChanged), this, &OverlayPanel::changed);
    connect(opacity_, &QSlider::valueChanged, this, &OverlayPanel::changed);
    connect(idle_, &QCheckBox::toggled, this, &OverlayPanel::changed);
}

bool OverlayPanel::overlayEnabled() const { return enabled_->isChecked(); }
void OverlayPanel::setOverlayEnabled(bool on) { enabled_->setChecked(on); }

OverlayColoring OverlayPanel::coloring() const { return OverlayColoring(coloring_->currentData().toInt()); }
void OverlayPanel::setColoring(OverlayColoring coloring) {
    const int i = coloring_->findData(int(coloring));
    if (i >= 0) coloring_->setCurrentIndex(i);
}

double OverlayPanel::opacity() const { return opacity_->value() / 100.0; }
void OverlayPanel::setOpacity(double opacity) { opacity_->setValue(int(std::lround(opacity * 100))); }

bool OverlayPanel::showIdle() const { return idle_->isChecked(); }
void OverlayPanel::setShowIdle(bool show) { idle_->setChecked(show); }

void OverlayPanel::apply(OverlayState* state) const {
    state->enabled = overlayEnabled();
    state->coloring = coloring();
    state->opacity = opacity();
    state->show_idle = showIdle();
}

}  // namespace cvz
