#pragma once
#include <QComboBox>

#include "kernels/core/launch_shape.h"

namespace cvz {

// The launch-shape chooser: the lecture's presets ("1-D 256", "2-D 16×16", ...) plus free text,
// "N" for a 1-D block of N threads or "XxY" for a 2-D block, checked by parse_launch_config.
// Invalid text is reported (invalidShape) and changes nothing.
class LaunchShapeBox : public QComboBox {
    Q_OBJECT
public:
    explicit LaunchShapeBox(QWidget* parent = nullptr);

    LaunchShape shape() const { return shape_; }  // the last valid choice
    QString shapeText() const;                    // "256" or "16x16": for settings and the CLI

    // Shows `text` ("16x16", "2-D 16×16", ...) and makes it current when valid; returns the parse
    // error otherwise (empty on success). Emits shapeChosen when the shape changed.
    QString setShapeText(const QString& text);

    // "1-D 256" or "2-D 16×16", the way the box shows a shape.
    static QString label(const LaunchShape& shape);

signals:
    void shapeChosen(const cvz::LaunchShape& shape);
    void invalidShape(const QString& error);

private:
    void markInvalid(const QString& error);

    LaunchShape shape_ = LaunchShape::two_d(16, 16);
};

}  // namespace cvz
