#pragma once
#include <QDialog>
#include <QList>

#include "app/tuning/block_sweep.h"
#include "app/models/device_profile.h"

class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QTableWidget;

namespace cvz {

class JobRunner;
class FamilyBox;
class SweepHeatmap;

// The block-size sweep (issue 5, item 4), a non-modal dialog: pick the family (each on the input its
// page offered, a FamilyProblem) and the device profile for the occupancy model,
// Start; the sweep runs on a worker with a progress bar and Cancel. The 2-D blocks appear as a
// heatmap (blockDim.x across, blockDim.y down), every shape in a table; Export CSV… writes the result.
// Without a CUDA device the sweep shows the modeled occupancy and says so.
// Clicking a cell, or double-clicking a table row, chooses that shape.
class SweepDialog : public QDialog {
    Q_OBJECT
public:
    // `jobs`: the worker to run on (the main window's, so a sweep never competes with a kernel run for
    // the GPU); without one the dialog's runner makes its own.
    explicit SweepDialog(JobRunner* jobs = nullptr, QWidget* parent = nullptr);

    // A family's input (`name`: its document's). Set it whenever the document changes; a running sweep
    // keeps the one it started with.
    void setProblem(FamilyProblemPtr problem, const QString& name = {});

    void setFamily(KernelFamily family);
    KernelFamily family() const;
    // Selects the occupancy model's profile by name (a builtin, or the real GPU's name); false if unknown.
    bool selectProfile(const QString& name);
    DeviceProfile profile() const;

    // Tests inject a fake timer; by default the GPU times the rows when there is one.
    void setTimer(SweepTimer timer);
    SweepRunner* runner() const { return runner_; }

    void startSweep();   // what Start does
    void cancelSweep();  // what Cancel does
    bool isRunning() const;
    const SweepResult& result() const { return result_; }

    // Writes the CSV; returns an empty string, or the error (naming the file) that was also shown.
    QString exportCsv(const QString& path);

    SweepHeatmap* heatmap() const { return heatmap_; }
    QTableWidget* table() const { return table_; }
    QProgressBar* progressBar() const { return progress_; }
    QPushButton* startButton() const { return start_; }
    QPushButton* cancelButton() const { return cancel_; }
    QPushButton* exportButton() const { return export_; }
    QComboBox* kernelBox() const;
    QComboBox* profileBox() const { return profile_box_; }
    // "All variants", then each variant of the family: the sweep runs the one chosen, or every one.
    QComboBox* variantBox() const { return variant_box_; }
    bool selectVariant(const QString& name);  // a catalogue name, or empty for all; false if unknown
    QString noteText() const;
    QString bestText() const;

signals:
    void launchChosen(const cvz::LaunchChoice& launch);  // a shape was clicked
    void sweepFinished(const cvz::SweepResult& result);

protected:
    void showEvent(QShowEvent* event) override;

private:
    void buildUi();
    void fitToScreen();
    void showTimerState();  // Start, the time columns and the bar for a GPU or none
    void fillProfiles();
    void fillVariants();
    SweepRequest request() const;
    void showModel();  // the current kernel's rows, modeled, untimed
    void setResult(const SweepResult& result);
    void refreshTable();
    void setTableRow(int table_row, int index);
    void refreshLabels();
    void onStarted(const SweepResult& modeled);
    void onRowUpdated(int index, const SweepRow& row);
    void onProgress(int done, int total);
    void onFinished(const SweepResult& result);
    void onProfileChanged();
    void choose(int index);
    void onExportClicked();

    SweepRunner* runner_ = nullptr;
    QList<DeviceProfile> profiles_;
    SweepResult result_;
    bool finished_once_ = false;

    FamilyBox* kernel_box_ = nullptr;
    QComboBox* profile_box_ = nullptr;
    QComboBox* variant_box_ = nullptr;
    QPushButton* start_ = nullptr;
    QPushButton* cancel_ = nullptr;
    QProgressBar* progress_ = nullptr;
    QLabel* note_ = nullptr;
    QLabel* best_ = nullptr;
    SweepHeatmap* heatmap_ = nullptr;
    QTableWidget* table_ = nullptr;
    QLabel* table_title_ = nullptr;
    QPushButton* export_ = nullptr;
};

}  // namespace cvz
