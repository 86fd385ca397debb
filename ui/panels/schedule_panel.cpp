#include "ui/panels/schedule_panel.h"

#include <QComboBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QSlider>
#include <QTimer>
#include <QVBoxLayout>

#include "app/jobs/counted.h"
#include "ui/panels/schedule_sm_view.h"

namespace cvz {

namespace {

constexpr int kSliderSteps = 1000;
constexpr int kFrameMs = 33;
// The whole run in this many seconds of replay: a new user found a run of 835 waves at 1.6 waves/s
// unwatchable, so the run's length on screen is chosen, not the waves per second.
const double kSpeeds[] = {5, 20, 60, 300};

}  // namespace

SchedulePanel::SchedulePanel(QWidget* parent) : QWidget(parent) {
    // The bottom dock area is wide: the replay on the left, the differences beside it.
    auto* outer = new QHBoxLayout(this);
    outer->setContentsMargins(4, 4, 4, 4);
    auto* layout = new QVBoxLayout;
    outer->addLayout(layout, 3);
    caption_ = new QLabel(tr("No schedule: File > Open Schedule..., or Run > Record Schedule"), this);
    caption_->setObjectName(QStringLiteral("scheduleCaption"));
    caption_->setWordWrap(true);
    layout->addWidget(caption_);
    note_ = new QLabel(this);
    note_->setObjectName(QStringLiteral("scheduleNote"));
    note_->setWordWrap(true);
    note_->setStyleSheet(QStringLiteral("color: #b71c1c;"));
    note_->hide();
    layout->addWidget(note_);

    auto* views = new QGridLayout;
    auto* recorded_label = new QLabel(tr("Recorded: blocks on the SM that ran them"), this);
    recorded_label->setWordWrap(true);
    auto* model_label = new QLabel(tr("Model: block i on SM i mod SMs, wave by wave"), this);
    model_label->setWordWrap(true);
    recorded_ = new ScheduleSmView(ScheduleSmView::Side::Recorded, this);
    recorded_->setObjectName(QStringLiteral("recordedSms"));
    model_ = new ScheduleSmView(ScheduleSmView::Side::Model, this);
    model_->setObjectName(QStringLiteral("modelSms"));
    views->addWidget(recorded_label, 0, 0);
    views->addWidget(model_label, 0, 1);
    views->addWidget(recorded_, 1, 0);
    views->addWidget(model_, 1, 1);
    views->setRowStretch(1, 1);
    layout->addLayout(views, 1);

    auto* controls = new QHBoxLayout;
    play_ = new QPushButton(tr("Play"), this);
    play_->setObjectName(QStringLiteral("schedulePlay"));
    play_->setCheckable(true);
    slider_ = new QSlider(Qt::Horizontal, this);
    slider_->setObjectName(QStringLiteral("scheduleTime"));
    slider_->setRange(0, kSliderSteps);
    tail_ = new QPushButton(tr("Jump to Tail"), this);
    tail_->setObjectName(QStringLiteral("scheduleTail"));
    tail_->setToolTip(tr("Go to the moment the first SM finished its last block: from there on, SMs sit idle"));
    speed_ = new QComboBox(this);
    speed_->setObjectName(QStringLiteral("scheduleSpeed"));
    for (double s : kSpeeds) speed_->addItem(tr("run in %1 s").arg(s));
    speed_->setCurrentIndex(1);
    speed_->setToolTip(tr("How long the whole run lasts on screen"));
    controls->addWidget(play_);
    controls->addWidget(slider_, 1);
    controls->addWidget(speed_);
    controls->addWidget(tail_);
    layout->addLayout(controls);

    differences_ = new QLabel(this);
    differences_->setObjectName(QStringLiteral("scheduleDifferences"));
    differences_->setWordWrap(true);
    differences_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    differences_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* scroll = new QScrollArea(this);
    scroll->setWidget(differences_);
    scroll->setWidgetResizable(true);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setFrameShape(QFrame::NoFrame);
    outer->addWidget(scroll, 2);

    timer_ = new QTimer(this);
    timer_->setInterval(kFrameMs);
    connect(timer_, &QTimer::timeout, this, [this] { advance(kFrameMs); });
    connect(play_, &QPushButton::toggled, this, &SchedulePanel::setPlaying);
    connect(tail_, &QPushButton::clicked, this, &SchedulePanel::jumpToTail);
    // setTime moves the slider with its signals blocked, so a valueChanged is the user's move.
    connect(slider_, &QSlider::valueChanged, this, [this](int v) {
        if (replay_) setTime(std::uint64_t((long double)replay_->duration_ns() * v / kSliderSteps));
    });
    setEnabled(false);
}

void SchedulePanel::setReplay(std::shared_ptr<const ScheduleReplay> replay, const QString& source) {
    replay_ = std::move(replay);
    source_ = source;
    recorded_->setReplay(replay_);
    model_->setReplay(replay_);
    setEnabled(replay_ && !replay_->empty());
    QStringList lines = replay_ ? replay_->differences() : QStringList{};
    differences_->setText(lines.isEmpty() ? QString() : tr("How the recording differs from the model:") + QStringLiteral("\n• ") +
                                                           lines.join(QStringLiteral("\n• ")));
    time_ = 1;  // setTime(0) below always takes effect
    setTime(0);
}

void SchedulePanel::setTime(std::uint64_t ns) {
    if (replay_) ns = std::min(ns, replay_->duration_ns());
    if (ns == time_) return;
    time_ = ns;
    recorded_->setTime(ns);
    model_->setTime(ns);
    if (replay_) {
        const QSignalBlocker block(slider_);
        slider_->setValue(int((long double)ns * kSliderSteps / std::max<std::uint64_t>(1, replay_->duration_ns())));
    }
    updateTexts();
    emit timeChanged(ns);
}

void SchedulePanel::jumpToTail() {
    if (replay_) setTime(replay_->tail_start_ns());
}

void SchedulePanel::setPlaying(bool playing) {
    if (playing && replay_ && time_ >= replay_->duration_ns()) setTime(0);  // play again from the start
    {
        const QSignalBlocker block(play_);
        play_->setChecked(playing);
    }
    play_->setText(playing ? tr("Pause") : tr("Play"));
    if (playing) timer_->start();
    else timer_->stop();
}

bool SchedulePanel::playing() const { return timer_->isActive(); }

double SchedulePanel::secondsPerRun() const { return kSpeeds[std::max(0, speed_->currentIndex())]; }

void SchedulePanel::setSpeedIndex(int index) { speed_->setCurrentIndex(index); }

void SchedulePanel::advance(double elapsed_ms) {
    if (!replay_) return;
    const double step = double(replay_->duration_ns()) * elapsed_ms / (1000.0 * secondsPerRun());
    const std::uint64_t next = time_ + std::max<std::uint64_t>(1, std::uint64_t(step));
    setTime(next);
    if (time_ >= replay_->duration_ns()) setPlaying(false);
}

QString SchedulePanel::caption() const { return caption_->text(); }

void SchedulePanel::setNote(const QString& text) {
    note_->setText(text);
    note_->setVisible(!text.isEmpty());
}

QString SchedulePanel::note() const { return note_->text(); }
QString SchedulePanel::differencesText() const { return differences_->text(); }

void SchedulePanel::updateTexts() {
    if (!replay_ || replay_->empty()) return;
    const BlockSchedule& s = replay_->schedule();
    const std::uint64_t n = s.blocks.size();
    const std::uint64_t started = replay_->started_at(time_), done = replay_->done_at(time_);
    const WavePlan m = replay_->model();
    const std::uint64_t wave = replay_->model_wave_at(time_);
    const bool tail = time_ >= replay_->tail_start_ns() && time_ < replay_->duration_ns();
    caption_->setText(tr("%1 (%2, %3 %4) · t = %5 of %6 · %7 running, %8 done%9 · model: %10")
                          .arg(QString::fromStdString(s.device), source_)
                          .arg(s.sms)
                          .arg(s.backend == "cuda" ? tr("SMs") : tr("host workers"))
                          .arg(duration_text(time_), duration_text(replay_->duration_ns()))
                          .arg(QLocale(QLocale::English).toString(qulonglong(started - std::min(started, done))))
                          .arg(tr("%1 of %2").arg(QLocale(QLocale::English).toString(qulonglong(done)),
                                                   counted(n, tr("block"), tr("blocks"))))
                          .arg(tail ? tr(" · the tail: SMs going idle") : QString())
                          .arg(wave >= m.waves ? tr("all %1 done").arg(counted(m.waves, tr("wave"), tr("waves")))
                                               : tr("wave %1 of %2").arg(wave + 1).arg(m.waves)));
}

}  // namespace cvz
