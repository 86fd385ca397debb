#pragma once
// The grayscale family's input as a launch problem (app/family/family_problem.h): an RGB image and
// the pixel layout the kernel reads, for the sweep, the ladder and the CLI's sweep.
#include <cstdint>

#include "app/family/app_family.h"
#include "app/family/family_problem.h"
#include "app/grayscale/grayscale_choice.h"
#include "app/io/rgb_buffer.h"
#include "app/user/user_problem.h"
#include "kernels/grayscale/grayscale_image.h"
#include "kernels/grayscale/grayscale_launch_shape.h"

namespace cvz {

class GrayscaleProblem final : public FamilyProblem {
public:
    GrayscaleProblem(RgbBuffer image, PixelLayout layout) : image_(std::move(image)), layout_(layout) {}
    // An image of this size with no pixels: predicted and traced, not timed.
    GrayscaleProblem(std::uint32_t width, std::uint32_t height, PixelLayout layout);

    const RgbBuffer& image() const { return image_; }
    PixelLayout layout() const { return layout_; }

    KernelFamily family() const override { return KernelFamily::Grayscale; }
    QString text() const override;
    QString sizeText() const override;
    QString inputError() const override;
    QString throughputUnit() const override { return QStringLiteral("GB/s"); }
    QString throughputKey() const override { return QStringLiteral("gb_per_s"); }
    double throughput(double ms) const override;
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
    RgbBuffer image_;
    PixelLayout layout_;
    bool pixels_ = true;
};

FamilyProblemPtr make_grayscale_problem(RgbBuffer image, PixelLayout layout);
FamilyProblemPtr make_grayscale_problem(std::uint32_t width, std::uint32_t height, PixelLayout layout);


// Bytes moved by the grayscale kernel over n pixels: 3n read + n written, over the time, in GB/s (1e9).
double grayscale_gb_per_s(std::uint64_t pixels, double ms);

// The family's entry in the app registry (app_families.cpp).
AppFamily grayscale_app_family();

}  // namespace cvz
