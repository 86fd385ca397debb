#pragma once
// The candidate models of one tensor-core k8 step's sum, d = c + p0 + ... + p7 (the products of TF32
// values are exact), shared by the probes that count which of them a GPU reproduces bit for bit
// (bench_matmul_gpu_mma_probe.cu: mma.sync; bench_matmul_wgmma_sum_probe.cu: wgmma). Host code.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

// x rounded toward zero to float.
inline float to_float_rz(double x) {
    float f = float(x);
    if (std::fabs(double(f)) > std::fabs(x)) f = std::nextafter(f, 0.0f);
    return f;
}

// Terms truncated to multiples of 2^(emax - 23 - extra), summed exactly (they fit in a double).
inline double aligned_sum(const double* terms, int count, int extra) {
    int emax = -100000;
    for (int i = 0; i < count; ++i)
        if (terms[i] != 0) emax = std::max(emax, std::ilogb(terms[i]));
    if (emax == -100000) return 0;
    const double unit = std::ldexp(1.0, emax - 23 - extra);
    double s = 0;
    for (int i = 0; i < count; ++i) s += std::trunc(terms[i] / unit) * unit;
    return s;
}

// Appends the models on the 8 products to `models` (a vector of aggregates whose first two members are
// a name and a std::function<float(float c, const double* p)>):
//   exact-RN, fma-chain; for E = 0..4: align-E-RZ / -RN, prod-align-E-then-c-RZ, tree4-align-E-RZ,
//   2x4-align-E-RZ (bench_matmul_gpu_mma_probe.cu's header says what each is).
template <class Model>
void add_product_sum_models(std::vector<Model>& models) {
    models.push_back({"exact-RN", [](float c, const double* p) {
                          double s = c;
                          for (int k = 0; k < 8; ++k) s += p[k];
                          return float(s);
                      }});
    models.push_back({"fma-chain", [](float c, const double* p) {
                          float s = c;
                          for (int k = 0; k < 8; ++k) s = float(double(s) + p[k]);  // p exact, so this is fmaf
                          return s;
                      }});
    for (int extra : {0, 1, 2, 3, 4}) {
        models.push_back({"align-" + std::to_string(extra) + "-RZ", [extra](float c, const double* p) {
                              double t[9] = {c, p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7]};
                              return to_float_rz(aligned_sum(t, 9, extra));
                          }});
        models.push_back({"align-" + std::to_string(extra) + "-RN", [extra](float c, const double* p) {
                              double t[9] = {c, p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7]};
                              return float(aligned_sum(t, 9, extra));
                          }});
        models.push_back({"prod-align-" + std::to_string(extra) + "-then-c-RZ", [extra](float c, const double* p) {
                              return to_float_rz(double(c) + aligned_sum(p, 8, extra));
                          }});
        models.push_back({"tree4-align-" + std::to_string(extra) + "-RZ", [extra](float c, const double* p) {
                              const double g[3] = {c, aligned_sum(p, 4, extra), aligned_sum(p + 4, 4, extra)};
                              return to_float_rz(aligned_sum(g, 3, extra));
                          }});
        models.push_back({"2x4-align-" + std::to_string(extra) + "-RZ", [extra](float c, const double* p) {
                              double t1[5] = {c, p[0], p[1], p[2], p[3]};
                              const float h = to_float_rz(aligned_sum(t1, 5, extra));
                              double t2[5] = {h, p[4], p[5], p[6], p[7]};
                              return to_float_rz(aligned_sum(t2, 5, extra));
                          }});
    }
}
