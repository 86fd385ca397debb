#pragma once
// `--kernel-file FILE.cu [--kernel-name NAME] [--grid X[xY]] [--time-limit SECONDS]` of a family's
// command (issue 27): the user's own kernel, run as a variant of the family on its inputs, with the
// command's other options (--block, --layout, --backend, --metrics, --schedule) as for built-ins.
// What every family's command shares is here; the command loads its inputs, makes its FamilyCall and
// writes OUT. Family-free.
#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QString>
#include <QTextStream>

#include <functional>
#include <vector>

#include "app/jobs/backend_choice.h"
#include "kernels/user/user_call.h"

namespace cvz::cli {

struct UserKernelOptions {
    QCommandLineOption file{"kernel-file",
                            "Runs your own CUDA C kernel from FILE instead of a built-in variant, on the same inputs, "
                            "and compares its output with the family's reference (the differing elements are listed "
                            "with the threads that wrote them). Its signature must be one of the family's (see "
                            "above). OUT is written only when the kernel ran to the end.",
                            "FILE.cu"};
    QCommandLineOption name{"kernel-name", "With --kernel-file: which __global__ function of FILE runs, when it has several.",
                            "NAME"};
    QCommandLineOption grid{"grid", "With --kernel-file: the grid, instead of the family's rule (1-D: cdiv(n, block); "
                                    "2-D: cdiv(w, bx) x cdiv(h, by)).",
                            "X[xY]"};
    QCommandLineOption time_limit{"time-limit", "With --kernel-file: stop the kernel after SECONDS (an endless loop).",
                                  "SECONDS", "30"};

    QList<QCommandLineOption> all() const { return {file, name, grid, time_limit}; }
};

// The accepted signatures of a family, for its --help: "Your kernel (--kernel-file) takes one of: ...".
QString user_forms_help(const std::vector<user::CallForm>& forms);

// The parts of the command line a user kernel needs, checked (usage errors name the option).
struct UserKernelArgs {
    QString file;
    QString kernel_name;
    QString block_text;   // empty: the form's default
    QString grid_text;    // empty: the family's rule
    double time_limit_s = 30;
    BackendChoice backend = BackendChoice::Auto;
    QString metrics_path;
    QString schedule_path;
};

// Empty when the user-kernel options are used consistently: the other three need --kernel-file, and
// --kernel (a built-in) excludes it. `kernel_option` is the command's --kernel.
QString user_kernel_usage_error(const QCommandLineParser& parser, const UserKernelOptions& options,
                                const QCommandLineOption& kernel_option);

// Reads --kernel-file, --kernel-name, --grid and --time-limit into `args`; empty on success, else a usage
// error (--time-limit not a number).
QString read_user_kernel_args(const QCommandLineParser& parser, const UserKernelOptions& options, UserKernelArgs* args);

// Reads --kernel-file `path` into `source` (named by the path, as messages name it): empty on success,
// else why not, naming the file (unreadable, larger than 1 MiB, not text).
QString read_kernel_file(const QString& path, user::SourceFile* source);

// Runs the user kernel of `args` over `call`'s problem and reports as every command does: the
// compiler's messages as FILE:LINE:COL: error: ..., a fault's message, the comparison with the
// reference, the memory figures (--metrics) and the schedule (--schedule). `write_output` writes OUT
// from call.output() (empty on success) and is called only when the kernel ran to the end. Returns
// the exit status: 0, 1 (a compile error, a fault in the kernel, refused input), 2 (usage) or 3 (device).
int run_user_kernel_cli(const QString& command, user::FamilyCall& call, const UserKernelArgs& args,
                        const std::function<QString()>& write_output, QTextStream& out, QTextStream& err);

}  // namespace cvz::cli
