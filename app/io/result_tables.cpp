#include "app/io/result_tables.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonValue>
#include <QSaveFile>
#include <QStringList>

namespace cvz {

namespace {

QString cannot_write(const QString& path, const QString& why) {
    return QStringLiteral("Cannot write '%1': %2").arg(QDir::toNativeSeparators(path), why);
}

// RFC 4180: a field with a comma, quote or line break is quoted, quotes doubled.
QString csv_field(const QString& s) {
    if (!s.contains(QLatin1Char(',')) && !s.contains(QLatin1Char('"')) && !s.contains(QLatin1Char('\n'))) return s;
    return QLatin1Char('"') + QString(s).replace(QLatin1Char('"'), QStringLiteral("\"\"")) + QLatin1Char('"');
}

QString write_bytes(const QString& path, const QByteArray& bytes) {
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) return cannot_write(path, file.errorString());
    if (file.write(bytes) != bytes.size()) {
        const QString why = file.errorString();
        file.cancelWriting();
        return cannot_write(path, why);
    }
    if (!file.commit()) return cannot_write(path, file.errorString());
    return {};
}

enum class TableFormat { Csv, Json, Unknown };

TableFormat format_of(const QString& path) {
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("csv")) return TableFormat::Csv;
    if (suffix == QLatin1String("json")) return TableFormat::Json;
    return TableFormat::Unknown;
}

QString unknown_format(const QString& path) {
    return cannot_write(path, QStringLiteral("the name must end in .csv or .json (that picks the format)"));
}

}  // namespace

QString run_timings_csv(const std::vector<RunTiming>& runs) {
    QString out = QStringLiteral("kernel,launch,problem,backend,kernel_ms,total_ms\n");
    for (const RunTiming& r : runs) {
        out += QStringList{csv_field(r.kernel), csv_field(r.launch), csv_field(r.problem), csv_field(r.backend),
                           QString::number(r.kernel_ms, 'f', 5), QString::number(r.total_ms, 'f', 5)}
                   .join(QLatin1Char(',')) +
               QLatin1Char('\n');
    }
    return out;
}

QByteArray run_timings_json(const std::vector<RunTiming>& runs) {
    QJsonArray array;
    for (const RunTiming& r : runs)
        array.append(QJsonObject{{QStringLiteral("kernel"), r.kernel},
                                 {QStringLiteral("launch"), r.launch},
                                 {QStringLiteral("problem"), r.problem},
                                 {QStringLiteral("backend"), r.backend},
                                 {QStringLiteral("kernel_ms"), r.kernel_ms},
                                 {QStringLiteral("total_ms"), r.total_ms}});
    return QJsonDocument(QJsonObject{{QStringLiteral("runs"), array}}).toJson(QJsonDocument::Indented);
}

QByteArray sweep_json(const SweepResult& result) {
    QJsonArray rows;
    for (const SweepRow& r : result.rows) {
        const bool timed = r.state == SweepRowState::Timed;
        const bool modeled = r.occupancy.blocks_per_sm > 0;
        QJsonObject row{{QStringLiteral("shape"), r.label()},
                        {QStringLiteral("block_x"), int(r.block().x)},
                        {QStringLiteral("block_y"), int(r.block().y)},
                        {QStringLiteral("threads"), qint64(r.block().volume())},
                        {QStringLiteral("status"), timed ? QStringLiteral("timed")
                                                   : r.state == SweepRowState::Failed ? QStringLiteral("error")
                                                                                      : QStringLiteral("not timed")},
                        {QStringLiteral("median_ms"), timed ? QJsonValue(r.median_ms) : QJsonValue()},
                        {result.unit_key, timed ? QJsonValue(r.throughput) : QJsonValue()},
                        {QStringLiteral("occupancy"), modeled ? QJsonValue(r.occupancy.occupancy) : QJsonValue()},
                        {QStringLiteral("blocks_per_sm"), int(r.occupancy.blocks_per_sm)},
                        {QStringLiteral("limit"), modeled ? QJsonValue(to_string(r.occupancy.limit)) : QJsonValue()},
                        {QStringLiteral("best"), r.best}};
        if (r.state == SweepRowState::Failed) row.insert(QStringLiteral("error"), r.error);
        rows.append(row);
    }
    const QJsonObject doc{{QStringLiteral("kernel"), result.family_name},
                          {QStringLiteral("profile"), result.profile},
                          {QStringLiteral("problem"), result.problem},
                          {QStringLiteral("device"), result.device},
                          {QStringLiteral("note"), result.note},
                          {QStringLiteral("cancelled"), result.cancelled},
                          {QStringLiteral("rows"), rows}};
    return QJsonDocument(doc).toJson(QJsonDocument::Indented);
}

QString write_run_timings(const QString& path, const std::vector<RunTiming>& runs) {
    switch (format_of(path)) {
        case TableFormat::Csv: return write_bytes(path, run_timings_csv(runs).toUtf8());
        case TableFormat::Json: return write_bytes(path, run_timings_json(runs));
        case TableFormat::Unknown: break;
    }
    return unknown_format(path);
}

QString write_sweep(const QString& path, const SweepResult& result) {
    switch (format_of(path)) {
        case TableFormat::Csv: return write_bytes(path, sweep_csv(result).toUtf8());
        case TableFormat::Json: return write_bytes(path, sweep_json(result));
        case TableFormat::Unknown: break;
    }
    return unknown_format(path);
}

}  // namespace cvz
