#include "app/models/compiled_issue.h"

#include <algorithm>
#include <cmath>

#include "app/family/app_family.h"

namespace cvz {

double CompiledIssue::rate(double warps) const {
    if (warps <= 0) return 0;
    const double u = std::clamp(ceiling, 1e-6, 1.0);
    const double p = std::clamp(ready, 1e-9, u);
    return u * (1 - std::pow(1 - p / u, warps));
}

std::optional<CompiledIssue> compiled_issue(const KernelRef& ref) {
    for (const AppFamily& f : app_families())
        if (f.family == ref.family) return f.compiled_issue ? f.compiled_issue(ref) : std::nullopt;
    return std::nullopt;
}

}  // namespace cvz
