#pragma once
#include <QComboBox>

#include "kernels/core/dim3.h"

namespace cvz {

// The block as text: the lecture's presets ("1-D 256", "2-D 16×16", ...) plus free text, "N" for a
// 1-D block of N threads or "XxY" for a 2-D block, checked by parse_launch_config. It yields a block
// and whether it was given as 1-D ("256") or 2-D ("256x1"): which variant runs it is the launch
// panel's business. Invalid text is reported (invalidShape) and changes nothing.
class LaunchShapeBox : public QComboBox {
    Q_OBJECT
public:
    explicit LaunchShapeBox(QWidget* parent = nullptr);

    Dim3 block() const { return block_; }  // the last valid choice
    bool oneD() const { return one_d_; }
    QString shapeText() const;             // "256" or "16x16": for settings and the CLI

    // Shows `text` ("16x16", "2-D 16×16", ...) and makes it current when valid; returns the parse
    // error otherwise (empty on success). Emits blockChosen when the block changed.
    QString setShapeText(const QString& text);
    // Shows a block set elsewhere (a slider, a preset), emitting nothing.
    void showBlock(Dim3 block, bool one_d);

    // "256" / "16x16", and "1-D 256" / "2-D 16×16" the way the box shows a block.
    static QString text(Dim3 block, bool one_d);
    static QString label(Dim3 block, bool one_d);

signals:
    void blockChosen(cvz::Dim3 block, bool one_d);
    void invalidShape(const QString& error);

private:
    void markInvalid(const QString& error);

    Dim3 block_{16, 16, 1};
    bool one_d_ = false;
};

}  // namespace cvz
