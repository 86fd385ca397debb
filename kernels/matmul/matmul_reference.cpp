#include "matmul_reference.h"

#include <algorithm>
#include <cmath>

namespace cvz {

void matmul_reference(const MatmulProblem& p) {
    for (std::uint64_t r = 0; r < p.m; ++r)
        for (std::uint64_t c = 0; c < p.n; ++c) {
            double acc = 0;
            for (std::uint64_t i = 0; i < p.k; ++i) acc += double(p.a[a_index(p, r, i)]) * double(p.b[b_index(p, i, c)]);
            p.c[c_index(p, r, c)] = float(acc);
        }
}

double matmul_max_relative_error(const float* got, const float* ref, std::uint64_t count) {
    double worst = 0;
    for (std::uint64_t i = 0; i < count; ++i) {
        if (std::isnan(ref[i]) || std::isnan(got[i])) {
            if (std::isnan(ref[i]) != std::isnan(got[i])) return INFINITY;
            continue;
        }
        if (std::isinf(ref[i]) || std::isinf(got[i])) {
            if (ref[i] != got[i]) return INFINITY;
            continue;
        }
        worst = std::max(worst, std::fabs(double(got[i]) - ref[i]) / std::max(1.0, std::fabs(double(ref[i]))));
    }
    return worst;
}

}  // namespace cvz
