#include "app/user/user_problem.h"

#include <QByteArray>
#include <QHash>

#include <algorithm>

#include "app/models/launch_sample.h"
#include "app/user/launch_dims.h"
#include "app/user/user_run.h"

namespace cvz {

namespace {

const user::CallForm* form_of(const UserVariant& v, const user::FamilyCall& call) {
    for (const user::CallForm& f : call.forms())
        if (f.id == v.form) return &f;
    return nullptr;
}

}  // namespace

Dim3 user_launched_block(const UserVariant& v, const LaunchChoice& choice) {
    return v.one_d ? Dim3{choice.block.x, 1, 1} : choice.block;
}

QString validate_user_choice(const LaunchChoice& choice, const user::FamilyCall& call) {
    const UserVariantPtr v = user_variant(choice.ref);
    if (!v) return QStringLiteral("your kernel is no longer loaded: compile it again");
    if (!form_of(*v, call)) return QStringLiteral("your kernel %1 does not fit this family").arg(QString::fromStdString(v->name));
    if (const std::string e = call.input_error(); !e.empty()) return QString::fromStdString(e);
    return block_error(user_launched_block(*v, choice));
}

BlockResources user_block_resources(const LaunchChoice& choice) {
    BlockResources r;
    const UserVariantPtr v = user_variant(choice.ref);
    const Dim3 block = v ? user_launched_block(*v, choice) : choice.block;
    r.threads = int(block.volume());
    if (v && v->resources) {
        r.regs_per_thread = v->resources->registers;
        r.shared_bytes = v->resources->static_shared_bytes;
    }
    return r;
}

ProblemTrace trace_user_choice(const LaunchChoice& choice, const FamilyCallMaker& make, const CancelToken* cancel) {
    ProblemTrace t;
    const UserVariantPtr v = user_variant(choice.ref);
    if (!v) {
        t.traced.status = Status::error(ErrorKind::InvalidInput, "your kernel is no longer loaded: compile it again");
        return t;
    }
    const std::unique_ptr<user::FamilyCall> call = make(true);
    const user::CallForm* form = form_of(*v, *call);
    if (!form) {
        t.traced.status = Status::error(ErrorKind::InvalidInput, "your kernel " + v->name + " does not fit this family");
        return t;
    }
    const Dim3 block = user_launched_block(*v, choice);
    TraceOptions options;
    options.cancel = cancel;
    t.traced = trace_user_launch(*v, *call, call->grid(*form, block), block, options);
    t.traced_size = QString::fromStdString(call->size_text());
    return t;
}

GpuPrediction predict_user_choice(const DeviceProfile& profile, const LaunchChoice& choice, const FamilyCallMaker& make,
                                  const UserWorkHints& hints) {
    GpuPrediction none;
    const UserVariantPtr v = user_variant(choice.ref);
    if (!v) {
        none.error = QStringLiteral("your kernel is no longer loaded: compile it again");
        return none;
    }
    std::shared_ptr<user::FamilyCall> call = make(false);
    const user::CallForm* form = form_of(*v, *call);
    if (const QString e = validate_user_choice(choice, *call); !e.isEmpty() || !form) {
        none.error = e.isEmpty() ? QStringLiteral("your kernel does not fit this family") : e;
        return none;
    }
    const Dim3 block = user_launched_block(*v, choice);
    const Dim3 grid = call->grid(*form, block);
    if (const QString e = grid_error(grid); !e.isEmpty()) {
        none.error = e;
        return none;
    }
    // Keyed by the kernel's text too: a new compile under the same ref is a new kernel.
    const QString key = QStringLiteral("user/%1/%2/%3/%4/%5")
                            .arg(int(choice.ref.family))
                            .arg(qHash(QByteArray::fromStdString(v->source.text + v->name)))
                            .arg(dims_text(block), dims_text(grid), hints.size_key);
    LaunchWork w;
    w.figures = sampled_launch_figures(key, grid, block, hints.buffer_bytes, [&] {
        return trace_and_scale(grid, block, [&](const TraceOptions& o) { return trace_user_launch(*v, *call, grid, block, o); });
    });
    w.resources = user_block_resources(choice);
    const double threads = double(grid.volume()) * double(block.volume());
    w.lane_instructions = kIndexInstructionsPerThread * threads + hints.lane_instructions;
    w.fmas = hints.fmas;
    w.chain_per_thread = w.lane_instructions / std::max(1.0, threads);
    GpuPrediction p = predict_launch(profile, w);
    if (!v->resources) p.sampling += QStringLiteral("; registers assumed 32 (no NVRTC compile)");
    return p;
}

ShapeTiming time_user_choice(const LaunchChoice& choice, const FamilyCallMaker& make, const TimingOptions& options) {
    ShapeTiming t;
    const UserVariantPtr v = user_variant(choice.ref);
    if (!v) {
        t.status = Status::error(ErrorKind::InvalidInput, "your kernel is no longer loaded: compile it again");
        return t;
    }
    const std::unique_ptr<user::FamilyCall> call = make(false);
    const user::CallForm* form = form_of(*v, *call);
    if (const QString e = validate_user_choice(choice, *call); !e.isEmpty() || !form) {
        t.status = Status::error(ErrorKind::InvalidInput, e.isEmpty() ? std::string("your kernel does not fit this family") : e.toStdString());
        return t;
    }
    const Dim3 block = user_launched_block(*v, choice);
    return time_user_launch(*v, *call, call->grid(*form, block), block, options);
}

TimingSweep time_with_user_choices(const std::vector<LaunchChoice>& launches, const TimingOptions& options,
                                   const std::function<TimingSweep(const std::vector<LaunchChoice>&)>& time_builtins,
                                   const FamilyCallMaker& make) {
    std::vector<LaunchChoice> builtins;
    for (const LaunchChoice& c : launches)
        if (!is_user_ref(c.ref)) builtins.push_back(c);
    TimingSweep sweep = builtins.empty() ? TimingSweep{} : time_builtins(builtins);
    if (!builtins.empty() && !sweep.status) {
        sweep.shapes.resize(launches.size());  // the whole sweep failed: every shape untimed, in order
        return sweep;
    }
    std::vector<ShapeTiming> merged;
    merged.reserve(launches.size());
    std::size_t next_builtin = 0;
    for (const LaunchChoice& c : launches) {
        if (!is_user_ref(c.ref)) {
            merged.push_back(next_builtin < sweep.shapes.size() ? sweep.shapes[next_builtin] : ShapeTiming{});
            ++next_builtin;
            continue;
        }
        if (options.cancel && options.cancel->requested()) {
            sweep.cancelled = true;
            merged.emplace_back();
            continue;
        }
        merged.push_back(time_user_choice(c, make, options));
    }
    sweep.shapes = std::move(merged);
    sweep.completed = launches.size();
    if (sweep.rounds == 0) sweep.rounds = 1;
    return sweep;
}

}  // namespace cvz
