// The convolution family's predicted GPU time against the H200's (issue 26): reads the JSON that
// bench_convolution_gpu wrote on the GPU machine, predicts every row on the H200 profile
// (app/convolution/convolution_prediction.h) and prints predicted beside measured (the warm median:
// launches back to back, caches kept, as the model's other validations), the error of each row, and
// per variant the median and the largest error. Runs anywhere: no GPU is needed.
//
//   bench_convolution_model MEASURED.json [--json FILE]
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "app/convolution/convolution_prediction.h"
#include "app/models/device_profile.h"
#include "kernels/convolution/convolution_variants.h"

using namespace cvz;

namespace {

struct Row {
    std::uint32_t width = 0, height = 0, side = 0;
    std::string kernel;  // "conv_tiled 16x16"
    double measured_us = 0, predicted_us = 0;
    std::string bound;
    double error() const { return (predicted_us - measured_us) / measured_us; }
};

// "conv_tiled 16x16" -> the launch; false when the name or the block is not understood.
bool parse_launch(const std::string& text, ConvolutionLaunch* launch) {
    const std::size_t space = text.find(' ');
    unsigned bx = 0, by = 0;
    if (space == std::string::npos || std::sscanf(text.c_str() + space + 1, "%ux%u", &bx, &by) != 2) return false;
    const std::string name = text.substr(0, space);
    for (const KernelInfo& info : convolution_catalogue())
        if (info.name == name) {
            *launch = ConvolutionLaunch::of(ConvolutionVariant(info.variant), Dim3{bx, by, 1});
            return true;
        }
    return false;
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
    std::string in, json;
    bool usage = false;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--json" && i + 1 < argc) json = argv[++i];
        else if (in.empty() && !a.empty() && a[0] != '-') in = a;
        else usage = true;
    }
    if (in.empty() || usage) {
        std::fprintf(stderr, "usage: bench_convolution_model MEASURED.json [--json FILE]\n");
        return 2;
    }
    QFile file(QString::fromStdString(in));
    if (!file.open(QIODevice::ReadOnly)) {
        std::fprintf(stderr, "%s: cannot read it\n", in.c_str());
        return 1;
    }
    QJsonParseError parse_error;
    const QJsonDocument doc = QJsonDocument::fromJson(file.readAll(), &parse_error);
    if (!doc.isObject() || !doc.object().value(QStringLiteral("results")).isArray()) {
        std::fprintf(stderr, "%s: not bench_convolution_gpu's JSON (%s)\n", in.c_str(), qPrintable(parse_error.errorString()));
        return 1;
    }
    const std::optional<DeviceProfile> h200 = find_device_profile(QStringLiteral("H200"));
    if (!h200) {
        std::fprintf(stderr, "no H200 device profile\n");
        return 1;
    }
    std::vector<Row> rows;
    for (const QJsonValue& v : doc.object().value(QStringLiteral("results")).toArray()) {
        const QJsonObject o = v.toObject();
        Row r;
        r.width = std::uint32_t(o.value(QStringLiteral("width")).toInt());
        r.height = std::uint32_t(o.value(QStringLiteral("height")).toInt());
        r.side = std::uint32_t(o.value(QStringLiteral("mask_side")).toInt());
        r.kernel = o.value(QStringLiteral("kernel")).toString().toStdString();
        r.measured_us = o.value(QStringLiteral("warm_ms")).toDouble() * 1e3;
        ConvolutionLaunch launch;
        if (!parse_launch(r.kernel, &launch) || r.measured_us <= 0) {
            std::fprintf(stderr, "%s: a row this program does not understand (%s)\n", in.c_str(), r.kernel.c_str());
            return 1;
        }
        ConvolutionMask mask;
        mask.side = r.side;
        mask.values.assign(std::size_t(r.side) * r.side, 0.0f);  // the addresses, not the values, set the time
        const GpuPrediction p = predict_convolution(*h200, launch, r.width, r.height, mask);
        if (!p.ok()) {
            std::fprintf(stderr, "%s %ux%u: %s\n", r.kernel.c_str(), r.width, r.height, qPrintable(p.error));
            return 1;
        }
        r.predicted_us = p.total_us;
        r.bound = p.bound.toStdString();
        rows.push_back(r);
    }

    std::printf("predicted on the H200 profile against %s (warm medians)\n", in.c_str());
    std::printf("%-10s %4s %-24s %11s %12s %7s  %s\n", "size", "mask", "kernel", "measured us", "predicted us", "error",
                "bound");
    std::map<std::string, std::vector<double>> by_variant;
    std::vector<double> all;
    for (const Row& r : rows) {
        std::printf("%-10s %4u %-24s %11.1f %12.1f %+6.0f%%  %s\n",
                    (std::to_string(r.width) + "x" + std::to_string(r.height)).c_str(), r.side, r.kernel.c_str(),
                    r.measured_us, r.predicted_us, 100 * r.error(), r.bound.c_str());
        by_variant[r.kernel.substr(0, r.kernel.find(' '))].push_back(std::fabs(r.error()));
        all.push_back(std::fabs(r.error()));
    }
    std::printf("\n%-20s %8s %8s %5s\n", "variant", "median", "largest", "rows");
    for (const auto& [name, errors] : by_variant)
        std::printf("%-20s %7.0f%% %7.0f%% %5zu\n", name.c_str(), 100 * median(errors),
                    100 * *std::max_element(errors.begin(), errors.end()), errors.size());
    std::printf("%-20s %7.0f%% %7.0f%% %5zu\n", "all", 100 * median(all), 100 * *std::max_element(all.begin(), all.end()),
                all.size());

    if (!json.empty()) {
        QJsonArray out;
        for (const Row& r : rows)
            out.append(QJsonObject{{QStringLiteral("width"), int(r.width)},
                                   {QStringLiteral("height"), int(r.height)},
                                   {QStringLiteral("mask_side"), int(r.side)},
                                   {QStringLiteral("kernel"), QString::fromStdString(r.kernel)},
                                   {QStringLiteral("measured_us"), r.measured_us},
                                   {QStringLiteral("predicted_us"), r.predicted_us},
                                   {QStringLiteral("error"), r.error()},
                                   {QStringLiteral("bound"), QString::fromStdString(r.bound)}});
        QFile f(QString::fromStdString(json));
        if (!f.open(QIODevice::WriteOnly) ||
            f.write(QJsonDocument(QJsonObject{{QStringLiteral("benchmark"), QStringLiteral("convolution_model")},
                                              {QStringLiteral("rows"), out}})
                        .toJson()) < 0) {
            std::fprintf(stderr, "cannot write %s\n", json.c_str());
            return 1;
        }
    }
    return 0;
}
