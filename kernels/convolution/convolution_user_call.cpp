#include "convolution_user_call.h"

#include <limits>
#include <string>
#include <utility>

#include "convolution_reference.h"

namespace cvz {

namespace {

using user::ParamKind;

class ConvolutionUserCall final : public user::FamilyCall {
public:
    ConvolutionUserCall(std::vector<std::uint8_t> gray, std::uint32_t width, std::uint32_t height, ConvolutionMask mask)
        : gray_(std::move(gray)), width_(width), height_(height), mask_(std::move(mask)) {
        in_.assign(gray_.begin(), gray_.end());
    }

    std::string input_error() const override {
        if (gray_.size() != pixels()) return "the grayscale does not hold width x height pixels";
        if (pixels() == 0) return "the image is empty";
        if (pixels() > std::uint64_t(std::numeric_limits<int>::max()))
            return "the image has " + std::to_string(pixels()) + " pixels: more than a kernel's int parameters can index";
        return validate_mask(mask_);
    }
    const std::vector<user::CallForm>& forms() const override { return convolution_call_forms(); }
    bool one_d(const user::CallForm&) const override { return false; }

    Dim3 grid(const user::CallForm&, const Dim3& block) const override {
        return Dim3{unsigned(cdiv(width_, block.x)), unsigned(cdiv(height_, block.y)), 1};
    }

    user::UserLaunch bind(const user::CallForm&, const user::KernelSignature& signature, const Dim3& grid,
                          const Dim3& block) override {
        if (!input_error().empty()) return {};
        out_.assign(pixels(), 0.0f);
        mask_copy_ = mask_.values;  // the kernel may write through a non-const pointer: the next run starts clean
        in_.assign(gray_.begin(), gray_.end());
        user::UserLaunch launch;
        launch.grid = grid;
        launch.block = block;
        launch.args.push_back(user::buffer_arg(signature, 0, in_.data(), in_.size() * sizeof(float), sizeof(float), false));
        launch.args.push_back(
            user::buffer_arg(signature, 1, mask_copy_.data(), mask_copy_.size() * sizeof(float), sizeof(float), false));
        launch.args.push_back(user::buffer_arg(signature, 2, out_.data(), out_.size() * sizeof(float), sizeof(float), true));
        launch.args.push_back(user::int_arg(signature, 3, int(width_)));
        launch.args.push_back(user::int_arg(signature, 4, int(height_)));
        launch.args.push_back(user::int_arg(signature, 5, int(mask_.radius())));
        return launch;
    }

    user::Comparison compare(const std::vector<user::Writer>& writers, std::size_t max_listed) const override {
        if (out_.size() != pixels() || !input_error().empty()) return {};
        std::vector<double> expected(pixels());
        ConvolutionProblem p;
        p.gray = gray_.data();
        p.mask = mask_.values.data();
        p.width = width_;
        p.height = height_;
        p.mask_side = mask_.side;
        convolution_reference_f64(p, expected.data());
        return user::compare_floats(out_.data(), expected.data(), out_.size(), 1e-5, writers, max_listed);
    }

    std::string where(std::uint64_t index) const override {
        if (width_ == 0) return {};
        return "pixel x " + std::to_string(index % width_) + ", y " + std::to_string(index / width_);
    }

    const void* output() const override { return out_.data(); }
    std::size_t output_bytes() const override { return out_.size() * sizeof(float); }
    std::size_t output_arg() const override { return 2; }
    std::string size_text() const override {
        return std::to_string(width_) + " x " + std::to_string(height_) + " image, mask " +
               std::to_string(mask_.side) + "x" + std::to_string(mask_.side);
    }

private:
    std::uint64_t pixels() const { return std::uint64_t(width_) * height_; }

    std::vector<std::uint8_t> gray_;
    std::uint32_t width_, height_;
    ConvolutionMask mask_;
    std::vector<float> in_, mask_copy_, out_;
};

}  // namespace

const std::vector<user::CallForm>& convolution_call_forms() {
    static const std::vector<user::CallForm> forms{
        {"conv", "(float* in, float* mask, float* out, int w, int h, int r)",
         {ParamKind::FloatPtr, ParamKind::FloatPtr, ParamKind::FloatPtr, ParamKind::Int, ParamKind::Int, ParamKind::Int}},
    };
    return forms;
}

user::FamilyForms convolution_user_forms() { return {convolution_call_forms(), {}}; }

std::unique_ptr<user::FamilyCall> convolution_user_call(std::vector<std::uint8_t> gray, std::uint32_t width,
                                                        std::uint32_t height, ConvolutionMask mask) {
    return std::make_unique<ConvolutionUserCall>(std::move(gray), width, height, std::move(mask));
}

}  // namespace cvz
