#include "app/io/schedule_json.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>

#include <cmath>

namespace cvz {

namespace {

// Larger than any real recording (an 8K image in 16x16 blocks is 130k blocks, about 10 MiB).
constexpr qint64 kMaxScheduleBytes = qint64(512) << 20;

QString json_string(const std::string& s) {
    // QJsonDocument escapes the device name as JSON requires.
    const QByteArray doc = QJsonDocument(QJsonArray{QString::fromStdString(s)}).toJson(QJsonDocument::Compact);
    return QString::fromUtf8(doc.mid(1, doc.size() - 2));
}

// A JSON number that is a whole number in [lo, hi], else nullopt.
bool whole_number(const QJsonValue& v, double lo, double hi, double* out) {
    if (!v.isDouble()) return false;
    const double d = v.toDouble();
    if (!std::isfinite(d) || d != std::floor(d) || d < lo || d > hi) return false;
    *out = d;
    return true;
}

}  // namespace

QByteArray schedule_to_json(const BlockSchedule& s) {
    // Written by hand, one block a line, so a person can read and diff a recording.
    QString text = QStringLiteral("{\"backend\": %1, \"device\": %2, \"sms\": %3, \"blocks\": [\n")
                       .arg(json_string(s.backend), json_string(s.device))
                       .arg(s.sms);
    QByteArray out = text.toUtf8();
    for (std::size_t i = 0; i < s.blocks.size(); ++i) {
        const BlockRecord& b = s.blocks[i];
        out += QStringLiteral("  {\"block\": [%1, %2, %3], \"sm\": %4, \"start_ns\": %5, \"end_ns\": %6}%7\n")
                   .arg(b.block.x)
                   .arg(b.block.y)
                   .arg(b.block.z)
                   .arg(b.sm)
                   .arg(qulonglong(b.start_ns))
                   .arg(qulonglong(b.end_ns))
                   .arg(i + 1 < s.blocks.size() ? QStringLiteral(",") : QString())
                   .toUtf8();
    }
    out += "]}\n";
    return out;
}

QString write_schedule_json(const QString& path, const BlockSchedule& schedule) {
    QSaveFile file(path);
    const QString name = QDir::toNativeSeparators(path);
    if (!file.open(QIODevice::WriteOnly)) return QStringLiteral("cannot write '%1': %2").arg(name, file.errorString());
    const QByteArray bytes = schedule_to_json(schedule);
    if (file.write(bytes) != bytes.size() || !file.commit())
        return QStringLiteral("cannot write '%1': %2").arg(name, file.errorString());
    return {};
}

LoadedSchedule parse_schedule_json(const QByteArray& bytes, const QString& name) {
    LoadedSchedule r;
    auto fail = [&](const QString& why) {
        r.error = QStringLiteral("'%1' is not a block schedule: %2").arg(name, why);
        return r;
    };
    QJsonParseError parse{};
    const QJsonDocument doc = QJsonDocument::fromJson(bytes, &parse);
    if (parse.error != QJsonParseError::NoError)
        return fail(QStringLiteral("invalid JSON at byte %1: %2").arg(parse.offset).arg(parse.errorString()));
    if (!doc.isObject()) return fail(QStringLiteral("the top level must be an object with backend, device, sms and blocks"));
    const QJsonObject top = doc.object();
    for (const char* key : {"backend", "device"})
        if (!top.value(QLatin1String(key)).isString()) return fail(QStringLiteral("\"%1\" must be a string").arg(key));
    double sms = 0;
    if (!whole_number(top.value(QLatin1String("sms")), 1, 1 << 20, &sms))
        return fail(QStringLiteral("\"sms\" must be a whole number of multiprocessors, at least 1"));
    if (!top.value(QLatin1String("blocks")).isArray()) return fail(QStringLiteral("\"blocks\" must be an array"));
    r.schedule.backend = top.value(QLatin1String("backend")).toString().toStdString();
    r.schedule.device = top.value(QLatin1String("device")).toString().toStdString();
    r.schedule.sms = int(sms);
    const QJsonArray blocks = top.value(QLatin1String("blocks")).toArray();
    r.schedule.blocks.reserve(std::size_t(blocks.size()));
    for (qsizetype i = 0; i < blocks.size(); ++i) {
        const QString where = QStringLiteral("blocks[%1]").arg(i);
        if (!blocks.at(i).isObject()) return fail(where + QStringLiteral(" must be an object"));
        const QJsonObject o = blocks.at(i).toObject();
        const QJsonArray idx = o.value(QLatin1String("block")).toArray();
        if (!o.value(QLatin1String("block")).isArray() || idx.size() != 3)
            return fail(where + QStringLiteral(".block must be [x, y, z]"));
        double xyz[3] = {0, 0, 0};
        for (int k = 0; k < 3; ++k)
            if (!whole_number(idx.at(k), 0, 2147483646.0, &xyz[k]))
                return fail(where + QStringLiteral(".block must hold three whole numbers from 0 to 2147483646"));
        double sm = 0, start = 0, end = 0;
        if (!whole_number(o.value(QLatin1String("sm")), 0, 1 << 20, &sm))
            return fail(where + QStringLiteral(".sm must be a whole number, at least 0"));
        // 2^53: the largest integer a JSON number holds exactly (104 days in ns).
        if (!whole_number(o.value(QLatin1String("start_ns")), 0, 9007199254740992.0, &start) ||
            !whole_number(o.value(QLatin1String("end_ns")), 0, 9007199254740992.0, &end))
            return fail(where + QStringLiteral(".start_ns and .end_ns must be whole numbers of ns, at least 0"));
        r.schedule.blocks.push_back(BlockRecord{Dim3{unsigned(xyz[0]), unsigned(xyz[1]), unsigned(xyz[2])}, int(sm),
                                                std::uint64_t(start), std::uint64_t(end)});
    }
    if (const std::string e = check_block_schedule(r.schedule, &r.grid); !e.empty())
        return fail(QString::fromStdString(e));
    return r;
}

LoadedSchedule read_schedule_json(const QString& path) {
    const QString name = QDir::toNativeSeparators(path);
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        LoadedSchedule r;
        r.error = QStringLiteral("cannot read '%1': %2").arg(name, file.errorString());
        return r;
    }
    if (file.size() > kMaxScheduleBytes) {
        LoadedSchedule r;
        r.error = QStringLiteral("'%1' is %2 MiB; a block schedule is at most %3 MiB")
                      .arg(name)
                      .arg(file.size() >> 20)
                      .arg(kMaxScheduleBytes >> 20);
        return r;
    }
    return parse_schedule_json(file.readAll(), name);
}

}  // namespace cvz
