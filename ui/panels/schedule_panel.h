#pragma once
#include <QWidget>

#include <cstdint>
#include <memory>

#include "app/trace/schedule_replay.h"

class QComboBox;
class QLabel;
class QPushButton;
class QSlider;
class QTimer;

namespace cvz {

class ScheduleSmView;

// The recorded block schedule replayed on a time axis, beside the wave model's prediction: the
// recorded SMs (blocks light up on the SM that really ran them when they really started, and leave
// when they ended), the model's SMs at the same moment, a time slider, play/pause with a speed
// control, "Jump to the tail", and the differences between the two computed from the recording.
class SchedulePanel : public QWidget {
    Q_OBJECT
public:
    explicit SchedulePanel(QWidget* parent = nullptr);

    // `source`: where it came from ("h200.json", "recorded on the CPU emulator"), for the caption.
    void setReplay(std::shared_ptr<const ScheduleReplay> replay, const QString& source);
    std::shared_ptr<const ScheduleReplay> replay() const { return replay_; }

    std::uint64_t time() const { return time_; }
    void setTime(std::uint64_t ns);
    void jumpToTail();
    void setPlaying(bool playing);
    bool playing() const;
    // Replay speed: the whole run lasts this many seconds on screen.
    double secondsPerRun() const;
    void setSpeedIndex(int index);
    // One step of playback as the timer makes it, `elapsed_ms` of wall time (the tests call it directly).
    void advance(double elapsed_ms);

    QString caption() const;
    // A line under the caption, e.g. why the replay is not drawn over the image; hidden when empty.
    void setNote(const QString& text);
    QString note() const;
    QString differencesText() const;
    ScheduleSmView* recordedView() const { return recorded_; }
    ScheduleSmView* modelView() const { return model_; }

signals:
    void timeChanged(std::uint64_t ns);

private:
    void updateTexts();
    std::shared_ptr<const ScheduleReplay> replay_;
    QString source_;
    std::uint64_t time_ = 0;
    QLabel* caption_ = nullptr;
    QLabel* note_ = nullptr;
    QLabel* differences_ = nullptr;
    ScheduleSmView* recorded_ = nullptr;
    ScheduleSmView* model_ = nullptr;
    QSlider* slider_ = nullptr;
    QPushButton* play_ = nullptr;
    QPushButton* tail_ = nullptr;
    QComboBox* speed_ = nullptr;
    QTimer* timer_ = nullptr;
};

}  // namespace cvz
