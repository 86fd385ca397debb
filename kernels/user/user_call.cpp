#include "user_call.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace cvz::user {

namespace {

Dim3 unlinear(std::uint64_t id, const Dim3& extent) {
    const std::uint64_t x = extent.x ? extent.x : 1, y = extent.y ? extent.y : 1;
    return Dim3{unsigned(id % x), unsigned((id / x) % y), unsigned(id / (x * y))};
}

std::string triple(const Dim3& d) {
    return "(" + std::to_string(d.x) + ", " + std::to_string(d.y) + ", " + std::to_string(d.z) + ")";
}

// Shortest text that reads back as the value: outputs are compared, so they must not look equal.
std::string number(double v) {
    char text[40];
    std::snprintf(text, sizeof text, "%.9g", v);
    return text;
}

}  // namespace

std::string writer_text(const Writer& w, const Dim3& grid, const Dim3& block) {
    if (!w.wrote()) return "no thread";
    return triple(unlinear(w.block, grid)) + "/" + triple(unlinear(w.thread, block));
}

std::string difference_text(const Difference& d, const std::string& buffer, const std::string& where,
                            const Dim3& grid, const Dim3& block) {
    std::string text = buffer + "[" + std::to_string(d.index) + "]";
    if (!where.empty()) text += " (" + where + ")";
    text += " is " + number(d.got) + ", the reference " + number(d.expected) + ": ";
    if (!d.writer_known) return text.substr(0, text.size() - 2);  // the run did not say who wrote it
    text += d.writer.wrote() ? "written by thread " + writer_text(d.writer, grid, block) : "no thread wrote it";
    return text;
}

std::string comparison_summary(const Comparison& c) {
    if (c.compared == 0) return "nothing was compared";
    const std::string of = std::to_string(c.differing) + " of " + std::to_string(c.compared) + " elements";
    if (c.differing == 0) return "matches the reference (within " + c.tolerance + ")";
    return of + " differ from the reference by more than " + c.tolerance + " (largest difference " +
           number(c.max_difference) + ")";
}

Comparison compare_bytes(const std::uint8_t* got, const std::uint8_t* expected, std::uint64_t count,
                         unsigned tolerance, const std::vector<Writer>& writers, std::size_t max_listed) {
    Comparison c;
    c.compared = count;
    c.tolerance = tolerance == 0 ? "no difference" : tolerance == 1 ? "one grey level" : std::to_string(tolerance) + " grey levels";
    for (std::uint64_t i = 0; i < count; ++i) {
        const unsigned diff = unsigned(std::abs(int(got[i]) - int(expected[i])));
        if (double(diff) > c.max_difference) c.max_difference = diff;
        if (diff <= tolerance) continue;
        ++c.differing;
        if (c.listed.size() < max_listed)
            c.listed.push_back({i, double(got[i]), double(expected[i]), i < writers.size() ? writers[i] : Writer{}, i < writers.size()});
    }
    return c;
}

Comparison compare_floats(const float* got, const double* expected, std::uint64_t count, double relative,
                          const std::vector<Writer>& writers, std::size_t max_listed) {
    Comparison c;
    c.compared = count;
    char tol[32];
    std::snprintf(tol, sizeof tol, "%g relative", relative);
    c.tolerance = tol;
    for (std::uint64_t i = 0; i < count; ++i) {
        const double g = double(got[i]);
        const double e = expected[i];
        const double diff = std::isfinite(g) ? std::fabs(g - e) / std::fmax(1.0, std::fabs(e)) : INFINITY;
        if (diff > c.max_difference) c.max_difference = diff;
        if (diff <= relative) continue;  // a NaN fails this too
        ++c.differing;
        if (c.listed.size() < max_listed)
            c.listed.push_back({i, g, e, i < writers.size() ? writers[i] : Writer{}, i < writers.size()});
    }
    return c;
}

// The parameter's name, or "argument N" for an unnamed one.
static std::string param_name(const KernelSignature& s, std::size_t index) {
    std::string name = index < s.params.size() ? s.params[index].name : std::string();
    return name.empty() ? "argument " + std::to_string(index + 1) : name;
}

UserArg buffer_arg(const KernelSignature& s, std::size_t index, void* data, std::size_t bytes,
                   std::size_t element_bytes, bool writable) {
    return UserArg::buffer(param_name(s, index), data, bytes, element_bytes, writable);
}

UserArg int_arg(const KernelSignature& s, std::size_t index, int value) {
    return UserArg::integer(param_name(s, index), value);
}

std::string accepted_forms_text(const std::vector<CallForm>& forms) {
    std::string text;
    for (const CallForm& f : forms) text += (text.empty() ? "  " : "\n  ") + f.written;
    return text;
}

bool FamilyForms::is_one_d(const CallForm& form) const {
    for (const std::string& id : one_d)
        if (id == form.id) return true;
    return false;
}

FormChoice pick_form(const KernelSignature& signature, const std::vector<CallForm>& forms) {
    FormChoice choice;
    for (const CallForm& f : forms)
        if (fits(signature, f)) {
            choice.form = &f;
            return choice;
        }
    choice.error = signature.text() + " fits none of the accepted signatures:\n" + accepted_forms_text(forms);
    return choice;
}

}  // namespace cvz::user
