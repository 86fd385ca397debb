#include "grayscale_user_call.h"

#include <limits>
#include <string>
#include <utility>

#include "grayscale_planar.h"
#include "grayscale_reference.h"

namespace cvz {

namespace {

using user::ParamKind;

class GrayscaleUserCall final : public user::FamilyCall {
public:
    GrayscaleUserCall(std::vector<std::uint8_t> rgb, std::uint32_t width, std::uint32_t height, PixelLayout layout)
        : rgb_(std::move(rgb)), width_(width), height_(height), layout_(layout) {}

    std::string input_error() const override {
        if (3 * pixels() > std::uint64_t(std::numeric_limits<int>::max()))
            return "the image has " + std::to_string(pixels()) + " pixels: more than a kernel's int parameters can index";
        if (rgb_.size() != 3 * pixels()) return "the RGB bytes do not hold width x height pixels";
        if (pixels() == 0) return "the image is empty";
        return {};
    }
    const std::vector<user::CallForm>& forms() const override { return grayscale_call_forms(); }
    bool one_d(const user::CallForm& form) const override { return grayscale_user_forms().is_one_d(form); }

    Dim3 grid(const user::CallForm& form, const Dim3& block) const override {
        if (one_d(form)) return Dim3{unsigned(cdiv(pixels(), block.x)), 1, 1};
        return Dim3{unsigned(cdiv(width_, block.x)), unsigned(cdiv(height_, block.y)), 1};
    }

    user::UserLaunch bind(const user::CallForm& form, const user::KernelSignature& signature, const Dim3& grid,
                          const Dim3& block) override {
        if (!input_error().empty()) return {};
        // Made afresh for every launch: a kernel may write through its non-const x.
        x_ = layout_ == PixelLayout::Planar ? interleaved_to_planar(rgb_.data(), pixels()) : rgb_;
        out_.assign(pixels(), 0);
        user::UserLaunch launch;
        launch.grid = grid;
        launch.block = block;
        launch.args.push_back(user::buffer_arg(signature, 0, x_.data(), x_.size(), 1, false));
        launch.args.push_back(user::buffer_arg(signature, 1, out_.data(), out_.size(), 1, true));
        if (one_d(form)) {
            launch.args.push_back(user::int_arg(signature, 2, int(pixels())));
        } else {
            launch.args.push_back(user::int_arg(signature, 2, int(width_)));
            launch.args.push_back(user::int_arg(signature, 3, int(height_)));
        }
        return launch;
    }

    user::Comparison compare(const std::vector<user::Writer>& writers, std::size_t max_listed) const override {
        if (out_.size() != pixels() || !input_error().empty()) return {};
        // The reference does not depend on the layout: it is computed from the interleaved bytes, on
        // first use (a run that faulted never needs it).
        if (reference_.size() != pixels()) {
            reference_.assign(pixels(), 0);
            grayscale_reference(GrayscaleImage{rgb_.data(), reference_.data(), width_, height_, PixelLayout::Interleaved});
        }
        return user::compare_bytes(out_.data(), reference_.data(), out_.size(), 1, writers, max_listed);
    }

    std::string where(std::uint64_t index) const override {
        if (width_ == 0) return {};
        return "pixel x " + std::to_string(index % width_) + ", y " + std::to_string(index / width_);
    }

    const void* output() const override { return out_.data(); }
    std::size_t output_bytes() const override { return out_.size(); }
    std::size_t output_arg() const override { return 1; }
    std::string size_text() const override {
        return std::to_string(width_) + " x " + std::to_string(height_) +
               (layout_ == PixelLayout::Planar ? " image, planar" : " image, interleaved");
    }

private:
    std::uint64_t pixels() const { return std::uint64_t(width_) * height_; }

    std::vector<std::uint8_t> rgb_;
    std::uint32_t width_, height_;
    PixelLayout layout_;
    mutable std::vector<std::uint8_t> reference_;
    std::vector<std::uint8_t> x_;
    std::vector<std::uint8_t> out_;
};

}  // namespace

const std::vector<user::CallForm>& grayscale_call_forms() {
    static const std::vector<user::CallForm> forms{
        {"gray-1d", "(unsigned char* x, unsigned char* out, int n)",
         {ParamKind::BytePtr, ParamKind::BytePtr, ParamKind::Int}},
        {"gray-2d", "(unsigned char* x, unsigned char* out, int w, int h)",
         {ParamKind::BytePtr, ParamKind::BytePtr, ParamKind::Int, ParamKind::Int}},
    };
    return forms;
}

user::FamilyForms grayscale_user_forms() { return {grayscale_call_forms(), {"gray-1d"}}; }

std::unique_ptr<user::FamilyCall> grayscale_user_call(std::vector<std::uint8_t> rgb, std::uint32_t width,
                                                      std::uint32_t height, PixelLayout layout) {
    return std::make_unique<GrayscaleUserCall>(std::move(rgb), width, height, layout);
}

}  // namespace cvz
