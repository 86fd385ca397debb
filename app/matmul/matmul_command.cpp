#include "matmul_command.h"

#include <QCommandLineParser>
#include <QDir>
#include <QFileInfo>

#include <utility>

#include "app/jobs/backend_choice.h"
#include "app/matmul/matmul_runner.h"
#include "app/io/matrix.h"
#include "app/io/matrix_io.h"
#include "app/io/memory_metrics_json.h"
#include "app/cli/exit_codes.h"
#include "app/cli/help_text.h"
#include "app/cli/kernel_option.h"
#include "kernels/matmul/matmul_trace.h"
#include "matmul_options.h"
#include "app/cli/schedule_option.h"
#include "app/cli/user_kernel_option.h"
#include "kernels/matmul/matmul_user_call.h"
#include "app/matmul/matmul_schedule_recorder.h"

namespace cvz::cli {

namespace {

struct MatmulOptions {
    QCommandLineOption kernel{"kernel", "The kernel variant, by its catalogue name: " +
                                            kernel_names_text(KernelFamily::Matmul) +
                                            " ('cudaviz-cli kernels' lists them). The part after 'matmul_' also "
                                            "works: naive (one thread per output element, reading A and B from "
                                            "global memory) or tiled (shared-memory tiles of TILE x TILE).",
                              "NAME", "naive"};
    QCommandLineOption tile{"tile", "TILE for a kernel that takes one (tiled); its block is TILE x TILE threads. For "
                                    "split_k, the slices of K (0: chosen from the shape).",
                            "8|16|32", "16"};
    QCommandLineOption block{"block", "Threads per block for a kernel with a 2-D block (naive): XxY, x over columns "
                                      "and y over rows of OUT (at most 1024 threads).",
                             "XxY", "16x16"};
    QCommandLineOption backend{"backend", "Where the kernel runs: auto (CUDA when a device exists, else the CPU "
                                          "emulator), cpu or cuda.",
                               "auto|cpu|cuda", "auto"};
    QCommandLineOption no_second_barrier{
        "no-second-barrier",
        "The lesson of a missing barrier: runs --kernel tiled without its second __syncthreads(), so a thread "
        "overwrites a tile that others still read and OUT comes out wrong (when K > TILE). CPU emulator only: "
        "refused with --backend cuda, and --backend auto runs it on the emulator."};
    QCommandLineOption schedule = schedule_option();
    QCommandLineOption metrics{"metrics", "Also write the launch's memory figures to FILE (JSON): global load and "
                                          "store requests and sectors, shared-memory requests, wavefronts and bank "
                                          "conflicts under Nsight Compute's metric names, in all and per source "
                                          "line. They come from the CPU emulator's trace of the same launch, "
                                          "whichever backend runs it.",
                               "FILE.json"};
    UserKernelOptions user;
};

// The per-command paragraph: the general one in exit_codes.h speaks of images.
const char* matmul_exit_code_help() {
    return "Exit status:\n"
           "  0  success\n"
           "  1  input rejected: A or B cannot be read, is malformed, ragged, not 2-D, of an unsupported dtype or\n"
           "     beyond the size limits; A's columns differ from B's rows; OUT would be beyond the size limits,\n"
           "     has an extension other than .npy or .csv, or cannot be written; --block or --tile is not valid;\n"
           "     --no-second-barrier with --backend cuda\n"
           "  2  bad usage: unknown option, missing arguments, unknown --kernel or --backend value, --tile not a\n"
           "     number, --block with a kernel that takes a TILE (tiled), --tile or --no-second-barrier with a\n"
           "     kernel without one (naive)\n"
           "  3  device or runtime failure: --backend cuda without a CUDA device (or a build without CUDA),\n"
           "     or an error reported by the CUDA runtime";
}

QString description() {
    return QString("Multiplies OUT = A @ B (float32) with a kernel of the matmul family: the lecture's naive or\n"
                   "shared-memory tiled kernel, or any other variant 'cudaviz-cli kernels' lists. Every backend,\n"
                   "exact kernel, TILE and block shape gives the same bytes.\n\n") +
           user_forms_help(matmul_call_forms()) +
           "as the lecture's matmul_k: h = rows of A and OUT, w = columns of B and OUT, k = the inner size. Your\n"
           "output is compared with the reference within 1e-5 relative.\n\n" +
           matmul_exit_code_help() +
           "\n  1  also: your kernel (--kernel-file) did not compile (FILE:LINE:COL: error: ... above) or faulted\n"
           "     (out of bounds, invalid access, time limit, divergent __syncthreads); OUT is then not written\n"
           "  3  also: the GPU reported an error running your kernel";
}

void describe(QCommandLineParser& parser, const MatmulOptions& options) {
    parser.setApplicationDescription(description());
    parser.addOptions({options.kernel, options.tile, options.block, options.backend, options.no_second_barrier, options.schedule, options.metrics});
    parser.addOptions(options.user.all());
    parser.addPositionalArgument("matmul", "The command.", "matmul");
    parser.addPositionalArgument("A", "The left matrix, M x K: .npy (2-D float32, float64, int32 or int64) or .csv.");
    parser.addPositionalArgument("B", "The right matrix, K x N: .npy or .csv.");
    parser.addPositionalArgument("OUT", "The product, M x N: .npy (float32) or .csv.");
}

QString native(const QString& path) { return QDir::toNativeSeparators(path); }

bool is_matrix_output(const QString& path) {
    const QString suffix = QFileInfo(path).suffix().toLower();
    return suffix == QLatin1String("npy") || suffix == QLatin1String("csv");
}

// The write can still fail later (permissions, a full disk), but a mistyped folder is caught before a
// long multiplication rather than after it.
QString output_path_error(const QString& path) {
    const QFileInfo info(path);
    if (!is_matrix_output(path)) return QStringLiteral("OUT must end in .npy or .csv");
    if (info.isDir()) return QStringLiteral("it is a directory");
    if (!info.absoluteDir().exists())
        return QStringLiteral("the directory '%1' does not exist").arg(native(info.absolutePath()));
    return {};
}

QString shape_text(const Matrix& m) { return QStringLiteral("%1x%2").arg(m.rows).arg(m.cols); }

}  // namespace

int run_matmul_command(const QStringList& arguments, QTextStream& out, QTextStream& err) {
    QCommandLineParser parser;
    const QCommandLineOption help = parser.addHelpOption();
    const MatmulOptions options;
    describe(parser, options);

    auto fail = [&err](ExitCode code, const QString& message) {
        err << "cudaviz-cli matmul: " << message << "\n";
        if (code == ExitCode::BadUsage) err << "Try 'cudaviz-cli matmul --help'.\n";
        return exit_status(code);
    };

    if (!parser.parse(arguments)) return fail(ExitCode::BadUsage, parser.errorText());
    if (parser.isSet(help)) {
        out << help_text(parser);
        return exit_status(ExitCode::Success);
    }
    const QStringList positional = parser.positionalArguments();  // "matmul", A, B, OUT
    if (positional.size() < 4) return fail(ExitCode::BadUsage, "expected A, B and OUT");
    if (positional.size() > 4)
        return fail(ExitCode::BadUsage, "unexpected argument '" + positional.at(4) + "' after A, B and OUT");
    const QString a_path = positional.at(1);
    const QString b_path = positional.at(2);
    const QString out_path = positional.at(3);

    // Usage first (exit 2): option values that are not choices at all, and options that do not apply.
    const std::optional<BackendChoice> backend = parse_backend_choice(parser.value(options.backend));
    if (!backend)
        return fail(ExitCode::BadUsage,
                    "unknown --backend '" + parser.value(options.backend) + "': use auto, cpu or cuda");
    if (const QString e = user_kernel_usage_error(parser, options.user, options.kernel); !e.isEmpty())
        return fail(ExitCode::BadUsage, e);
    if (parser.isSet(options.user.file)) {
        for (const QCommandLineOption& o : {options.tile, options.no_second_barrier})
            if (parser.isSet(o)) return fail(ExitCode::BadUsage, "--" + o.names().first() + " applies to the built-in kernels only");
        UserKernelArgs args;
        if (const QString e = read_user_kernel_args(parser, options.user, &args); !e.isEmpty()) return fail(ExitCode::BadUsage, e);
        args.block_text = parser.isSet(options.block) ? parser.value(options.block) : QString();
        args.backend = *backend;
        args.metrics_path = parser.value(options.metrics);
        args.schedule_path = parser.value(options.schedule);
        if (const QString e = output_path_error(out_path); !e.isEmpty())
            return fail(ExitCode::InputRejected, "cannot write '" + native(out_path) + "': " + e);
        LoadedMatrix a = load_matrix(a_path);
        if (!a.ok()) return fail(ExitCode::InputRejected, a.error);
        LoadedMatrix b = load_matrix(b_path);
        if (!b.ok()) return fail(ExitCode::InputRejected, b.error);
        if (const QString e = check_matmul_shapes(a.matrix, b.matrix, native(a_path), native(b_path)); !e.isEmpty())
            return fail(ExitCode::InputRejected, e);
        if (const QString e = check_matrix_dimensions(a.matrix.rows, b.matrix.cols); !e.isEmpty())
            return fail(ExitCode::InputRejected, QStringLiteral("%1 (%2) @ %3 (%4) is too large for OUT: %5")
                                                     .arg(native(a_path), shape_text(a.matrix), native(b_path),
                                                          shape_text(b.matrix), e));
        const std::uint32_t rows = a.matrix.rows, inner = a.matrix.cols, cols = b.matrix.cols;
        const std::unique_ptr<user::FamilyCall> call =
            matmul_user_call(std::move(a.matrix.data), std::move(b.matrix.data), rows, inner, cols);
        return run_user_kernel_cli(
            QStringLiteral("matmul"), *call, args,
            [&] {
                Matrix c;
                c.rows = rows;
                c.cols = cols;
                const auto* values = static_cast<const float*>(call->output());
                c.data.assign(values, values + call->output_bytes() / sizeof(float));
                return save_matrix(out_path, c);
            },
            out, err);
    }
    const KernelInfo* kernel = find_kernel_option(KernelFamily::Matmul, parser.value(options.kernel));
    if (!kernel) return fail(ExitCode::BadUsage, unknown_kernel_message(KernelFamily::Matmul, parser.value(options.kernel)));
    const std::optional<qulonglong> tile = parse_tile_number(parser.value(options.tile));
    if (!tile)
        return fail(ExitCode::BadUsage, "--tile '" + parser.value(options.tile) + "' is not a number: use " +
                                            tile_choices(KernelFamily::Matmul));
    const bool tiled = kernel->block == BlockRule::Tile;
    const bool listed = tiled || !kernel->tiles.empty();  // split-K: --tile is its slices of K
    const QString name = short_name(*kernel);
    // An option that would be silently ignored is refused, so that a run never looks like it tested a
    // configuration it did not.
    if (kernel->block != BlockRule::TwoD && parser.isSet(options.block))
        return fail(ExitCode::BadUsage, "--block applies to --kernel " + kernels_with(KernelFamily::Matmul, block_rule_is(BlockRule::TwoD)) +
                                            "; the " + name + " kernel's block is " +
                                            (tiled ? "TILE x TILE (choose it with --tile)" : "fixed"));
    if (!listed && parser.isSet(options.tile))
        return fail(ExitCode::BadUsage, "--tile applies to --kernel " +
                                            kernels_with(KernelFamily::Matmul, [](const KernelInfo& k) { return !k.tiles.empty(); }) +
                                            "; the " + name + " kernel's block is " +
                                            (kernel->block == BlockRule::TwoD ? "--block XxY" : "fixed"));
    const bool no_second_barrier = parser.isSet(options.no_second_barrier);
    if (!kernel->barriers && no_second_barrier)
        return fail(ExitCode::BadUsage, "--no-second-barrier applies to --kernel " +
                                            kernels_with(KernelFamily::Matmul, [](const KernelInfo& k) { return k.barriers; }) +
                                            "; the " + name + " kernel has no barrier");

    // Then the values (exit 1), before any file is read.
    const MatmulVariant variant = MatmulVariant(kernel->variant);
    MatmulLaunch launch;
    if (tiled) {
        if (const QString e = tile_error(*kernel, *tile); !e.isEmpty())
            return fail(ExitCode::InputRejected, "invalid --tile '" + parser.value(options.tile) + "': " + e);
        launch = MatmulLaunch::of(variant, Dim3{unsigned(*tile), unsigned(*tile), 1}, unsigned(*tile));
        launch.second_barrier = !no_second_barrier;
    } else if (kernel->block == BlockRule::TwoD) {
        unsigned bx = 0, by = 0;
        if (const QString e = naive_block_error(parser.value(options.block), &bx, &by); !e.isEmpty())
            return fail(ExitCode::InputRejected, "invalid --block '" + parser.value(options.block) + "': " + e);
        launch = MatmulLaunch::of(variant, Dim3{bx, by, 1}, 0);
    } else if (listed) {
        const unsigned slices = parser.isSet(options.tile) ? unsigned(*tile) : 0u;
        if (const QString e = tile_error(*kernel, slices); !e.isEmpty())
            return fail(ExitCode::InputRejected, "invalid --tile '" + parser.value(options.tile) + "': " + e);
        launch = MatmulLaunch::of(variant, kernel->fixed_block, slices);
    } else {
        launch = MatmulLaunch::of(variant, kernel->fixed_block, 0);
    }
    if (no_second_barrier && *backend == BackendChoice::Cuda)
        return fail(ExitCode::InputRejected, "--no-second-barrier runs on the CPU emulator only; the GPU always runs "
                                             "both barriers (use --backend cpu or auto)");
    if (const QString e = output_path_error(out_path); !e.isEmpty())
        return fail(ExitCode::InputRejected, "cannot write '" + native(out_path) + "': " + e);

    const QString schedule_path = parser.value(options.schedule);
    if (parser.isSet(options.schedule))
        if (const QString e = schedule_path_error(schedule_path); !e.isEmpty()) return fail(ExitCode::InputRejected, e);

    LoadedMatrix a = load_matrix(a_path);
    if (!a.ok()) return fail(ExitCode::InputRejected, a.error);
    LoadedMatrix b = load_matrix(b_path);
    if (!b.ok()) return fail(ExitCode::InputRejected, b.error);
    if (const QString e = check_matmul_shapes(a.matrix, b.matrix, native(a_path), native(b_path)); !e.isEmpty())
        return fail(ExitCode::InputRejected, e);
    // Two inputs within the limits can still make an output beyond them (32768x1 @ 1x16384): refuse it
    // before allocating it.
    if (const QString e = check_matrix_dimensions(a.matrix.rows, b.matrix.cols); !e.isEmpty())
        return fail(ExitCode::InputRejected, QStringLiteral("%1 (%2) @ %3 (%4) is too large for OUT: %5")
                                                 .arg(native(a_path), shape_text(a.matrix), native(b_path),
                                                      shape_text(b.matrix), e));
    // The grid must fit CUDA's limits too (a 1-row block over millions of rows does not).
    if (const std::string e = validate_matmul_launch(launch, a.matrix.rows, a.matrix.cols, b.matrix.cols); !e.empty())
        return fail(ExitCode::InputRejected, QStringLiteral("cannot launch %1 for %2 @ %3: %4")
                                                 .arg(QString::fromStdString(to_string(launch)), shape_text(a.matrix),
                                                      shape_text(b.matrix), QString::fromStdString(e)));

    MatmulRequest request;
    request.a = std::move(a.matrix);  // the inputs may be up to 1 GiB each: not copied
    request.b = std::move(b.matrix);
    request.launch = launch;
    request.backend = *backend;
    request.emulator_repeats = 5;
    const std::uint32_t m = std::uint32_t(request.a.rows), k = std::uint32_t(request.a.cols), n = std::uint32_t(request.b.cols);
    const MatmulResult result = run_matmul(request);
    if (!result.status)
        return fail(exit_code_for(result.status.kind()), QString::fromStdString(result.status.message()));

    // save_matrix writes through QSaveFile: a failed write leaves no partial OUT behind.
    if (const QString e = save_matrix(out_path, result.c); !e.isEmpty()) return fail(ExitCode::InputRejected, e);

    if (parser.isSet(options.metrics)) {
        // Addresses do not depend on the values: the trace needs only the launch and the shapes.
        const TraceResult trace = trace_matmul(nullptr, nullptr, m, k, n, launch);
        if (!trace.status)
            return fail(exit_code_for(trace.status.kind()), QString::fromStdString(trace.status.message()));
        if (const QString e = write_memory_metrics(parser.value(options.metrics), trace.trace, QString::fromStdString(kernel->name));
            !e.isEmpty())
            return fail(ExitCode::InputRejected, e);
    }

    out << result.summary() << "\n";
    const ScheduleOutcome schedule = write_schedule(schedule_path, [&] { return record_matmul_schedule(request); },
                                                    result.c.data.data(), result.c.data.size() * sizeof(float));
    if (schedule.code != ExitCode::Success) return fail(schedule.code, schedule.message);
    if (!schedule.message.isEmpty()) out << schedule.message << "\n";
    if (no_second_barrier)
        err << "cudaviz-cli matmul: note: the tiled kernel ran without its second __syncthreads(); OUT shows the "
               "race and is expected to be wrong\n";
    return exit_status(ExitCode::Success);
}

}  // namespace cvz::cli
