#pragma once
// Replaying a recorded block schedule on a time axis, beside the wave model's prediction, and naming
// how the two differ. Qt Core only: the SM panel's schedule view and the tests read the same answers.
#include <QString>
#include <QStringList>

#include <cstdint>
#include <vector>

#include "kernels/core/block_schedule.h"
#include "app/models/wave_model.h"

namespace cvz {

enum class BlockPhase : std::uint8_t { Waiting, Running, Done };

class ScheduleReplay {
public:
    ScheduleReplay() = default;
    // `schedule` must have passed check_block_schedule; `grid` is the grid it spans. `model_slots`:
    // the model's resident blocks per SM, from the occupancy model of the launch; 0: the most blocks
    // the recording shows on one SM at once.
    ScheduleReplay(BlockSchedule schedule, Dim3 grid, int model_slots = 0);

    bool empty() const { return schedule_.blocks.empty(); }
    const BlockSchedule& schedule() const { return schedule_; }
    Dim3 grid() const { return grid_; }
    std::uint64_t duration_ns() const { return duration_; }  // the last end

    // The record of linear block id `b`, and its phase at time t (running on [start, end), done from end).
    const BlockRecord& block(std::uint64_t b) const { return schedule_.blocks[order_[b]]; }
    BlockPhase phase(std::uint64_t b, std::uint64_t t) const;
    // Linear block ids running at t on each SM (index: SM), in the order they started.
    std::vector<std::vector<std::uint64_t>> running_by_sm(std::uint64_t t) const;
    std::uint64_t done_at(std::uint64_t t) const;     // blocks finished by t
    std::uint64_t started_at(std::uint64_t t) const;  // blocks started by t

    // The most blocks one SM held at once (the recorded concurrency).
    int max_resident() const { return max_resident_; }
    // When the tail begins: the first moment an SM that ran blocks has finished its last one (an SM
    // that ran none is idle throughout and does not count). Equal to duration_ns() when all finish together.
    std::uint64_t tail_start_ns() const { return tail_start_; }
    // Blocks each SM ran, index: SM.
    const std::vector<std::uint64_t>& blocks_per_sm() const { return per_sm_; }

    // The model on the same time axis: sms x model slots (see the constructor), blocks dealt in index order round-robin,
    // every wave the same length (duration / waves).
    WavePlan model() const;
    std::uint64_t model_wave_at(std::uint64_t t) const;

    // How the recording differs from the model, one finding a line, every figure from the data:
    // dispatch order, blocks on the SM the model predicts, the tail, blocks per SM, duration spread.
    QStringList differences() const;

private:
    BlockSchedule schedule_;
    Dim3 grid_;
    std::vector<std::uint32_t> order_;  // linear block id -> index in schedule_.blocks
    std::uint64_t duration_ = 0;
    int max_resident_ = 0;
    int model_slots_ = 0;
    std::uint64_t tail_start_ = 0;
    std::vector<std::uint64_t> per_sm_;
    std::vector<std::uint64_t> sorted_starts_, sorted_ends_;
};

// "152.3 µs", "2.10 ms", "840 ns": a duration in the unit that reads best.
QString duration_text(std::uint64_t ns);

}  // namespace cvz
