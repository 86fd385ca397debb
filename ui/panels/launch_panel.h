#pragma once
#include <QHash>
#include <QPointer>
#include <QWidget>

#include "app/family/launch_choice.h"

class QComboBox;
class QLabel;
class QSlider;
class QSpinBox;
class QStackedWidget;
class QVBoxLayout;

namespace cvz {

class LaunchShapeBox;

// The one editor of the launch, for any kernel family: it edits one LaunchChoice (which compiled
// kernel, and its block) and never asks which family it has. The page in front binds it to its
// session: it sets the family and the session's choice, converts the choices it emits, and may add
// its own launch controls (setExtraControls). The "Kernel" chooser lists the family's variants from
// the catalogue (family_catalogue), so a new table entry appears here with no change in ui/; the
// block editor follows the chosen variant's launch rule: a 1-D slider, blockDim.x and blockDim.y
// sliders (kept to at most 1024 threads), a TILE chooser from the variant's tiles, or a fixed block
// that is shown but not editable (the note says why). The lecture's presets and a text field ("256",
// "16x16") choose a block of either rule; the numbers and the time of the launch come from the page.
class LaunchPanel : public QWidget {
    Q_OBJECT
public:
    explicit LaunchPanel(QWidget* parent = nullptr);
    ~LaunchPanel() override;

    // Which family's variants the chooser lists. Each family's last choice, stats and times are kept
    // and shown again when it comes back; nothing is emitted.
    void setFamily(KernelFamily family);
    KernelFamily family() const { return family_; }

    LaunchChoice choice() const { return states_.value(int(family_)).choice; }
    // Emits choiceChanged on a real change (a choice of another family switches the chooser to it
    // first). The text field shows it at once, the other controls from the next turn of the event loop
    // (or syncNow()).
    void setChoice(const LaunchChoice& choice);
    void syncNow();

    // The catalogue entry of the variant being edited.
    const KernelInfo* variantInfo() const;
    // Chooses a variant of the current family by its catalogue name, as picking it in the chooser.
    // False when the family has no such variant.
    bool chooseKernel(const QString& name);
    // The block a variant with a 1-D (or a 2-D) block rule starts from when chosen now, as chooseKernel
    // gives it: what Compile and Run launches a new kernel of the user's with.
    Dim3 blockWhenChosen(bool one_d) const;
    // Lists the family's variants again: a kernel of the user's was compiled ("yours: NAME").
    void refreshKernels();
    bool blockEditable() const;  // false for a TILE or fixed-block variant: its block follows the rule

    // The bound page's own launch controls (a pixel layout, a lesson's switch, a mask), shown in one
    // slot under the kernel row. Not owned: the page keeps and deletes them; setExtraControls(nullptr)
    // takes them out and gives them back to the parent they had (the page calls it on unbind).
    void setExtraControls(QWidget* extras);
    QWidget* extraControls() const { return extras_; }

    // The launch's numbers (the page's table: launch_plan_html for a LaunchPlan), kept per family.
    void showStats(const QString& html);
    // The launch's time: the GPU time predicted on the chosen device profile beside the measured one
    // (GPU) or the emulator's (labelled as such); `details` (the model's named terms) is its tooltip.
    // Kept per family and shown while that family is edited.
    void showTimes(const QString& html, const QString& details);
    QString planText() const;
    QLabel* timesLabel() const { return times_; }

    // For tests and the keyboard: the controls by role.
    QSlider* threadsSlider() const { return threads_slider_; }
    QSlider* xSlider() const { return x_slider_; }
    QSlider* ySlider() const { return y_slider_; }
    QComboBox* presets() const { return presets_; }
    LaunchShapeBox* shapeBox() const { return shape_box_; }
    QComboBox* kernelBox() const { return kernel_box_; }
    QComboBox* tileBox() const { return tile_box_; }
    QLabel* blockNote() const { return block_note_; }
    // Says why a dimension differs from what the user set (x × y may not exceed 1024 threads); hidden when none does.
    QLabel* limitNote() const { return limit_note_; }

signals:
    void choiceChanged(const cvz::LaunchChoice& choice);
    void invalidShape(const QString& error);  // text in the shape field that CUDA would refuse, or no variant takes

private:
    // What the panel keeps of each family it has edited.
    struct FamilyState {
        LaunchChoice choice;
        unsigned tile = 0;  // the last TILE chosen: a TILE variant chosen again starts from it
        QString stats, times_html, times_details;
    };

    void buildUi();
    void fillKernels();
    FamilyState& state() { return states_[int(family_)]; }
    void onKernelChosen(int index);
    void onTileChosen();
    void onThreadsChanged(int value);
    void onXChanged(int value);
    void onYChanged(int value);
    void onPreset(int index);
    void onBlockTyped(Dim3 block, bool one_d);
    // The variant a 1-D (or 2-D) block goes to: the current one when its rule is that, else the
    // family's first of that rule; null when the family has none.
    const KernelInfo* variantFor(bool one_d) const;
    void applyBlock(Dim3 block, bool one_d);  // a preset or typed block, to variantFor(one_d)
    void scheduleSync();
    void syncControls();
    void commit(const LaunchChoice& choice);
    void commitBlock(Dim3 block);  // a block from the sliders, for the variant being edited
    QString limitText() const;
    void forgetWantedBlock();  // a block set another way than by the sliders

    KernelFamily family_;
    QHash<int, FamilyState> states_;  // by KernelFamily
    bool syncing_ = false;
    bool sync_pending_ = false;
    QComboBox* kernel_box_ = nullptr;
    QVBoxLayout* extras_slot_ = nullptr;
    QPointer<QWidget> extras_;
    QPointer<QWidget> extras_home_;  // the parent the extras are given back to
    bool extras_had_home_ = false;
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
    QLabel* times_ = nullptr;
    QWidget* tile_row_ = nullptr;
    QComboBox* tile_box_ = nullptr;
};

}  // namespace cvz
