#include "sweep_command.h"

#include <QCommandLineParser>
#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>

#include <algorithm>
#include <optional>

#include "app/family/app_family.h"
#include "app/jobs/backend_choice.h"
#include "app/tuning/best_configuration.h"
#include "app/tuning/block_sweep.h"
#include "app/user/user_compile.h"
#include "app/user/user_variants.h"
#include "app/models/device_profile.h"
#include "app/models/perf_model.h"
#include "exit_codes.h"
#include "help_text.h"
#include "kernel_option.h"
#include "user_kernel_option.h"
#include "kernels/catalogue/kernel_catalogue.h"

namespace cvz::cli {

namespace {

struct SweepOptions {
    QCommandLineOption kernel{"kernel", "Only this variant (a catalogue name; 'cudaviz-cli kernels' lists them). "
                                        "Default: every variant of the family.",
                              "NAME"};
    QCommandLineOption device{"device", "The device profile the model predicts for: a builtin profile's name or its "
                                        "first word (H200, H100, A100, RTX, T4; 'cudaviz-cli info' lists the "
                                        "devices). Default: the GPU's own profile when --backend cuda runs, else H200.",
                              "PROFILE"};
    QCommandLineOption backend{"backend", "auto (time the shapes on the GPU when there is one), cpu (the model "
                                          "only: measured_us is null) or cuda (time on the GPU; fails without one).",
                               "auto|cpu|cuda", "auto"};
    QCommandLineOption block{"block", "Only these blocks, comma-separated (256,16x16); for a TILE variant the "
                                      "block is TILE x TILE. Default: every shape the sweep dialog tries.",
                             "LIST"};
    QCommandLineOption json{"json", "Write the rows to FILE: {\"device\", \"rows\": [{\"kernel\", \"block\", "
                                    "\"occupancy\", \"predicted_us\", \"measured_us\", ...}], \"best\": the fastest "
                                    "row, \"best_source\": \"measured\" or \"model\"}.",
                            "FILE.json"};
    QCommandLineOption repeats{"repeats", "Timed launches per shape and round on the GPU (the median of all a shape's launches is reported).", "N", "20"};
    QCommandLineOption kernel_file{"kernel-file",
                                   "Sweeps your own CUDA C kernel from FILE instead of the built-in variants: its "
                                   "signature one of the family's (cudaviz-cli FAMILY --help lists them), each block "
                                   "predicted from its traced accesses and, on a GPU, timed as the built-ins are.",
                                   "FILE.cu"};
    QCommandLineOption kernel_name{"kernel-name", "With --kernel-file: which __global__ function of FILE, when it has several.",
                                   "NAME"};
    QCommandLineOption rounds{"rounds",
                              "Interleaved passes over the shapes on the GPU, each timing every shape again, so "
                              "that a drift of the GPU's clocks falls on all shapes alike.",
                              "N", "3"};
};

QString description() {
    QString usage;
    for (const AppFamily& f : app_families()) usage += "  " + f.cli_usage + "\n";
    return QString("Predicts the GPU time of every block shape of a kernel family on a device profile with the\n"
                   "performance model (named terms: DRAM, L2, latency, L1, shared memory, issue, re-reads, launch)\n"
                   "and, on a GPU, measures the same shapes.\n\n") +
           usage + "\n"
           "Exit status:\n"
           "  0  success\n"
           "  1  input rejected: an unreadable input, a bad --size, --block, --repeats or --rounds, FILE not writable;\n"
           "     a --kernel-file that does not compile or whose signature is none of the family's\n"
           "  2  bad usage: unknown option, family, --kernel, --layout, --device or --backend; missing --json;\n"
           "     --kernel with --kernel-file; a --kernel-file of several kernels without --kernel-name\n"
           "  3  --backend cuda without a CUDA device, or a CUDA error";
}

QString kernel_name(const SweepRow& row) {
    const KernelInfo* info = any_kernel_info(row.ref());
    return info ? QString::fromStdString(info->name) : QString();
}

QJsonObject row_json(const SweepRow& row, const GpuPrediction& p, std::optional<double> measured_us) {
    QJsonObject o;
    o["kernel"] = kernel_name(row);
    o["block"] = row.blockText();
    if (const KernelInfo* info = any_kernel_info(row.ref()); info && !info->tiles.empty()) o["tile"] = int(row.ref().tile);
    o["label"] = row.label();
    o["occupancy"] = row.occupancy.occupancy;
    o["predicted_us"] = p.ok() ? QJsonValue(p.total_us) : QJsonValue();
    o["measured_us"] = measured_us ? QJsonValue(*measured_us) : QJsonValue();
    if (p.ok()) {
        o["bound"] = p.bound;
        o["waves"] = double(p.waves);
        QJsonObject terms;
        for (const PredictionTerm& t : p.terms) terms[t.name] = t.us;
        o["terms"] = terms;
    } else {
        o["error"] = p.error;
    }
    return o;
}

}  // namespace

int run_sweep_command(const QStringList& arguments, QTextStream& out, QTextStream& err) {
    QCommandLineParser parser;
    const QCommandLineOption help = parser.addHelpOption();
    const SweepOptions options;
    parser.setApplicationDescription(description());
    parser.addOptions({options.kernel, options.kernel_file, options.kernel_name, options.device, options.backend,
                       options.block, options.json, options.repeats, options.rounds});
    for (const AppFamily& f : app_families())
        for (const QCommandLineOption& o : f.cli_options()) parser.addOption(o);
    parser.addPositionalArgument("sweep", "The command.", "sweep");
    parser.addPositionalArgument("FAMILY", app_family_names() + ".");
    parser.addPositionalArgument("INPUT", "The family's input, as its usage line says (its size is what matters).",
                                 "[INPUT]");

    auto fail = [&err](ExitCode code, const QString& message) {
        err << "cudaviz-cli sweep: " << message << "\n";
        if (code == ExitCode::BadUsage) err << "Try 'cudaviz-cli sweep --help'.\n";
        return exit_status(code);
    };
    if (!parser.parse(arguments)) return fail(ExitCode::BadUsage, parser.errorText());
    if (parser.isSet(help)) {
        out << help_text(parser);
        return exit_status(ExitCode::Success);
    }
    const QStringList positional = parser.positionalArguments();  // "sweep", FAMILY, [IMAGE]
    if (positional.size() < 2) return fail(ExitCode::BadUsage, "expected a family: " + app_family_names());
    const QString family_text = positional.at(1);
    const AppFamily* app = find_app_family(family_text);
    if (!app) return fail(ExitCode::BadUsage, "unknown family '" + family_text + "': use " + app_family_names());
    const KernelFamily family = app->family;
    if (positional.size() > 2 + app->cli_inputs)
        return fail(ExitCode::BadUsage, "unexpected argument '" + positional.at(2 + app->cli_inputs) + "'");
    if (!parser.isSet(options.json)) return fail(ExitCode::BadUsage, "--json FILE is required");

    const std::optional<BackendChoice> backend = parse_backend_choice(parser.value(options.backend));
    if (!backend)
        return fail(ExitCode::BadUsage, "unknown --backend '" + parser.value(options.backend) + "': use auto, cpu or cuda");
    if (parser.isSet(options.kernel) && parser.isSet(options.kernel_file))
        return fail(ExitCode::BadUsage, "--kernel and --kernel-file exclude each other: a built-in variant or yours");
    if (parser.isSet(options.kernel_name) && !parser.isSet(options.kernel_file))
        return fail(ExitCode::BadUsage, "--kernel-name applies to --kernel-file only");
    const KernelInfo* only = nullptr;
    if (parser.isSet(options.kernel)) {
        only = find_kernel_option(family, parser.value(options.kernel));
        if (!only) return fail(ExitCode::BadUsage, unknown_kernel_message(family, parser.value(options.kernel)));
    }
    bool repeats_ok = false;
    const int repeats = parser.value(options.repeats).toInt(&repeats_ok);
    if (!repeats_ok || repeats < 1 || repeats > 10000)
        return fail(ExitCode::InputRejected, "invalid --repeats '" + parser.value(options.repeats) + "': give 1 to 10000");

    bool rounds_ok = false;
    const int rounds = parser.value(options.rounds).toInt(&rounds_ok);
    if (!rounds_ok || rounds < 1 || rounds > 100)
        return fail(ExitCode::InputRejected, "invalid --rounds '" + parser.value(options.rounds) + "': give 1 to 100");

    const bool timing = *backend == BackendChoice::Cuda || (*backend == BackendChoice::Auto && cuda_device_available());
    if (*backend == BackendChoice::Cuda && !cuda_device_available())
        return fail(ExitCode::RuntimeFailure, "--backend cuda: no CUDA device is available");

    std::optional<DeviceProfile> profile;
    if (parser.isSet(options.device)) {
        profile = find_device_profile(parser.value(options.device));
        if (!profile) {
            QStringList names;
            for (const DeviceProfile& p : builtin_device_profiles()) names << p.name;
            return fail(ExitCode::BadUsage,
                        "unknown --device '" + parser.value(options.device) + "': use one of " + names.join(", "));
        }
    } else {
        profile = timing ? cuda_device_profile(0) : std::nullopt;
        if (!profile) profile = find_device_profile(QStringLiteral("H200"));
    }

    const CliProblem input = app->cli_problem(parser, positional.mid(2), timing);
    if (!input.problem) return fail(input.bad_usage ? ExitCode::BadUsage : ExitCode::InputRejected, input.error);
    const QString problem = input.problem_text;
    SweepRequest request;
    request.problem = input.problem;
    request.profile = *profile;
    request.repeats = repeats;
    request.rounds = rounds;

    // Your kernel: compiled (the host compiler's messages are yours; NVRTC's registers feed the occupancy
    // model) and registered as the family's variant "yours: NAME", the only one swept.
    if (parser.isSet(options.kernel_file)) {
        const QString path = parser.value(options.kernel_file);
        user::SourceFile source;
        if (const QString e = read_kernel_file(path, &source); !e.isEmpty()) return fail(ExitCode::InputRejected, e);
        if (!app->user_forms) return fail(ExitCode::BadUsage, "the " + family_text + " family takes no kernel of yours");
        const UserCompileOutcome compiled =
            compile_user_variant(family, app->user_forms(), source, parser.value(options.kernel_name).toStdString());
        for (const user::Diagnostic& d : compiled.diagnostics) err << QString::fromStdString(user::format(d)) << "\n";
        if (!compiled.ok()) {
            const bool unnamed = !parser.isSet(options.kernel_name) && compiled.error.contains(QLatin1String("--kernel-name"));
            const bool compile_error = std::any_of(compiled.diagnostics.begin(), compiled.diagnostics.end(),
                                                   [](const user::Diagnostic& d) { return d.error; });
            return fail(unnamed ? ExitCode::BadUsage : ExitCode::InputRejected,
                        compile_error ? "compile error in " + QDir::toNativeSeparators(path) : QDir::toNativeSeparators(path) + ": " + compiled.error);
        }
        only = &compiled.variant->info;
    }

    // The rows: the sweep dialog's, narrowed by --kernel and --block, and by what suits the problem (validate).
    QStringList blocks;
    if (parser.isSet(options.block))
        for (const QString& b : parser.value(options.block).split(QLatin1Char(','), Qt::SkipEmptyParts))
            blocks << b.trimmed();
    std::vector<SweepRow> rows;
    for (const SweepRow& r : sweep_rows(family, *profile)) {
        if (only && any_kernel_info(r.ref()) != only) continue;
        if (!blocks.isEmpty() && !blocks.contains(r.blockText())) continue;
        if (!request.problem->validate(r.choice).isEmpty()) continue;
        rows.push_back(r);
    }
    if (rows.empty())
        return fail(ExitCode::InputRejected, "no shape left: --block '" + parser.value(options.block) +
                                                 "' matches none of the sweep's blocks for this kernel");

    std::vector<std::optional<double>> measured(rows.size());
    QString gpu;
    if (timing) {
        TimingOptions timing_options;
        timing_options.repeats = repeats;
        timing_options.rounds = rounds;
        timing_options.warmup = request.warmup;
        timing_options.budget_ms = request.budget_ms;
        const TimingSweep sweep = cuda_sweep_timer()(request, rows, timing_options);
        if (!sweep.status) return fail(exit_code_for(sweep.status.kind()), QString::fromStdString(sweep.status.message()));
        gpu = QString::fromStdString(sweep.device);
        for (std::size_t i = 0; i < rows.size() && i < sweep.shapes.size(); ++i)
            if (sweep.shapes[i].timed) measured[i] = sweep.shapes[i].median_ms * 1000.0;
    }

    QJsonArray json_rows;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        SweepRow& r = rows[i];
        r.prediction = request.problem->predict(*profile, r.choice);
        if (measured[i]) {
            r.state = SweepRowState::Timed;
            r.median_ms = *measured[i] / 1000.0;
        }
        json_rows.append(row_json(r, r.prediction, measured[i]));
    }
    // The best configuration for this size (best_configuration.h): the fastest measured, else the
    // fastest predicted; "best_source" says which.
    const SweepBest best = best_of_sweep(rows);
    QJsonObject doc;
    doc["device"] = profile->name;
    doc["calibration"] = profile->perf.source;
    doc["gpu"] = gpu.isEmpty() ? QJsonValue() : QJsonValue(gpu);
    if (timing) {  // how measured_us was taken: the median of rounds x repeats launches per shape
        doc["repeats"] = repeats;
        doc["rounds"] = rounds;
    }
    doc["family"] = family_text;
    doc["problem"] = problem;
    doc["rows"] = json_rows;
    if (best.index >= 0) {
        const SweepRow& b = rows[std::size_t(best.index)];
        QJsonObject o = row_json(b, b.prediction, measured[std::size_t(best.index)]);
        o["index"] = best.index;
        doc["best"] = o;
        doc["best_source"] = best.source();
    }

    const QString path = parser.value(options.json);
    QSaveFile file(path);
    const QByteArray bytes = QJsonDocument(doc).toJson(QJsonDocument::Indented);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit())
        return fail(ExitCode::InputRejected,
                    "cannot write '" + QDir::toNativeSeparators(path) + "': " + file.errorString());
    out << QStringLiteral("%1 shapes of %2 (%3) predicted for %4%5; written to %6\n")
               .arg(rows.size())
               .arg(family_text, problem, profile->name,
                    gpu.isEmpty() ? QString() : QStringLiteral(", measured on ") + gpu,
                    QDir::toNativeSeparators(path));
    if (best.index >= 0) {
        const SweepRow& b = rows[std::size_t(best.index)];
        out << QStringLiteral("best: %1 %2, %3 us (%4)\n")
                   .arg(kernel_name(b), b.label())
                   .arg(best.by_timing ? b.median_ms * 1000.0 : b.prediction.total_us, 0, 'f', 1)
                   .arg(best.by_timing ? QStringLiteral("the fastest measured on ") + gpu
                                       : QStringLiteral("the fastest predicted by the model for ") + profile->name);
    }
    return exit_status(ExitCode::Success);
}

}  // namespace cvz::cli
