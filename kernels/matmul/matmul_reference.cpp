#include "matmul_reference.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "../core/cpu_dispatch.h"

namespace cvz {

namespace {

// Both loops run k outermost and the columns innermost: each output still sums its terms in the order
// i = 0, 1, ..., K-1 (so the bytes are those of the textbook r, c, i loop), while the inner loop walks
// rows of B and C contiguously and vectorises across columns. Plain-value parameters: the stores may
// alias, so nothing the loop needs is read back through a pointer.
void rows_in_double(const float* a, const float* b, float* c, std::uint64_t m, std::uint64_t k, std::uint64_t n,
                    double* acc) {
    for (std::uint64_t r = 0; r < m; ++r) {
        for (std::uint64_t j = 0; j < n; ++j) acc[j] = 0;
        for (std::uint64_t i = 0; i < k; ++i) {
            const double ari = a[r * k + i];
            const float* brow = b + i * n;
            for (std::uint64_t j = 0; j < n; ++j) acc[j] += ari * double(brow[j]);  // exact product, one rounding
        }
        for (std::uint64_t j = 0; j < n; ++j) c[r * n + j] = float(acc[j]);
    }
}

void rows_fma(const float* a, const float* b, float* c, std::uint64_t m, std::uint64_t k, std::uint64_t n) {
    for (std::uint64_t r = 0; r < m; ++r) {
        float* crow = c + r * n;
        for (std::uint64_t j = 0; j < n; ++j) crow[j] = 0.0f;
        for (std::uint64_t i = 0; i < k; ++i) {
            const float ari = a[r * k + i];
            const float* brow = b + i * n;
            for (std::uint64_t j = 0; j < n; ++j) crow[j] = fmaf(ari, brow[j], crow[j]);
        }
    }
}

}  // namespace

void matmul_reference(const MatmulProblem& p) {
    std::vector<double> acc(p.n);
    double* row = acc.data();
    on_cpu_path([=] { rows_in_double(p.a, p.b, p.c, p.m, p.k, p.n, row); });
}

void matmul_fma_loop(const MatmulProblem& p) {
    on_cpu_path([=] { rows_fma(p.a, p.b, p.c, p.m, p.k, p.n); });
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
