#include "ui/panels/launch_shape_box.h"

#include <QLineEdit>
#include <QRegularExpression>

#include "app/models/launch_config.h"

namespace cvz {

namespace {

struct Preset {
    Dim3 block;
    bool one_d;
};

const Preset kPresets[] = {
    {{256, 1, 1}, true},    // the lecture's 1-D launch
    {{16, 16, 1}, false},   // the lecture's 2-D launch
    {{32, 8, 1}, false},    // one warp per row
    {{32, 32, 1}, false},   // the 1024-thread maximum, 2-D
    {{1024, 1, 1}, true},   // the 1024-thread maximum, 1-D
};

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
    for (const Preset& preset : kPresets) addItem(label(preset.block, preset.one_d), text(preset.block, preset.one_d));
    setCurrentIndex(findData(shapeText()));

    connect(this, &QComboBox::activated, this, [this](int index) { setShapeText(itemData(index).toString()); });
    connect(lineEdit(), &QLineEdit::editingFinished, this, [this] { setShapeText(lineEdit()->text()); });
}

QString LaunchShapeBox::shapeText() const { return text(block_, one_d_); }

QString LaunchShapeBox::text(Dim3 block, bool one_d) {
    if (one_d) return QString::number(block.x);
    return QStringLiteral("%1x%2").arg(block.x).arg(block.y);
}

QString LaunchShapeBox::label(Dim3 block, bool one_d) {
    if (one_d) return QStringLiteral("1-D %1").arg(block.x);
    return QStringLiteral("2-D %1\u00D7%2").arg(block.x).arg(block.y);
}

void LaunchShapeBox::showBlock(Dim3 block, bool one_d) {
    block_ = block;
    one_d_ = one_d;
    const int preset = findData(shapeText());
    if (preset >= 0) setCurrentIndex(preset);
    setEditText(label(block, one_d));
}

QString LaunchShapeBox::setShapeText(const QString& typed) {
    const QString normalised = normalise(typed);
    const LaunchConfigParse parsed = parse_launch_config(normalised);
    if (!parsed.ok()) {
        markInvalid(parsed.error);
        return parsed.error;
    }
    markInvalid(QString());
    // parse_launch_config takes "N" as 1-D and "XxY" as 2-D: the text says which was given.
    const bool one_d = !normalised.contains(QLatin1Char('x'), Qt::CaseInsensitive);
    const Dim3 block = parsed.shape.block;
    const bool changed = !(block == block_) || one_d != one_d_;
    showBlock(block, one_d);
    if (changed) emit blockChosen(block_, one_d_);
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
