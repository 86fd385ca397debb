// The performance model's own cost (issue 15): a prediction must be quick enough for a slider.
// Prints the wall time of a first prediction (a traced sample) and of a repeat (the cache).
#include <chrono>
#include <cstdio>

#include "app/grayscale/grayscale_prediction.h"
#include "app/matmul/matmul_prediction.h"
#include "app/models/perf_model.h"
using namespace cvz;

int main() {
    DeviceProfile d = *find_device_profile("H200");
    auto t = [&](const char* what, auto f) {
        auto a = std::chrono::steady_clock::now(); GpuPrediction p = f();
        auto b = std::chrono::steady_clock::now();
        std::printf("%-40s %8.1f ms  %s\n", what, std::chrono::duration<double, std::milli>(b - a).count(), qPrintable(p.summary()));
    };
    t("gray 8K 1d 256", [&] { return predict_grayscale(d, LaunchShape::one_d(256), 7680, 4320); });
    t("gray 8K 1d 256 (cached)", [&] { return predict_grayscale(d, LaunchShape::one_d(256), 7680, 4320); });
    t("gray 8K 2d 32x32", [&] { return predict_grayscale(d, LaunchShape::two_d(32, 32), 7680, 4320); });
    t("gray 8K 2d 1x1", [&] { return predict_grayscale(d, LaunchShape::two_d(1, 1), 7680, 4320); });
    t("gray 8K vec16 1024", [&] { return predict_grayscale(d, LaunchShape::of(GrayscaleVariant::GrayVec16, Dim3{1024,1,1}), 7680, 4320); });
    t("matmul 4096 naive 32x32", [&] { return predict_matmul(d, MatmulLaunch::naive(32, 32), 4096, 4096, 4096); });
    t("matmul 4096 naive 16x16", [&] { return predict_matmul(d, MatmulLaunch::naive(16, 16), 4096, 4096, 4096); });
    t("matmul 4096 naive 16x16 (cached)", [&] { return predict_matmul(d, MatmulLaunch::naive(16, 16), 4096, 4096, 4096); });
    t("matmul 4096 tiled 32", [&] { return predict_matmul(d, MatmulLaunch::tiled(32), 4096, 4096, 4096); });
    t("matmul 4096 warptile", [&] { return predict_matmul(d, MatmulLaunch::of(MatmulVariant::Warptile, Dim3{128,1,1}, 0), 4096, 4096, 4096); });
    t("matmul 4096 bt2d", [&] { return predict_matmul(d, MatmulLaunch::of(MatmulVariant::Blocktile2d, Dim3{16,16,1}, 0), 4096, 4096, 4096); });
}
