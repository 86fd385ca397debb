#include "ui/panels/launch_shape_box.h"

#include <QLineEdit>
#include <QRegularExpression>

#include "app/models/launch_config.h"
#include "kernels/grayscale/grayscale_launch.h"

namespace cvz {

namespace {

const LaunchShape kPresets[] = {
    LaunchShape::one_d(256),     // the lecture's 1-D launch
    LaunchShape::two_d(16, 16),  // the lecture's 2-D launch
    LaunchShape::two_d(32, 8),   // one warp per row
    LaunchShape::two_d(32, 32),  // the 1024-thread maximum, 2-D
    LaunchShape::one_d(1024),    // the 1024-thread maximum, 1-D
};

bool same(const LaunchShape& a, const LaunchShape& b) { return a.kind == b.kind && a.block == b.block; }

// Accepts what the box shows as well as what the CLI takes: "2-D 16×16" -> "16x16".
QString normalise(QString text) {
    text.replace(QChar(0x00D7), QLatin1Char('x'));
    text.remove(QRegularExpression(QStringLiteral("^\\s*[12]-?D\\s*"), QRegularExpression::CaseInsensitiveOption));
    return text.trimmed();
}

}  // namespace

LaunchShapeBox::LaunchShapeBox(QWidget* parent) : QComboBox(parent) {
    setEditable(true);
    setInsertPolicy(QComboBox::NoInsert);  // typed shapes are applied, not collected
    setMinimumContentsLength(10);
    setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    setToolTip(tr("Threads per block: pick a preset or type N (1-D) or XxY (2-D), then Enter"));
    for (const LaunchShape& preset : kPresets)
        addItem(label(preset), QString::fromStdString(to_string(preset)));
    setCurrentIndex(findData(shapeText()));

    connect(this, &QComboBox::activated, this, [this](int index) { setShapeText(itemData(index).toString()); });
    connect(lineEdit(), &QLineEdit::editingFinished, this, [this] { setShapeText(lineEdit()->text()); });
}

QString LaunchShapeBox::shapeText() const { return QString::fromStdString(to_string(shape_)); }

QString LaunchShapeBox::label(const LaunchShape& shape) {
    if (is_one_d(shape)) return QStringLiteral("1-D %1").arg(shape.block.x);
    return QStringLiteral("2-D %1\u00D7%2").arg(shape.block.x).arg(shape.block.y);
}

QString LaunchShapeBox::setShapeText(const QString& text) {
    const LaunchConfigParse parsed = parse_launch_config(normalise(text));
    if (!parsed.ok()) {
        markInvalid(parsed.error);
        return parsed.error;
    }
    markInvalid(QString());
    const int preset = findData(QString::fromStdString(to_string(parsed.shape)));
    if (preset >= 0) setCurrentIndex(preset);
    setEditText(label(parsed.shape));
    if (same(parsed.shape, shape_)) return QString();
    shape_ = parsed.shape;
    emit shapeChosen(shape_);
    return QString();
}

void LaunchShapeBox::markInvalid(const QString& error) {
    // A tinted field and the reason as tooltip; the window also puts it in the status bar.
    QPalette palette = QComboBox::palette();
    if (!error.isEmpty()) {
        palette.setColor(QPalette::Base, QColor(0xff, 0xd6, 0xd6));
        palette.setColor(QPalette::Text, Qt::black);
    }
    lineEdit()->setPalette(palette);
    lineEdit()->setToolTip(error);
    if (!error.isEmpty()) emit invalidShape(error);
}

}  // namespace cvz
