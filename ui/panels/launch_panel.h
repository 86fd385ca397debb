#pragma once
#include <QWidget>

#include "app/launch_plan.h"
#include "kernels/core/launch_shape.h"
#include "kernels/grayscale/grayscale_image.h"
#include "kernels/matmul/matmul_launch.h"

class QButtonGroup;
class QCheckBox;
class QComboBox;
class QLabel;
class QRadioButton;
class QSlider;
class QSpinBox;
class QStackedWidget;

namespace cvz {

class LaunchShapeBox;

// Which kernel family the panel is editing: the image's grayscale launch or the matrices' matmul.
enum class PanelKernel { Grayscale, Matmul };

// The one editor of the launch (the page in front binds it to its session): for grayscale the pixel
// layout and the block shape — 1-D or 2-D, sliders with spin boxes for threads per block,
// blockDim.x and blockDim.y, kept to shapes CUDA accepts (at most 1024 threads), presets, and a
// text field ("256", "16x16") for any shape — and the numbers of the resulting launch (grid,
// threads, idle threads, warps); for matmul the kernel, its block or TILE, and the barrier lesson.
class LaunchPanel : public QWidget {
    Q_OBJECT
public:
    explicit LaunchPanel(QWidget* parent = nullptr);

    LaunchShape shape() const { return shape_; }
    // Emits shapeChanged on a real change. The controls show it from the next turn of the event
    // loop (or syncNow()).
    void setShape(const LaunchShape& shape);
    void syncNow();
    PixelLayout layout() const;
    void setLayout(PixelLayout layout);  // emits layoutChanged on a real change

    // The matmul side (the Matrices tab): naive with a 2-D block from the same sliders, or tiled
    // with TILE x TILE blocks, and the emulator-only "remove the second barrier" lesson.
    void setKernel(PanelKernel kernel);
    PanelKernel kernel() const { return kernel_; }
    MatmulLaunch matmulLaunch() const { return matmul_; }
    void setMatmulLaunch(const MatmulLaunch& launch);  // emits matmulLaunchChanged on a real change
    void showMatmulStats(const QString& html);

    // Shows the plan's numbers (grid, totals, idle, warps) under the controls.
    void showPlan(const LaunchPlan& plan);
    QString planText() const;

    // For tests and the keyboard: the controls by role.
    QSlider* threadsSlider() const { return threads_slider_; }
    QSlider* xSlider() const { return x_slider_; }
    QSlider* ySlider() const { return y_slider_; }
    QComboBox* presets() const { return presets_; }
    LaunchShapeBox* shapeBox() const { return shape_box_; }
    QComboBox* layoutBox() const { return layout_box_; }

signals:
    void shapeChanged(const cvz::LaunchShape& shape);
    void matmulLaunchChanged(const cvz::MatmulLaunch& launch);
    void layoutChanged(cvz::PixelLayout layout);
    void invalidShape(const QString& error);  // text in the shape field that CUDA would refuse

private:
    void buildUi();
    void onModeChanged();
    void onThreadsChanged(int value);
    void onXChanged(int value);
    void onYChanged(int value);
    void onPreset(int index);
    void syncControls();
    void commit(const LaunchShape& shape);
    void commitMatmul(const MatmulLaunch& launch);
    void onMatmulControls();

    LaunchShape shape_ = LaunchShape::one_d(256);
    bool syncing_ = false;
    bool sync_pending_ = false;
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
    LaunchShapeBox* shape_box_ = nullptr;
    QComboBox* layout_box_ = nullptr;

    PanelKernel kernel_ = PanelKernel::Grayscale;
    MatmulLaunch matmul_ = MatmulLaunch::naive(16, 16);
    QString grayscale_stats_, matmul_stats_;
    QWidget* matmul_box_ = nullptr;
    QRadioButton* naive_ = nullptr;
    QRadioButton* tiled_ = nullptr;
    QComboBox* tile_box_ = nullptr;
    QCheckBox* barrier_box_ = nullptr;
};

}  // namespace cvz
