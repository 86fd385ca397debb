#pragma once
#include <QDialog>
#include <QList>

#include "app/models/device_profile.h"
#include "app/tuning/ladder.h"

class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QTableWidget;

namespace cvz {

class FamilyBox;
class JobRunner;
class LadderRunner;

// The optimisation ladder (issue 11, item 4), a non-modal dialog (Run > Optimisation Ladder, Ctrl+L):
// every variant of the current family side by side on the current image or matrices. Run traces each
// variant on the emulator (sectors per request, shared wavefronts, bank conflicts, load bytes per FMA)
// and, with a GPU, times each and the family's ceiling (a device copy, cuBLAS SGEMM) in the same run;
// registers and occupancy are there from the start. Without a GPU the table says its figures are
// modeled. The work runs on the main window's worker with a progress bar and Cancel. Double-clicking a
// row chooses that variant's launch. The window's size and place are remembered (the columns fit
// their contents as the figures come in).
class LadderDialog : public QDialog {
    Q_OBJECT
public:
    enum Column {
        kVariant, kBlock, kPredictedUs, kGpuUs, kThroughput, kOfReference, kSectors, kWavefronts, kConflicts, kLoadBytes,
        kOccupancy, kRegisters, kShared, kColumns
    };

    explicit LadderDialog(JobRunner* jobs = nullptr, QWidget* parent = nullptr);
    ~LadderDialog() override;

    // A family's input, as the sweep takes it; a running ladder keeps the one it started with.
    void setProblem(FamilyProblemPtr problem, const QString& name = {});
    void setFamily(KernelFamily family);
    KernelFamily family() const;
    bool selectProfile(const QString& name);
    DeviceProfile profile() const;

    // Tests inject fake timers, or none (the modeled ladder); by default the GPU's when there is one.
    void setTimers(LadderTimers timers);
    LadderRunner* runner() const { return runner_; }

    void startLadder();   // what Run does
    void cancelLadder();  // what Cancel does
    bool isRunning() const;
    const LadderResult& result() const { return result_; }

    QTableWidget* table() const { return table_; }
    QProgressBar* progressBar() const { return progress_; }
    QPushButton* runButton() const { return run_; }
    QPushButton* cancelButton() const { return cancel_; }
    QComboBox* familyBox() const;
    QComboBox* profileBox() const { return profile_box_; }
    QString noteText() const;
    QLabel* noteLabel() const { return note_; }
    QString referenceText() const;

signals:
    void launchChosen(const cvz::LaunchChoice& launch);
    void ladderFinished(const cvz::LadderResult& result);

protected:
    void showEvent(QShowEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;  // the note's resizes
    void done(int r) override;

private:
    void buildUi();
    void fillProfiles();
    SweepRequest request() const;
    void showModel();
    void setResult(const LadderResult& result);
    void setTableRow(int index);
    void refreshLabels();
    void fitNoteHeight();  // the note's lines all shown, whatever the width
    void onStarted(const LadderResult& modeled);
    void onRowUpdated(int index, const LadderRow& row);
    void onProgress(int done, int total);
    void onFinished(const LadderResult& result);
    void choose(int index);
    void saveSettings() const;

    LadderRunner* runner_ = nullptr;
    QList<DeviceProfile> profiles_;
    LadderResult result_;
    bool restored_ = false;

    FamilyBox* family_box_ = nullptr;
    QComboBox* profile_box_ = nullptr;
    QPushButton* run_ = nullptr;
    QPushButton* cancel_ = nullptr;
    QProgressBar* progress_ = nullptr;
    QLabel* note_ = nullptr;
    QLabel* reference_ = nullptr;
    QTableWidget* table_ = nullptr;
};

}  // namespace cvz
