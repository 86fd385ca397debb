#include "app/io/memory_metrics_json.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSaveFile>

namespace cvz {

namespace {

QJsonObject nsight_object(const MemoryMetrics& m) {
    QJsonObject o;
    const auto values = m.nsight();
    for (std::size_t i = 0; i < kNsightMetricCount; ++i) o.insert(QLatin1String(kNsightMetricNames[i]), qint64(values[i]));
    return o;
}

QJsonObject sectors_object(const MemoryMetrics& m) {
    auto one = [](const RequestCounts& c) {
        return QJsonObject{{"sectors", qint64(c.sectors)}, {"ideal", qint64(c.ideal_sectors)}, {"excess", qint64(c.excess_sectors())}};
    };
    return QJsonObject{{"global_ld", one(m.global_ld)}, {"global_st", one(m.global_st)}};
}

QJsonArray dim3_array(Dim3 d) { return QJsonArray{qint64(d.x), qint64(d.y), qint64(d.z)}; }

}  // namespace

QJsonObject memory_metrics_json(const MemoryTrace& trace, const QString& kernel) {
    QJsonArray lines;
    for (const LineMetrics& l : trace.lines)
        lines.append(QJsonObject{{"file", QString::fromStdString(l.where.file)},
                                 {"line", qint64(l.where.line)},
                                 {"metrics", nsight_object(l.metrics)},
                                 {"sectors", sectors_object(l.metrics)}});
    return QJsonObject{{"kernel", kernel},
                       {"grid", dim3_array(trace.grid)},
                       {"block", dim3_array(trace.block)},
                       {"metrics", nsight_object(trace.totals)},
                       {"sectors", sectors_object(trace.totals)},
                       {"lines", lines}};
}

QString write_memory_metrics(const QString& path, const MemoryTrace& trace, const QString& kernel) {
    const QString shown = QDir::toNativeSeparators(path);
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) return QStringLiteral("cannot write '%1': %2").arg(shown, file.errorString());
    const QByteArray bytes = QJsonDocument(memory_metrics_json(trace, kernel)).toJson(QJsonDocument::Indented);
    if (file.write(bytes) != bytes.size() || !file.commit())
        return QStringLiteral("cannot write '%1': %2").arg(shown, file.errorString());
    return {};
}

}  // namespace cvz
