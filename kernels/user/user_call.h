#pragma once
// A family's side of a user kernel (issue 27), family-free: the call forms a family accepts, its grid
// rule, the binding of its problem's buffers to a UserLaunch in parameter order, and the comparison of
// the kernel's output with the family's reference. Each family implements FamilyCall in
// kernels/<family>/<family>_user_call.*; the app and the CLI (app/user/) take it without asking which
// family they have. Qt-free.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "../core/dim3.h"
#include "user_kernel.h"

namespace cvz::user {

// One output element that differs from the reference, and the thread whose store left it there.
struct Difference {
    std::uint64_t index = 0;  // in the output buffer, in elements
    double got = 0;
    double expected = 0;
    Writer writer;
    bool writer_known = false;  // the run recorded writers (the emulator does; the GPU does not)
};

// The output against the reference: how many elements differ beyond the family's tolerance, the
// largest difference, and the first few listed.
struct Comparison {
    std::uint64_t compared = 0;
    std::uint64_t differing = 0;
    double max_difference = 0;     // absolute for bytes, relative (to max(1, |expected|)) for floats
    std::string tolerance;         // "one grey level", "1e-05 relative"
    std::vector<Difference> listed;  // the first `max_listed`, in index order
    bool matches() const { return compared > 0 && differing == 0; }
};

// "(12, 0, 0)/(255, 0, 0)": a writer's block and thread index in a launch of `grid` x `block`.
std::string writer_text(const Writer& w, const Dim3& grid, const Dim3& block);
// "out[1234] (row 3, column 17) is 17, the reference 19: written by thread (..)/(..)" — `where` says
// where the element is in the family's terms ("row 3, column 17"), left out when empty.
std::string difference_text(const Difference& d, const std::string& buffer, const std::string& where,
                            const Dim3& grid, const Dim3& block);
// "0 of 391 elements differ (within one grey level)" or "12 of 391 elements differ by more than ...".
std::string comparison_summary(const Comparison& c);

// Bytes that may differ by `tolerance` (one grey level: the lecture's double constants against the
// family's float ones). `writers` (one per element) may be empty.
Comparison compare_bytes(const std::uint8_t* got, const std::uint8_t* expected, std::uint64_t count,
                         unsigned tolerance, const std::vector<Writer>& writers, std::size_t max_listed);
// Floats within `relative` of the reference, relative to max(1, |expected|) so that outputs near 0 are
// held to an absolute bound (a NaN or an infinity always differs).
Comparison compare_floats(const float* got, const double* expected, std::uint64_t count, double relative,
                          const std::vector<Writer>& writers, std::size_t max_listed);

// The form a kernel's signature fits among a family's, or why none does (listing the accepted ones).
struct FormChoice {
    const CallForm* form = nullptr;  // null: none fits
    std::string error;
};
FormChoice pick_form(const KernelSignature& signature, const std::vector<CallForm>& forms);
// "  (unsigned char* x, unsigned char* out, int n)\n  (unsigned char* x, ...)": one accepted form a line.
std::string accepted_forms_text(const std::vector<CallForm>& forms);

// Launch arguments named as the signature's parameter `index` names them.
UserArg buffer_arg(const KernelSignature& s, std::size_t index, void* data, std::size_t bytes,
                   std::size_t element_bytes, bool writable);
UserArg int_arg(const KernelSignature& s, std::size_t index, int value);

// A family's forms and which of them launch 1-D blocks (their grid rule counts elements in x): what a
// compile needs to know before there is a problem to run on.
struct FamilyForms {
    std::vector<CallForm> forms;
    std::vector<std::string> one_d;  // ids
    bool is_one_d(const CallForm& form) const;
};

// A family's problem, ready to be run by a user kernel. It owns the buffers the launch points at: bind()
// fills the inputs and clears the output, the run writes the output back into them, and compare()
// reads it against the reference. Not shared between threads while a run is on.
class FamilyCall {
public:
    virtual ~FamilyCall() = default;

    // Empty when the problem can be launched by a user kernel, else why not (an int parameter cannot
    // count its elements, say).
    virtual std::string input_error() const = 0;
    // The forms the family accepts, in the order messages list them.
    virtual const std::vector<CallForm>& forms() const = 0;
    // Whether `form` launches one-dimensional blocks (its default block is 256, else 16x16).
    virtual bool one_d(const CallForm& form) const = 0;
    // The family's grid rule for `form` and `block` (the grid --grid overrides).
    virtual Dim3 grid(const CallForm& form, const Dim3& block) const = 0;
    // The launch of `form` over this problem, its arguments in parameter order, named as `signature`
    // names them (the form must fit it).
    virtual UserLaunch bind(const CallForm& form, const KernelSignature& signature, const Dim3& grid,
                            const Dim3& block) = 0;
    // The output after a run against the family's reference; `writers` is the output's (may be empty).
    virtual Comparison compare(const std::vector<Writer>& writers, std::size_t max_listed) const = 0;
    // Where output element `index` is, in the family's terms: "row 3, column 17".
    virtual std::string where(std::uint64_t index) const = 0;
    // The output as the run left it: its bytes, and its index among the launch's arguments.
    virtual const void* output() const = 0;
    virtual std::size_t output_bytes() const = 0;
    virtual std::size_t output_arg() const = 0;
    // "1920 x 1080": the problem's size, for summaries.
    virtual std::string size_text() const = 0;
};

}  // namespace cvz::user
