#pragma once
#include <QWidget>

#include "app/models/launch_plan.h"
#include "kernels/core/kernel_variant.h"
#include "kernels/core/launch_shape.h"
#include "kernels/grayscale/grayscale_image.h"
#include "kernels/matmul/matmul_launch.h"

class QButtonGroup;
class QCheckBox;
class QComboBox;
class QLabel;
class QSlider;
class QSpinBox;
class QStackedWidget;

namespace cvz {

class LaunchShapeBox;

// The one editor of the launch (the page in front binds it to its session and its family). The
// "Kernel" chooser lists the family's variants from the catalogue (family_catalogue), so a new table
// entry appears here with no change in ui/; the block editor follows the chosen variant's launch rule:
// a 1-D slider, blockDim.x and blockDim.y sliders (kept to at most 1024 threads), a TILE chooser from
// the variant's tiles, or a fixed block that is shown but not editable (the note says why). For
// grayscale also the pixel layout (those the variant reads), presets and a text field ("256",
// "16x16"), and the numbers of the resulting launch; for matmul the barrier lesson for a variant with
// barriers.
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

    // Which family's variants the chooser lists and which launch the controls edit: grayscale edits
    // shape() (its variant is shape().kind), matmul edits matmulLaunch() (its variant is .kernel).
    void setFamily(KernelFamily family);
    KernelFamily family() const { return family_; }
    // The catalogue entry of the variant being edited.
    const KernelInfo* variantInfo() const;
    // Chooses a variant of the current family by its catalogue name ("gray_1d_x4", "matmul_tiled"):
    // as picking it in the chooser. False when the family has no such variant.
    bool chooseKernel(const QString& name);

    // The matmul side (the Matrices tab) and the emulator-only "remove the second barrier" lesson.
    MatmulLaunch matmulLaunch() const { return matmul_; }
    void setMatmulLaunch(const MatmulLaunch& launch);  // emits matmulLaunchChanged on a real change
    void showMatmulStats(const QString& html);
    // The launch's time: the GPU time predicted on the chosen device profile beside the measured one
    // (GPU) or the emulator's (labelled as such); `details` (the model's named terms) is its tooltip.
    // Kept per family and shown while that family is edited.
    void showTimes(KernelFamily family, const QString& html, const QString& details);
    QLabel* timesLabel() const { return times_; }

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
    QComboBox* kernelBox() const { return kernel_box_; }
    QComboBox* tileBox() const { return tile_box_; }
    QCheckBox* barrierBox() const { return barrier_box_; }
    QLabel* blockNote() const { return block_note_; }
    // Says why a dimension differs from what the user set (x × y may not exceed 1024 threads); hidden when none does.
    QLabel* limitNote() const { return limit_note_; }
    bool blockEditable() const;  // false for a TILE or fixed-block variant: its block follows the rule

signals:
    void shapeChanged(const cvz::LaunchShape& shape);
    void matmulLaunchChanged(const cvz::MatmulLaunch& launch);
    void layoutChanged(cvz::PixelLayout layout);
    void invalidShape(const QString& error);  // text in the shape field that CUDA would refuse

private:
    void buildUi();
    void fillKernels();
    void onKernelChosen(int index);
    void onThreadsChanged(int value);
    void onXChanged(int value);
    void onYChanged(int value);
    void onPreset(int index);
    void syncControls();
    void commit(const LaunchShape& shape);
    void commitMatmul(const MatmulLaunch& launch);
    void onMatmulControls();
    void commitBlock(Dim3 block);  // a 2-D block from the sliders, to whichever family is edited
    QString limitText() const;
    void forgetWantedBlock();  // a block set another way than by the sliders

    LaunchShape shape_ = LaunchShape::one_d(256);
    bool syncing_ = false;
    bool sync_pending_ = false;
    QComboBox* kernel_box_ = nullptr;
    QLabel* block_note_ = nullptr;
    QLabel* limit_note_ = nullptr;
    // The blockDim.x and blockDim.y last set with the sliders (0: none): when the other dimension
    // squeezes one to keep x × y <= 1024, it comes back to what was set as soon as that fits again.
    unsigned wanted_x_ = 0;
    unsigned wanted_y_ = 0;
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

    KernelFamily family_ = KernelFamily::Grayscale;
    MatmulLaunch matmul_ = MatmulLaunch::naive(16, 16);
    QString grayscale_stats_, matmul_stats_;
    QLabel* times_ = nullptr;
    QString times_html_[2], times_details_[2];  // by KernelFamily
    QWidget* tile_row_ = nullptr;
    QComboBox* tile_box_ = nullptr;
    QCheckBox* barrier_box_ = nullptr;
};

}  // namespace cvz
