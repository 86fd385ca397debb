#pragma once
#include <QWidget>

class QDoubleSpinBox;
class QSlider;
class QSpinBox;
class QTimer;
class QToolButton;

namespace cvz {

class ElidedLabel;

// Play, pause, step and scrub through an animation of `steps` steps (waves of blocks, or warps of a
// block). Space toggles play. The position is a step index; playing advances it on a timer at a
// chosen speed (steps per second). A step field jumps straight to one wave or warp: with hundreds
// of waves the slider's pixel is several steps wide.
class TimelineBar : public QWidget {
    Q_OBJECT
public:
    explicit TimelineBar(QWidget* parent = nullptr);

    void setSteps(int steps, const QString& unit);  // e.g. 8, "wave"
    int steps() const { return steps_; }
    int position() const { return position_; }
    bool playing() const;
    double stepsPerSecond() const;
    QDoubleSpinBox* speedBox() const { return speed_; }
    QSpinBox* stepBox() const { return step_box_; }  // 1-based: "wave 3" is position 2; steps + 1 reads "all done"
    QString label() const;
    static constexpr double kMinSpeed = 0.25;
    static constexpr double kMaxSpeed = 60;

public slots:
    void setPosition(int position);
    void togglePlay();
    void stepForward();
    void stepBack();
    void jumpToStart();
    void jumpToEnd();
    void setStepsPerSecond(double speed);
    // Puts the keyboard in the step field, its number selected: type a wave and press Enter.
    void focusStepBox();
    void setLabel(const QString& text);

signals:
    void positionChanged(int position);
    void speedChanged(double steps_per_second);

protected:
    void keyPressEvent(QKeyEvent* event) override;

private:
    int steps_ = 1;
    int position_ = 0;
    QString unit_;
    QToolButton* play_ = nullptr;
    QToolButton* back_ = nullptr;
    QToolButton* forward_ = nullptr;
    QSlider* scrub_ = nullptr;
    QSpinBox* step_box_ = nullptr;
    QDoubleSpinBox* speed_ = nullptr;
    ElidedLabel* label_ = nullptr;
    QTimer* timer_ = nullptr;
};

}  // namespace cvz
