#pragma once
#include <QWidget>

class QLabel;
class QSlider;
class QTimer;
class QToolButton;

namespace cvz {

// Play, pause, step and scrub through an animation of `steps` steps (waves of blocks, or warps of a
// block). Space toggles play. The position is a step index; playing advances it on a timer.
class TimelineBar : public QWidget {
    Q_OBJECT
public:
    explicit TimelineBar(QWidget* parent = nullptr);

    void setSteps(int steps, const QString& unit);  // e.g. 8, "wave"
    int steps() const { return steps_; }
    int position() const { return position_; }
    bool playing() const;

public slots:
    void setPosition(int position);
    void togglePlay();
    void stepForward();
    void stepBack();
    void setLabel(const QString& text);

signals:
    void positionChanged(int position);

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
    QLabel* label_ = nullptr;
    QTimer* timer_ = nullptr;
};

}  // namespace cvz
