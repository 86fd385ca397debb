#pragma once
#include <QWidget>

#include "app/launch_plan.h"
#include "kernels/core/launch_shape.h"

class QButtonGroup;
class QComboBox;
class QLabel;
class QRadioButton;
class QSlider;
class QSpinBox;
class QStackedWidget;

namespace cvz {

// The block-shape controls of issue 3: 1-D or 2-D, sliders with spin boxes for threads per block,
// blockDim.x and blockDim.y, kept to shapes CUDA accepts (at most 1024 threads), presets, and the
// numbers of the resulting launch (grid, threads, idle threads, warps).
class LaunchPanel : public QWidget {
    Q_OBJECT
public:
    explicit LaunchPanel(QWidget* parent = nullptr);

    LaunchShape shape() const { return shape_; }
    void setShape(const LaunchShape& shape);  // emits shapeChanged on a real change

    // Shows the plan's numbers (grid, totals, idle, warps) under the controls.
    void showPlan(const LaunchPlan& plan);
    QString planText() const;

    // For tests and the keyboard: the controls by role.
    QSlider* threadsSlider() const { return threads_slider_; }
    QSlider* xSlider() const { return x_slider_; }
    QSlider* ySlider() const { return y_slider_; }
    QComboBox* presets() const { return presets_; }

signals:
    void shapeChanged(const cvz::LaunchShape& shape);

private:
    void buildUi();
    void onModeChanged();
    void onThreadsChanged(int value);
    void onXChanged(int value);
    void onYChanged(int value);
    void onPreset(int index);
    void syncControls();
    void commit(const LaunchShape& shape);

    LaunchShape shape_ = LaunchShape::one_d(256);
    bool syncing_ = false;
    QRadioButton* one_d_ = nullptr;
    QRadioButton* two_d_ = nullptr;
    QStackedWidget* pages_ = nullptr;
    QSlider* threads_slider_ = nullptr;
    QSpinBox* threads_spin_ = nullptr;
    QSlider* x_slider_ = nullptr;
    QSpinBox* x_spin_ = nullptr;
    QSlider* y_slider_ = nullptr;
    QSpinBox* y_spin_ = nullptr;
    QComboBox* presets_ = nullptr;
    QLabel* stats_ = nullptr;
};

}  // namespace cvz
