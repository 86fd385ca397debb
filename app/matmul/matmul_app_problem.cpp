#include "app/matmul/matmul_app_problem.h"

#include "app/matmul/matmul_resources.h"

#include <QRegularExpression>

#include <algorithm>
#include <tuple>

#include "app/family/problem_size.h"
#include "app/io/matrix_generator.h"
#include "app/matmul/matmul_compiled_issue.h"
#include "app/matmul/matmul_prediction.h"
#include "app/models/kernel_resources.h"
#include "kernels/catalogue/kernel_catalogue.h"
#include "kernels/cuda/reference_timing.h"
#include "kernels/matmul/matmul_timing.h"
#include "kernels/matmul/matmul_trace.h"
#include "kernels/matmul/matmul_user_call.h"

namespace cvz {

MatmulLaunch matmul_launch_of(const LaunchChoice& choice) {
    // The choice's block is TILE x TILE for a variant that takes a TILE: block.x is the TILE. A fixed
    // block with a TILE list (split-K's slices) has it in the ref alone.
    const KernelInfo* info = choice.info();
    const unsigned tile = info && info->block == BlockRule::Fixed ? choice.ref.tile : choice.block.x;
    return MatmulLaunch::of(MatmulVariant(choice.ref.variant), choice.block, tile);
}

double matmul_gflop_per_s(std::uint64_t m, std::uint64_t n, std::uint64_t k, double ms) {
    if (ms <= 0) return 0;
    return 2.0 * double(m) * double(n) * double(k) / (ms * 1e6);
}

MatmulAppProblem::MatmulAppProblem(Matrix a, Matrix b)
    : a_(std::move(a)), b_(std::move(b)), m_(a_.rows), k_(a_.cols), n_(b_.cols) {}

MatmulAppProblem::MatmulAppProblem(std::uint32_t m, std::uint32_t k, std::uint32_t n)
    : m_(m), k_(k), n_(n), values_(false) {}

QString MatmulAppProblem::text() const {
    if (values_ && (a_.size() == 0 || b_.size() == 0)) return QStringLiteral("no matrices");
    if (values_) return QStringLiteral("A %1×%2 @ B %3×%4").arg(a_.rows).arg(a_.cols).arg(b_.rows).arg(b_.cols);
    return QStringLiteral("A %1×%2 @ B %2×%3").arg(m_).arg(k_).arg(n_);
}

QString MatmulAppProblem::sizeText() const { return QStringLiteral("%1×%2×%3").arg(m_).arg(k_).arg(n_); }

QString MatmulAppProblem::inputError() const {
    if (!values_) return m_ && k_ && n_ ? QString() : QStringLiteral("there are no matrices to time the kernels on");
    if (a_.size() == 0 || b_.size() == 0) return QStringLiteral("there are no matrices to time the kernels on");
    return check_matmul_shapes(a_, b_);
}

double MatmulAppProblem::throughput(double ms) const { return matmul_gflop_per_s(m_, n_, k_, ms); }

std::unique_ptr<user::FamilyCall> MatmulAppProblem::userCall(bool corner) const {
    // A trace's corner is cut as the built-ins' is (traceSample); addresses do not depend on the values.
    const std::uint32_t m = corner ? std::min(m_, kLadderTraceSide) : m_;
    const std::uint32_t k = corner ? std::min(k_, kLadderTraceSide) : k_;
    const std::uint32_t n = corner ? std::min(n_, kLadderTraceSide) : n_;
    const bool whole = values_ && !corner && a_.size() == std::uint64_t(m) * k && b_.size() == std::uint64_t(k) * n;
    return matmul_user_call(whole ? a_.data : std::vector<float>(std::size_t(m) * k, 0.0f),
                            whole ? b_.data : std::vector<float>(std::size_t(k) * n, 0.0f), m, k, n);
}

UserWorkHints MatmulAppProblem::userHints() const {
    const double fmas = double(m_) * double(n_) * double(k_);
    UserWorkHints h;
    h.lane_instructions = 2 * fmas;  // an FMA and the loop's index and compare per step, at the least
    h.fmas = fmas;
    h.buffer_bytes = 4.0 * (double(m_) * k_ + double(k_) * n_ + double(m_) * n_);
    h.size_key = QStringLiteral("%1x%2x%3").arg(m_).arg(k_).arg(n_);
    return h;
}

QString MatmulAppProblem::validate(const LaunchChoice& choice) const {
    if (is_user_ref(choice.ref)) return validate_user_choice(choice, *userCall(true));
    return {};
}

GpuPrediction MatmulAppProblem::predict(const DeviceProfile& profile, const LaunchChoice& choice) const {
    if (is_user_ref(choice.ref))
        return predict_user_choice(profile, choice, [this](bool corner) { return userCall(corner); }, userHints());
    return predict_matmul(profile, matmul_launch_of(choice), m_, k_, n_);
}

TimingSweep MatmulAppProblem::time(const std::vector<LaunchChoice>& launches, const TimingOptions& options) const {
    if (!values_) {
        TimingSweep none;
        none.status = Status::error(ErrorKind::InvalidInput, "the matrices have sizes but no values to time");
        return none;
    }
    for (const LaunchChoice& c : launches)
        if (is_user_ref(c.ref))
            return time_with_user_choices(launches, options, [&](const std::vector<LaunchChoice>& builtins) {
                return time(builtins, options);
            }, [this](bool corner) { return userCall(corner); });
    std::vector<MatmulLaunch> list;
    list.reserve(launches.size());
    for (const LaunchChoice& c : launches) list.push_back(matmul_launch_of(c));
    const MatmulProblem problem{a_.data.data(), b_.data.data(), nullptr, m_, k_, n_};
    return time_matmul_launches(problem, list, options);
}

ProblemTrace MatmulAppProblem::traceSample(const LaunchChoice& choice, const CancelToken* cancel) const {
    TraceOptions options;
    options.cancel = cancel;
    ProblemTrace t;
    const std::uint32_t m = std::min(m_, kLadderTraceSide);
    const std::uint32_t k = std::min(k_, kLadderTraceSide);
    const std::uint32_t n = std::min(n_, kLadderTraceSide);
    if (is_user_ref(choice.ref)) {
        t = trace_user_choice(choice, [this](bool corner) { return userCall(corner); }, cancel);
        t.fmas = std::uint64_t(m) * k * n;
        return t;
    }
    // Addresses do not depend on the values: the trace runs on zeros (null).
    t.traced = trace_matmul(nullptr, nullptr, m, k, n, matmul_launch_of(choice), options);
    t.fmas = std::uint64_t(m) * k * n;
    t.traced_size = QStringLiteral("%1×%2×%3").arg(m).arg(k).arg(n);
    return t;
}

ReferenceTiming MatmulAppProblem::timeReference(const TimingOptions& options) const {
    ReferenceTiming ref;
    ref.label = QStringLiteral("cuBLAS SGEMM fp32 (no TF32)");
    time_cublas_sgemm(m_, k_, n_, options, &ref.timing);
    if (ref.timing.timed) ref.throughput = matmul_gflop_per_s(m_, n_, k_, ref.timing.median_ms);
    return ref;
}

FamilyProblemPtr make_matmul_problem(Matrix a, Matrix b) {
    return std::make_shared<const MatmulAppProblem>(std::move(a), std::move(b));
}

// ---- the registry entry ----

namespace {

const QCommandLineOption& size_option() {
    static const QCommandLineOption option{"size", "matmul: the problem, C (M x N) = A (M x K) @ B (K x N); random inputs.",
                                           "MxKxN"};
    return option;
}

// "MxKxN" as three positive numbers.
bool parse_size(const QString& text, std::uint32_t* m, std::uint32_t* k, std::uint32_t* n) {
    const QRegularExpressionMatch match =
        QRegularExpression(QStringLiteral("^\\s*(\\d{1,9})\\s*[xX]\\s*(\\d{1,9})\\s*[xX]\\s*(\\d{1,9})\\s*$")).match(text);
    if (!match.hasMatch()) return false;
    *m = match.captured(1).toUInt();
    *k = match.captured(2).toUInt();
    *n = match.captured(3).toUInt();
    return *m > 0 && *k > 0 && *n > 0;
}

CliProblem cli_problem(const QCommandLineParser& parser, const QStringList&, bool with_data) {
    CliProblem p;
    if (!parser.isSet(size_option())) {
        p.bad_usage = true;
        p.error = QStringLiteral("sweep matmul needs --size MxKxN");
        return p;
    }
    const QString size = parser.value(size_option());
    std::uint32_t m = 0, k = 0, n = 0;
    if (!parse_size(size, &m, &k, &n)) {
        p.error = "invalid --size '" + size + "': give MxKxN, three positive whole numbers";
        return p;
    }
    for (const auto& [rows, cols, name] : {std::tuple{m, k, "A"}, std::tuple{k, n, "B"}, std::tuple{m, n, "C"}})
        if (const QString e = check_matrix_dimensions(rows, cols); !e.isEmpty()) {
            p.error = "invalid --size '" + size + "': " + name + " " + e;
            return p;
        }
    p.problem = with_data ? make_matmul_problem(random_matrix(m, k, 1), random_matrix(k, n, 2))
                          : std::make_shared<const MatmulAppProblem>(m, k, n);
    p.problem_text = QStringLiteral("%1x%2x%3").arg(m).arg(k).arg(n);
    return p;
}

}  // namespace

namespace {

// "MxKxN" with values nobody chose (seeded, the same on every run): A is M x K, B is K x N.
bool sized_matrices(const QString& size, Matrix* a, Matrix* b, QString* error) {
    const std::vector<std::uint32_t> mkn = parse_problem_size(size, 3, 1u << 12, error);
    if (mkn.empty()) return false;
    *a = random_matrix(mkn[0], mkn[1], 17 + mkn[0]);
    *b = random_matrix(mkn[1], mkn[2], 29 + mkn[2]);
    return true;
}

std::unique_ptr<user::FamilyCall> sized_user_call(const QString& size, const QVariantMap&, QString* error) {
    Matrix a, b;
    if (!sized_matrices(size, &a, &b, error)) return nullptr;
    return matmul_user_call(std::move(a.data), std::move(b.data), a.rows, a.cols, b.cols);
}

FamilyProblemPtr sized_problem(const QString& size, const QVariantMap&, QString* error) {
    Matrix a, b;
    if (!sized_matrices(size, &a, &b, error)) return nullptr;
    return make_matmul_problem(std::move(a), std::move(b));
}

}  // namespace

AppFamily matmul_app_family() {
    AppFamily f;
    f.family = KernelFamily::Matmul;
    f.name = QStringLiteral("matmul");
    f.title = QStringLiteral("Matmul");
    f.no_input = QStringLiteral("no matrices");
    f.reference_short = QStringLiteral("cuBLAS");
    f.reference_long = QStringLiteral("cuBLAS SGEMM fp32");
    // GFLOP/s as TFLOP/s, the unit the ceiling is quoted in.
    f.ladder_unit = QStringLiteral("TFLOP/s");
    f.ladder_unit_scale = 1e-3;
    f.block_resources = [](const LaunchChoice& c) {
        return is_user_ref(c.ref) ? user_block_resources(c) : matmul_block_resources(matmul_launch_of(c));
    };
    // A user kernel has no measured issue figures: the model counts its instructions instead.
    f.compiled_issue = [](const KernelRef& ref) {
        return is_user_ref(ref) ? std::optional<CompiledIssue>() : matmul_compiled_issue(ref);
    };
    f.cli_usage = QStringLiteral("sweep matmul --size MxKxN --json FILE [--kernel NAME] [--device ..] [--backend ..]");
    f.cli_options = [] { return std::vector<QCommandLineOption>{size_option()}; };
    f.cli_inputs = 0;
    f.cli_problem = cli_problem;
    f.sized_user_call = sized_user_call;
    f.sized_problem = sized_problem;
    f.user_forms = matmul_user_forms;
    return f;
}

}  // namespace cvz
