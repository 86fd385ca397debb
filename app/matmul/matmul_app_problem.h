#pragma once
// The matmul family's input as a launch problem (app/family/family_problem.h): C (m x n) = A (m x k)
// @ B (k x n), with the matrices when there are any (the CLI predicts from the sizes alone), for the
// sweep, the ladder and the CLI's sweep.
#include <cstdint>

#include "app/family/app_family.h"
#include "app/family/family_problem.h"
#include "app/matmul/matmul_choice.h"
#include "app/io/matrix.h"
#include "app/user/user_problem.h"
#include "kernels/matmul/matmul_launch.h"

namespace cvz {

class MatmulAppProblem final : public FamilyProblem {
public:
    // The product of two matrices (which may not multiply: inputError says so).
    MatmulAppProblem(Matrix a, Matrix b);
    // A problem of these sizes with no values: predicted and traced, not timed.
    MatmulAppProblem(std::uint32_t m, std::uint32_t k, std::uint32_t n);

    const Matrix& a() const { return a_; }
    const Matrix& b() const { return b_; }

    KernelFamily family() const override { return KernelFamily::Matmul; }
    QString text() const override;
    QString sizeText() const override;
    QString inputError() const override;
    QString throughputUnit() const override { return QStringLiteral("GFLOP/s"); }
    QString throughputKey() const override { return QStringLiteral("gflop_per_s"); }
    double throughput(double ms) const override;
    QString validate(const LaunchChoice& choice) const override;
    GpuPrediction predict(const DeviceProfile& profile, const LaunchChoice& choice) const override;
    TimingSweep time(const std::vector<LaunchChoice>& launches, const TimingOptions& options) const override;
    ProblemTrace traceSample(const LaunchChoice& choice, const CancelToken* cancel) const override;
    ReferenceTiming timeReference(const TimingOptions& options) const override;

    // A user kernel's view of this problem (app/user/user_problem.h): the whole product, or the corner a
    // trace takes; and the lecture kernel's work on it, for the prediction.
    std::unique_ptr<user::FamilyCall> userCall(bool corner) const;
    UserWorkHints userHints() const;

private:
    Matrix a_, b_;
    std::uint32_t m_ = 0, k_ = 0, n_ = 0;
    bool values_ = true;
};

FamilyProblemPtr make_matmul_problem(Matrix a, Matrix b);

MatmulLaunch matmul_launch_of(const LaunchChoice& choice);

// 2*M*N*K floating-point operations over the time, in GFLOP/s (1e9).
double matmul_gflop_per_s(std::uint64_t m, std::uint64_t n, std::uint64_t k, double ms);

// The family's entry in the app registry (app_families.cpp).
AppFamily matmul_app_family();

}  // namespace cvz
