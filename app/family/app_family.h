#pragma once
// The app layer's registry of kernel families: what the generic code (the sweep, the ladder, their
// dialogs, the CLI's sweep) needs of a family beyond its problem. One entry per family, registered in
// app_families.cpp; the kernels layer's catalogue stays the source of the variants.
#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QString>
#include <QStringList>
#include <QVariantMap>

#include <memory>

#include <optional>
#include <vector>

#include "app/family/family_problem.h"
#include "app/family/launch_choice.h"
#include "app/models/launch_plan.h"
#include "app/models/occupancy_model.h"
#include "kernels/user/user_call.h"

namespace cvz {

// The CLI sweep's way to a family's problem: its own options, and a problem from the parsed command
// line (`inputs`: the positional arguments after the family).
struct CliProblem {
    FamilyProblemPtr problem;  // null on failure
    QString error;             // why not
    bool bad_usage = false;    // a usage error (exit 2) rather than rejected input (exit 1)
    QString problem_text;      // how the JSON names the problem: "1920x1080 image, interleaved", "512x256x384"
};

struct AppFamily {
    KernelFamily family;
    QString name;    // the CLI's spelling (the catalogue's to_string(KernelFamily))
    QString title;   // "Grayscale": a dialog's
    // What a dialog says before the family has an input: "no image".
    QString no_input;
    // The ladder's ceiling in a column title ("copy", "cuBLAS") and in a sentence ("a device-to-device
    // copy"); the ladder's throughput unit and its factor from the problem's ("TFLOP/s", 1e-3).
    QString reference_short;
    QString reference_long;
    QString ladder_unit;
    double ladder_unit_scale = 1;
    // What a block of the launch needs on an SM (registers, shared memory).
    BlockResources (*block_resources)(const LaunchChoice& choice);
    // The compiled kernels' measured issue figures (compiled_issue.h), or null when the family has none.
    std::optional<CompiledIssue> (*compiled_issue)(const KernelRef& ref) = nullptr;
    // The CLI sweep: its usage line, its extra options, the largest number of positional inputs, and
    // the problem from the parsed line (`with_data`: the inputs are needed to time, not only to predict).
    QString cli_usage;
    std::vector<QCommandLineOption> (*cli_options)();
    int cli_inputs;
    CliProblem (*cli_problem)(const QCommandLineParser& parser, const QStringList& inputs, bool with_data);
    // A problem of a size nobody chose, with generated input (a lesson's check runs the learner's kernel
    // on odd sizes): `size` as the CLI writes the family's ("37x23", "17x9x13"), `options` the family's
    // ("layout": "planar"). Null with *error when the size or an option is not the family's; null
    // pointers when the family has no such input.
    std::unique_ptr<user::FamilyCall> (*sized_user_call)(const QString& size, const QVariantMap& options,
                                                         QString* error) = nullptr;
    FamilyProblemPtr (*sized_problem)(const QString& size, const QVariantMap& options, QString* error) = nullptr;
    // The launch plan of `choice` over an image of `size` ("451x300"): which thread maps to which pixel,
    // and the idle ones. Empty with *error when the size is not one or the launch is invalid; null for a
    // family whose outputs are not an image's pixels.
    std::optional<LaunchPlan> (*sized_launch_plan)(const QString& size, const LaunchChoice& choice, QString* error) = nullptr;
    // The signatures a user kernel of the family may have (issue 27): kernels/<family>/<family>_user_call.h.
    user::FamilyForms (*user_forms)() = nullptr;
};

// Every family, in the kernel catalogue's order.
const std::vector<AppFamily>& app_families();
// The entry of `family`, or of the first family when it has none (never null).
const AppFamily& app_family(KernelFamily family);
// The family called `name`, or null.
const AppFamily* find_app_family(const QString& name);
// The names for messages, "a, b or c".
QString app_family_names(const QString& last_separator = QStringLiteral(" or "));

}  // namespace cvz
