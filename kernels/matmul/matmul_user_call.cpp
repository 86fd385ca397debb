#include "matmul_user_call.h"

#include <limits>
#include <string>
#include <utility>

#include "matmul_reference.h"

namespace cvz {

namespace {

using user::ParamKind;

class MatmulUserCall final : public user::FamilyCall {
public:
    MatmulUserCall(std::vector<float> a, std::vector<float> b, std::uint32_t rows, std::uint32_t inner, std::uint32_t cols)
        : a_(std::move(a)), b_(std::move(b)), rows_(rows), inner_(inner), cols_(cols) {}

    std::string input_error() const override {
        if (a_.size() != std::uint64_t(rows_) * inner_ || b_.size() != std::uint64_t(inner_) * cols_)
            return "the matrices do not hold rows x inner and inner x cols values";
        if (outputs() == 0 || inner_ == 0) return "the product is empty";
        const std::uint64_t most = std::numeric_limits<int>::max();
        if (a_.size() > most || b_.size() > most || outputs() > most)
            return "the matrices have more elements than a kernel's int parameters can index";
        return {};
    }
    const std::vector<user::CallForm>& forms() const override { return matmul_call_forms(); }
    bool one_d(const user::CallForm&) const override { return false; }

    Dim3 grid(const user::CallForm&, const Dim3& block) const override {
        return Dim3{unsigned(cdiv(cols_, block.x)), unsigned(cdiv(rows_, block.y)), 1};
    }

    user::UserLaunch bind(const user::CallForm&, const user::KernelSignature& signature, const Dim3& grid,
                          const Dim3& block) override {
        if (!input_error().empty()) return {};
        out_.assign(outputs(), 0.0f);
        user::UserLaunch launch;
        launch.grid = grid;
        launch.block = block;
        launch.args.push_back(user::buffer_arg(signature, 0, a_.data(), a_.size() * sizeof(float), sizeof(float), false));
        launch.args.push_back(user::buffer_arg(signature, 1, b_.data(), b_.size() * sizeof(float), sizeof(float), false));
        launch.args.push_back(user::buffer_arg(signature, 2, out_.data(), out_.size() * sizeof(float), sizeof(float), true));
        launch.args.push_back(user::int_arg(signature, 3, int(rows_)));
        launch.args.push_back(user::int_arg(signature, 4, int(cols_)));
        launch.args.push_back(user::int_arg(signature, 5, int(inner_)));
        return launch;
    }

    user::Comparison compare(const std::vector<user::Writer>& writers, std::size_t max_listed) const override {
        if (out_.size() != outputs() || !input_error().empty()) return {};
        // The reference is computed on first use only: a run that faulted never needs it.
        std::vector<float> c(outputs());
        const MatmulProblem p{a_.data(), b_.data(), c.data(), rows_, inner_, cols_};
        matmul_reference(p);
        const std::vector<double> expected(c.begin(), c.end());
        return user::compare_floats(out_.data(), expected.data(), out_.size(), 1e-5, writers, max_listed);
    }

    std::string where(std::uint64_t index) const override {
        if (cols_ == 0) return {};
        return "row " + std::to_string(index / cols_) + ", column " + std::to_string(index % cols_);
    }

    const void* output() const override { return out_.data(); }
    std::size_t output_bytes() const override { return out_.size() * sizeof(float); }
    std::size_t output_arg() const override { return 2; }
    std::string size_text() const override {
        return std::to_string(rows_) + "x" + std::to_string(inner_) + " @ " + std::to_string(inner_) + "x" +
               std::to_string(cols_);
    }

private:
    std::uint64_t outputs() const { return std::uint64_t(rows_) * cols_; }

    std::vector<float> a_, b_;
    std::uint32_t rows_, inner_, cols_;
    std::vector<float> out_;
};

}  // namespace

const std::vector<user::CallForm>& matmul_call_forms() {
    static const std::vector<user::CallForm> forms{
        {"matmul", "(float* m, float* n, float* out, int h, int w, int k)",
         {ParamKind::FloatPtr, ParamKind::FloatPtr, ParamKind::FloatPtr, ParamKind::Int, ParamKind::Int, ParamKind::Int}},
    };
    return forms;
}

user::FamilyForms matmul_user_forms() { return {matmul_call_forms(), {}}; }

std::unique_ptr<user::FamilyCall> matmul_user_call(std::vector<float> a, std::vector<float> b, std::uint32_t rows,
                                                   std::uint32_t inner, std::uint32_t cols) {
    return std::make_unique<MatmulUserCall>(std::move(a), std::move(b), rows, inner, cols);
}

}  // namespace cvz
