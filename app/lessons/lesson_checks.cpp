// The act steps' checks: each computes the right answer from the app's own models (the launch plan,
// the occupancy and wave models, a family's traced launch, the performance model) for the step's
// arguments, and says concretely why an answer is not it.
#include "app/lessons/lesson.h"

#include <QRegularExpression>

#include <cmath>
#include <functional>
#include <map>

#include "app/family/app_family.h"
#include "app/family/problem_size.h"
#include "app/models/device_profile.h"
#include "app/models/launch_plan.h"
#include "app/models/occupancy_model.h"
#include "app/models/wave_model.h"
#include "app/user/launch_dims.h"
#include "kernels/catalogue/kernel_catalogue.h"
#include "kernels/core/cancel_token.h"

namespace cvz::lessons {

namespace {

CheckResult pass(const QString& why) { return {true, why, {}}; }
CheckResult fail(const LessonStep& step, const QString& why) { return {false, why, step.hint}; }
// A step whose arguments are wrong is the lesson file's fault, not the learner's: said so.
CheckResult bad_step(const LessonStep& step, const QString& why) {
    return {false, QStringLiteral("lesson '%1' cannot be checked: %2").arg(step.id, why), {}};
}

QString arg(const LessonStep& step, const char* name, const QString& fallback = {}) {
    return step.check_args.value(QString::fromLatin1(name), fallback).toString().trimmed();
}

// A whole number typed by the learner ("1,024", " 1024 "); nullopt when it is not one.
std::optional<qint64> typed_integer(const QString& answer) {
    QString t = answer.trimmed();
    t.remove(QLatin1Char(','));
    t.remove(QLatin1Char('_'));
    t.remove(QLatin1Char(' '));
    bool ok = false;
    const qint64 v = t.toLongLong(&ok);
    return ok ? std::optional<qint64>(v) : std::nullopt;
}

std::optional<double> typed_number(const QString& answer) {
    QString t = answer.trimmed();
    t.remove(QRegularExpression(QStringLiteral("\\s*(us|µs|microseconds?)$"), QRegularExpression::CaseInsensitiveOption));
    t.remove(QLatin1Char(','));
    bool ok = false;
    const double v = t.trimmed().toDouble(&ok);
    return ok && std::isfinite(v) ? std::optional<double>(v) : std::nullopt;
}

// The image size of a step's arguments ("size: 37x23").
bool image_size(const LessonStep& step, std::uint32_t* w, std::uint32_t* h, QString* why) {
    const QString size = arg(step, "size");
    const QStringList wh = size.split(QLatin1Char('x'));
    bool okw = false, okh = false;
    if (wh.size() == 2) {
        *w = wh[0].toUInt(&okw);
        *h = wh[1].toUInt(&okh);
    }
    if (!okw || !okh || *w == 0 || *h == 0) {
        *why = QStringLiteral("check.size '%1' is not WxH").arg(size);
        return false;
    }
    return true;
}

std::optional<DeviceProfile> step_device(const LessonStep& step, QString* why) {
    const QString name = arg(step, "device", QStringLiteral("H200"));
    const std::optional<DeviceProfile> p = find_device_profile(name);
    if (!p) *why = QStringLiteral("no device profile '%1'").arg(name);
    return p;
}

// The family's compiled kernel named by check.kernel with `block`.
std::optional<LaunchChoice> step_choice(const LessonStep& step, const Dim3& block, const AppFamily** family, QString* why) {
    const std::string name = arg(step, "kernel").toStdString();
    for (const KernelInfo& k : kernel_catalogue())
        if (k.name == name) {
            LaunchChoice c;
            c.ref = k.ref(k.tiles.empty() ? 0 : k.tiles.front());
            c.block = block;
            *family = &app_family(k.family);
            return c;
        }
    *why = QStringLiteral("no kernel '%1' in the catalogue").arg(QString::fromStdString(name));
    return std::nullopt;
}

// The launch a step names: its device (check.device), kernel (check.kernel) and block (check.block).
// Empty with *why when one of them is not valid.
struct StepLaunch {
    DeviceProfile device;
    const AppFamily* family = nullptr;
    LaunchChoice choice;
};
std::optional<StepLaunch> step_launch(const LessonStep& step, QString* why) {
    const std::optional<DeviceProfile> device = step_device(step, why);
    if (!device) return std::nullopt;
    const std::optional<Dim3> block = parse_dims(arg(step, "block"), why);
    if (!block) return std::nullopt;
    StepLaunch launch;
    launch.device = *device;
    const std::optional<LaunchChoice> choice = step_choice(step, *block, &launch.family, why);
    if (!choice) return std::nullopt;
    launch.choice = *choice;
    return launch;
}

// The plan of the step's kernel (check.kernel) launched with `block_text` (the launch panel's "256" or
// "32x8") over the step's image (check.size), as the kernel's family plans it: which thread writes
// which pixel, and the idle ones. Empty with *why when the block or the launch is not valid.
std::optional<LaunchPlan> image_plan(const LessonStep& step, const QString& block_text, QString* why) {
    QString error;
    if (parse_problem_size(arg(step, "size"), 2, ~0u, &error).empty()) {
        *why = QStringLiteral("check.size: ") + error;
        return std::nullopt;
    }
    const std::optional<Dim3> block = parse_dims(block_text.trimmed(), &error);
    if (!block) {
        *why = QStringLiteral("'%1' is not a block: %2").arg(block_text.trimmed(), error);
        return std::nullopt;
    }
    if (const QString e = block_error(*block); !e.isEmpty()) {
        *why = QStringLiteral("block %1 cannot be launched: %2").arg(dims_text(*block), e);
        return std::nullopt;
    }
    const AppFamily* family = nullptr;
    const std::optional<LaunchChoice> choice = step_choice(step, *block, &family, why);
    if (!choice) return std::nullopt;
    const KernelInfo* info = choice->info();
    if (info && info->block == BlockRule::OneD && (block->y != 1 || block->z != 1)) {
        *why = QStringLiteral("block %1 is not 1-D: %2 takes N threads a block").arg(dims_text(*block), arg(step, "kernel"));
        return std::nullopt;
    }
    if (block->z != 1) {
        *why = QStringLiteral("block %1 has a z extent; the image kernels take 1-D or 2-D blocks").arg(dims_text(*block));
        return std::nullopt;
    }
    if (!family->sized_launch_plan) {
        *why = QStringLiteral("family %1 has no launch plan over an image").arg(family->name);
        return std::nullopt;
    }
    std::optional<LaunchPlan> plan = family->sized_launch_plan(arg(step, "size"), *choice, &error);
    if (!plan) *why = QStringLiteral("block %1 cannot be launched on %2: %3").arg(dims_text(*block), arg(step, "size"), error);
    return plan;
}

QString percent(double fraction) { return QString::number(100.0 * fraction, 'f', fraction == 1.0 ? 0 : 1) + "%"; }

// --- the checks, by the header's `check:` ---

// Where a channel of pixel (row, col) sits in the flattened image.
CheckResult channel_index(const LessonStep& step, const QString& answer) {
    std::uint32_t w = 0, h = 0;
    QString why;
    if (!image_size(step, &w, &h, &why)) return bad_step(step, why);
    const qint64 row = arg(step, "row").toLongLong(), col = arg(step, "col").toLongLong();
    const qint64 channel = arg(step, "channel").toLongLong();
    const bool planar = arg(step, "layout", QStringLiteral("planar")) == QLatin1String("planar");
    const qint64 n = qint64(w) * h, i = row * w + col;
    const qint64 expected = planar ? channel * n + i : 3 * i + channel;
    const std::optional<qint64> got = typed_integer(answer);
    if (!got) return fail(step, QStringLiteral("'%1' is not a whole number: give the index as one").arg(answer.trimmed()));
    if (*got == expected) return pass(QStringLiteral("right: x[%1] holds it").arg(expected));
    if (*got == i) return fail(step, QStringLiteral("%1 is the pixel's flat index i = row * w + col; its channel %2 is further on").arg(i).arg(channel));
    if (*got == (planar ? 3 * i + channel : channel * n + i))
        return fail(step, QStringLiteral("%1 is where it would be in the %2 layout").arg(*got).arg(planar ? "interleaved" : "planar"));
    if (*got == col * h + row) return fail(step, QStringLiteral("%1 counts columns first: rows are stored one after the other").arg(*got));
    return fail(step, QStringLiteral("x[%1] is not channel %2 of pixel (row %3, column %4)").arg(*got).arg(channel).arg(row).arg(col));
}

// The layout whose loads need the fewest sectors per request, from the family's traced launch.
CheckResult fewest_sectors(const LessonStep& step, const QString& answer, const CancelToken* cancel) {
    const AppFamily* family = nullptr;
    QString why;
    const std::optional<LaunchChoice> choice = step_choice(step, Dim3{256, 1, 1}, &family, &why);
    if (!choice) return bad_step(step, why);
    if (!family->sized_problem) return bad_step(step, QStringLiteral("family %1 has no sized problem").arg(family->name));
    const QString picked = answer.trimmed().toLower();
    const QStringList layouts{QStringLiteral("planar"), QStringLiteral("interleaved")};
    if (!layouts.contains(picked)) return fail(step, QStringLiteral("'%1' is neither planar nor interleaved").arg(answer.trimmed()));
    std::map<QString, double> per_request;
    for (const QString& layout : layouts) {
        const FamilyProblemPtr problem = family->sized_problem(arg(step, "size"), {{QStringLiteral("layout"), layout}}, &why);
        if (!problem) return bad_step(step, why);
        const ProblemTrace t = problem->traceSample(*choice, cancel);
        if (t.traced.cancelled) return {false, QStringLiteral("cancelled"), {}};
        if (!t.traced.status) return bad_step(step, QString::fromStdString(t.traced.status.message()));
        const RequestCounts& ld = t.traced.trace.totals.global_ld;
        per_request[layout] = ld.requests ? double(ld.sectors) / double(ld.requests) : 0;
    }
    const QString best = per_request[layouts[0]] <= per_request[layouts[1]] ? layouts[0] : layouts[1];
    const QString figures = QStringLiteral("loads need %1 sectors per request planar, %2 interleaved")
                                .arg(per_request[layouts[0]], 0, 'f', 2)
                                .arg(per_request[layouts[1]], 0, 'f', 2);
    if (picked == best) return pass(QStringLiteral("right: %1 (traced on a %2 image)").arg(figures, arg(step, "size")));
    return fail(step, QStringLiteral("in the %1 layout a warp's 32 loads of one channel are %2 bytes apart, so a request "
                                     "touches %3 sectors of 32 bytes")
                          .arg(picked, picked == QLatin1String("interleaved") ? QStringLiteral("3") : QStringLiteral("1"))
                          .arg(per_request[picked], 0, 'f', 2));
}

// How many blocks of a kernel run at once on the whole device.
CheckResult blocks_at_once(const LessonStep& step, const QString& answer) {
    QString why;
    const std::optional<StepLaunch> launch = step_launch(step, &why);
    if (!launch) return bad_step(step, why);
    const Occupancy occ = compute_occupancy(launch->device, launch->family->block_resources(launch->choice));
    const qint64 expected = qint64(occ.blocks_per_sm) * launch->device.sm_count;
    const std::optional<qint64> got = typed_integer(answer);
    if (!got) return fail(step, QStringLiteral("'%1' is not a whole number of blocks").arg(answer.trimmed()));
    if (*got == expected)
        return pass(QStringLiteral("right: %1 SMs x %2 blocks each (limited by %3)")
                        .arg(launch->device.sm_count)
                        .arg(occ.blocks_per_sm)
                        .arg(to_string(occ.limit)));
    if (*got == launch->device.sm_count)
        return fail(step, QStringLiteral("%1 is the number of SMs; each SM holds several blocks at once").arg(*got));
    if (*got == occ.blocks_per_sm)
        return fail(step, QStringLiteral("%1 blocks is one SM's share; the device has %2 SMs").arg(*got).arg(launch->device.sm_count));
    return fail(step, QStringLiteral("%1 is not it: it is %2 than that").arg(*got).arg(*got < expected ? "more" : "fewer"));
}

// The thread (block and thread index) that writes pixel (row, col).
CheckResult thread_of_pixel(const LessonStep& step, const QString& answer) {
    QString why;
    const std::optional<LaunchPlan> planned = image_plan(step, arg(step, "block"), &why);
    if (!planned) return bad_step(step, why);
    const LaunchPlan& plan = *planned;
    const std::uint32_t w = plan.width, h = plan.height;
    const std::uint32_t row = arg(step, "row").toUInt(), col = arg(step, "col").toUInt();
    if (row >= h || col >= w) return bad_step(step, QStringLiteral("pixel (%1, %2) is outside the image").arg(row).arg(col));
    const Dim3 block = plan.shape.block;
    const ThreadOfPixel t = plan.thread_of_pixel(col, row);
    const QStringList parts = answer.split(QLatin1Char(','));
    std::vector<qint64> v;
    for (const QString& p : parts) {
        bool ok = false;
        v.push_back(p.trimmed().toLongLong(&ok));
        if (!ok) v.clear();
        if (!ok) break;
    }
    if (v.size() != 4)
        return fail(step, QStringLiteral("'%1' is not four numbers bx,by,tx,ty (the block's x and y, the thread's x and y)")
                              .arg(answer.trimmed()));
    const qint64 bx = t.block.x, by = t.block.y, tx = t.thread.x, ty = t.thread.y;
    const QString them = QStringLiteral("block (%1, %2), thread (%3, %4)").arg(v[0]).arg(v[1]).arg(v[2]).arg(v[3]);
    if (v[0] == bx && v[1] == by && v[2] == tx && v[3] == ty)
        return pass(QStringLiteral("right: %1 writes pixel (row %2, column %3), flat index %4")
                        .arg(them)
                        .arg(row)
                        .arg(col)
                        .arg(t.global_index));
    if (v[0] == by && v[1] == bx && v[2] == ty && v[3] == tx && (bx != by || tx != ty))
        return fail(step, QStringLiteral("%1 swaps x and y: x counts columns, y counts rows").arg(them));
    if (v[0] >= plan.grid.x || v[1] >= plan.grid.y || v[2] >= block.x || v[3] >= block.y)
        return fail(step, QStringLiteral("%1 is not in the launch: the grid is %2 blocks of %3 threads")
                              .arg(them, dims_text(plan.grid), dims_text(block)));
    // Which pixel does the named thread write, by the same plan?
    const std::uint64_t ix = std::uint64_t(v[0]) * block.x + std::uint64_t(v[2]);
    const std::uint64_t iy = std::uint64_t(v[1]) * block.y + std::uint64_t(v[3]);
    if (plan.one_d) {
        if (v[1] != 0 || v[3] != 0) return fail(step, QStringLiteral("%1: a 1-D launch has only y = 0").arg(them));
        if (ix >= std::uint64_t(w) * h) return fail(step, QStringLiteral("%1 is idle: its i = %2 is past the image (n = %3)").arg(them).arg(ix).arg(std::uint64_t(w) * h));
        return fail(step, QStringLiteral("%1 has i = %2: it writes pixel (row %3, column %4)").arg(them).arg(ix).arg(ix / w).arg(ix % w));
    }
    if (ix >= w || iy >= h) return fail(step, QStringLiteral("%1 is idle: column %2, row %3 is outside the %4x%5 image").arg(them).arg(ix).arg(iy).arg(w).arg(h));
    return fail(step, QStringLiteral("%1 writes pixel (row %2, column %3)").arg(them).arg(iy).arg(ix));
}

// How many threads the guard switches off.
CheckResult idle_threads(const LessonStep& step, const QString& answer) {
    QString why;
    const std::optional<LaunchPlan> planned = image_plan(step, arg(step, "block"), &why);
    if (!planned) return bad_step(step, why);
    const LaunchPlan& plan = *planned;
    const std::optional<qint64> got = typed_integer(answer);
    if (!got) return fail(step, QStringLiteral("'%1' is not a whole number of threads").arg(answer.trimmed()));
    if (*got == qint64(plan.idle_threads))
        return pass(QStringLiteral("right: %1 blocks x %2 threads = %3 threads for %4 pixels")
                        .arg(plan.blocks)
                        .arg(plan.threads_per_block)
                        .arg(plan.total_threads)
                        .arg(plan.active_threads));
    if (*got == qint64(plan.total_threads))
        return fail(step, QStringLiteral("%1 is every thread of the launch; most of them write a pixel").arg(*got));
    if (*got == qint64(plan.blocks))
        return fail(step, QStringLiteral("%1 is the number of blocks, cdiv(n, %2); the question is about threads").arg(*got).arg(plan.shape.block.x));
    return fail(step, QStringLiteral("%1 is not it: %2 threads are switched off than that")
                          .arg(*got)
                          .arg(*got < qint64(plan.idle_threads) ? "more" : "fewer"));
}

// A block that leaves no thread idle on the image, with at least check.min_threads threads.
CheckResult no_idle_threads(const LessonStep& step, const QString& answer) {
    QString why;
    const std::optional<LaunchPlan> planned = image_plan(step, answer, &why);
    if (!planned) return fail(step, why);
    const LaunchPlan& plan = *planned;
    const std::uint32_t w = plan.width, h = plan.height;
    const std::uint64_t least = arg(step, "min_threads", QStringLiteral("1")).toULongLong();
    const QString block = dims_text(plan.shape.block);
    if (plan.threads_per_block < least)
        return fail(step, QStringLiteral("block %1 has %2 threads; take at least %3 (a tiny block leaves no thread idle, "
                                         "but an SM holds only so many blocks)")
                              .arg(block)
                              .arg(plan.threads_per_block)
                              .arg(least));
    if (plan.idle_threads > 0) {
        QString where;
        if (plan.one_d) where = QStringLiteral("n = %1 is not a multiple of %2").arg(std::uint64_t(w) * h).arg(plan.shape.block.x);
        else {
            QStringList sides;
            if (w % plan.shape.block.x) sides << QStringLiteral("%1 columns are not a multiple of %2").arg(w).arg(plan.shape.block.x);
            if (h % plan.shape.block.y) sides << QStringLiteral("%1 rows are not a multiple of %2").arg(h).arg(plan.shape.block.y);
            where = sides.join(QStringLiteral(" and "));
        }
        return fail(step, QStringLiteral("block %1 leaves %2 of %3 threads idle on the %4x%5 image: %6")
                              .arg(block)
                              .arg(plan.idle_threads)
                              .arg(plan.total_threads)
                              .arg(w)
                              .arg(h)
                              .arg(where));
    }
    return pass(QStringLiteral("right: %1 blocks of %2 cover the %3x%4 image exactly").arg(plan.blocks).arg(block).arg(w).arg(h));
}

// A block that makes the kernel's occupancy 100% on the device.
CheckResult full_occupancy(const LessonStep& step, const QString& answer) {
    QString why;
    const std::optional<DeviceProfile> device = step_device(step, &why);
    if (!device) return bad_step(step, why);
    const std::optional<Dim3> block = parse_dims(answer.trimmed(), &why);
    if (!block) return fail(step, QStringLiteral("'%1' is not a block: %2").arg(answer.trimmed(), why));
    if (const QString e = block_error(*block); !e.isEmpty())
        return fail(step, QStringLiteral("block %1 cannot be launched: %2").arg(dims_text(*block), e));
    const AppFamily* family = nullptr;
    const std::optional<LaunchChoice> choice = step_choice(step, *block, &family, &why);
    if (!choice) return bad_step(step, why);
    if (choice->info() && choice->info()->block == BlockRule::OneD && (block->y != 1 || block->z != 1))
        return fail(step, QStringLiteral("block %1 is not 1-D: %2 takes N threads a block")
                              .arg(dims_text(*block), arg(step, "kernel")));
    const BlockResources res = family->block_resources(*choice);
    const Occupancy occ = compute_occupancy(*device, res);
    if (occ.blocks_per_sm == 0) return fail(step, QStringLiteral("no block of %1 fits on an SM: %2").arg(dims_text(*block), occ.error));
    const QString figures = QStringLiteral("%1 blocks of %2 warp%3 = %4 of %5 warps per SM")
                                .arg(occ.blocks_per_sm)
                                .arg(occ.warps_per_block)
                                .arg(occ.warps_per_block == 1 ? "" : "s")
                                .arg(occ.active_warps)
                                .arg(device->max_warps_per_sm());
    if (occ.occupancy >= 1.0) return pass(QStringLiteral("right: occupancy 100%: %1").arg(figures));
    return fail(step, QStringLiteral("occupancy is %1 with block %2 on the %3: %4, limited by %5")
                          .arg(percent(occ.occupancy), dims_text(*block), device->name, figures, to_string(occ.limit)));
}

// How many waves a launch takes on the device.
CheckResult waves(const LessonStep& step, const QString& answer) {
    QString why;
    const std::optional<DeviceProfile> device = step_device(step, &why);
    if (!device) return bad_step(step, why);
    const std::optional<LaunchPlan> planned = image_plan(step, arg(step, "block"), &why);
    if (!planned) return bad_step(step, why);
    const LaunchPlan& plan = *planned;
    const AppFamily* family = nullptr;
    const std::optional<LaunchChoice> choice = step_choice(step, plan.shape.block, &family, &why);
    if (!choice) return bad_step(step, why);
    const Occupancy occ = compute_occupancy(*device, family->block_resources(*choice));
    const WavePlan wp = plan_waves(plan.blocks, device->sm_count, occ.blocks_per_sm);
    const std::optional<qint64> got = typed_integer(answer);
    if (!got) return fail(step, QStringLiteral("'%1' is not a whole number of waves").arg(answer.trimmed()));
    if (*got == qint64(wp.waves))
        return pass(QStringLiteral("right: %1 blocks, %2 at once (%3 SMs x %4): %5 waves, the last %6 full")
                        .arg(wp.blocks)
                        .arg(wp.blocks_per_wave)
                        .arg(device->sm_count)
                        .arg(occ.blocks_per_sm)
                        .arg(wp.waves)
                        .arg(percent(wp.tail_fill)));
    if (*got == qint64(wp.waves) - 1 && wp.tail_fill < 1)
        return fail(step, QStringLiteral("%1 leaves out the tail: a last, partial wave still takes its turn").arg(*got));
    return fail(step, QStringLiteral("%1 is not it: there are %2 blocks; count how many run at once")
                          .arg(*got)
                          .arg(plan.blocks));
}

// The multiply-adds of a product of MxKxN.
CheckResult multiply_adds(const LessonStep& step, const QString& answer) {
    const QStringList mkn = arg(step, "size").split(QLatin1Char('x'));
    if (mkn.size() != 3) return bad_step(step, QStringLiteral("check.size is not MxKxN"));
    const qint64 m = mkn[0].toLongLong(), k = mkn[1].toLongLong(), n = mkn[2].toLongLong();
    const std::optional<qint64> got = typed_integer(answer);
    if (!got) return fail(step, QStringLiteral("'%1' is not a whole number").arg(answer.trimmed()));
    if (*got == m * k * n) return pass(QStringLiteral("right: %1 outputs x %2 multiply-adds each").arg(m * n).arg(k));
    if (*got == m * n) return fail(step, QStringLiteral("%1 is the number of outputs; each one takes a loop of its own").arg(*got));
    if (*got == 2 * m * k * n) return fail(step, QStringLiteral("%1 counts the multiply and the add apart (that is the FLOP count)").arg(*got));
    return fail(step, QStringLiteral("%1 is not it").arg(*got));
}

// The predicted GPU time of a launch, within check.factor of the model's.
CheckResult predicted_time(const LessonStep& step, const QString& answer, const CancelToken*) {
    QString why;
    const std::optional<StepLaunch> launch = step_launch(step, &why);
    if (!launch) return bad_step(step, why);
    if (!launch->family->sized_problem) return bad_step(step, QStringLiteral("family %1 has no sized problem").arg(launch->family->name));
    QVariantMap options;
    if (!arg(step, "layout").isEmpty()) options.insert(QStringLiteral("layout"), arg(step, "layout"));
    const FamilyProblemPtr problem = launch->family->sized_problem(arg(step, "size"), options, &why);
    if (!problem) return bad_step(step, why);
    const std::optional<double> got = typed_number(answer);
    if (!got || *got <= 0) return fail(step, QStringLiteral("'%1' is not a time in microseconds").arg(answer.trimmed()));
    const GpuPrediction p = problem->predict(launch->device, launch->choice);
    if (!p.ok()) return bad_step(step, p.error);
    const double factor = arg(step, "factor", QStringLiteral("2")).toDouble();
    const double ratio = *got / p.total_us;
    if (ratio <= factor && ratio >= 1.0 / factor)
        return pass(QStringLiteral("right: the model predicts %1 us on the %2 (%3)")
                        .arg(p.total_us, 0, 'f', 1)
                        .arg(launch->device.name, p.summary()));
    return fail(step, QStringLiteral("%1 us is about %2x too %3 for the model's prediction (the check accepts a factor of %4 "
                                     "either way)")
                          .arg(*got, 0, 'g', 4)
                          .arg(ratio > 1 ? ratio : 1 / ratio, 0, 'f', 1)
                          .arg(ratio > 1 ? "high" : "low")
                          .arg(factor));
}

}  // namespace

CheckResult check_answer(const LessonStep& step, const QString& answer, const CancelToken* cancel) {
    if (step.kind == TaskKind::Kernel) return check_kernel(step, answer, step.id + QStringLiteral(".cu"), cancel);
    if (answer.trimmed().isEmpty()) return fail(step, QStringLiteral("there is no answer yet"));
    if (cancel && cancel->requested()) return {false, QStringLiteral("cancelled"), {}};
    const QString& c = step.check;
    if (c == QLatin1String("channel-index")) return channel_index(step, answer);
    if (c == QLatin1String("fewest-sectors")) return fewest_sectors(step, answer, cancel);
    if (c == QLatin1String("blocks-at-once")) return blocks_at_once(step, answer);
    if (c == QLatin1String("thread-of-pixel")) return thread_of_pixel(step, answer);
    if (c == QLatin1String("idle-threads")) return idle_threads(step, answer);
    if (c == QLatin1String("no-idle-threads")) return no_idle_threads(step, answer);
    if (c == QLatin1String("full-occupancy")) return full_occupancy(step, answer);
    if (c == QLatin1String("waves")) return waves(step, answer);
    if (c == QLatin1String("multiply-adds")) return multiply_adds(step, answer);
    if (c == QLatin1String("predicted-time")) return predicted_time(step, answer, cancel);
    return bad_step(step, QStringLiteral("unknown check '%1'").arg(c));
}

const QStringList& check_kinds() {
    static const QStringList kinds{QStringLiteral("channel-index"),  QStringLiteral("fewest-sectors"),
                                   QStringLiteral("blocks-at-once"), QStringLiteral("thread-of-pixel"),
                                   QStringLiteral("idle-threads"),   QStringLiteral("no-idle-threads"),
                                   QStringLiteral("full-occupancy"), QStringLiteral("waves"),
                                   QStringLiteral("multiply-adds"),  QStringLiteral("predicted-time"),
                                   QStringLiteral("kernel")};
    return kinds;
}

}  // namespace cvz::lessons
