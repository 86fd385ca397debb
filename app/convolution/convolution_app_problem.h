#pragma once
// The convolution family's input as a launch problem (app/family/family_problem.h): the photo's
// grayscale and the mask, for the sweep, the ladder, the prediction and the CLI's sweep.
#include <cstdint>
#include <vector>

#include "app/family/app_family.h"
#include "app/family/family_problem.h"
#include "app/user/user_problem.h"
#include "kernels/convolution/convolution_launch.h"
#include "kernels/convolution/convolution_mask.h"

namespace cvz {

class ConvolutionAppProblem final : public FamilyProblem {
public:
    // `gray`: width*height bytes, or empty for a problem of this size with no pixels (predicted and
    // traced, not timed).
    ConvolutionAppProblem(std::vector<std::uint8_t> gray, std::uint32_t width, std::uint32_t height, ConvolutionMask mask,
                          QString mask_name);

    KernelFamily family() const override;
    QString text() const override;
    QString sizeText() const override;
    QString inputError() const override;
    QString throughputUnit() const override { return QStringLiteral("GB/s"); }
    QString throughputKey() const override { return QStringLiteral("gb_per_s"); }
    double throughput(double ms) const override;  // the compulsory 5 bytes a pixel (1 read, 4 written)
    QString validate(const LaunchChoice& choice) const override;
    GpuPrediction predict(const DeviceProfile& profile, const LaunchChoice& choice) const override;
    TimingSweep time(const std::vector<LaunchChoice>& launches, const TimingOptions& options) const override;
    ProblemTrace traceSample(const LaunchChoice& choice, const CancelToken* cancel) const override;
    ReferenceTiming timeReference(const TimingOptions& options) const override;

    // A user kernel's view of this problem (app/user/user_problem.h): the whole image, or the corner a
    // trace takes; and the lecture kernel's work on it, for the prediction.
    std::unique_ptr<user::FamilyCall> userCall(bool corner) const;
    UserWorkHints userHints() const;

private:
    std::vector<std::uint8_t> gray_;
    std::uint32_t width_ = 0;
    std::uint32_t height_ = 0;
    ConvolutionMask mask_;
    QString mask_name_;
};

FamilyProblemPtr make_convolution_problem(std::vector<std::uint8_t> gray, std::uint32_t width, std::uint32_t height,
                                          ConvolutionMask mask, QString mask_name);

// A launch of the family as the generic choice, and back.
LaunchChoice convolution_choice(const ConvolutionLaunch& launch);
ConvolutionLaunch convolution_launch_of(const LaunchChoice& choice);

// The family's entry in the app registry (app_families.cpp).
AppFamily convolution_app_family();

}  // namespace cvz
