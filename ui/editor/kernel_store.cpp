#include "ui/editor/kernel_store.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>
#include <QStandardPaths>
#include <QStringDecoder>

namespace cvz {

namespace {

const QString kSuffix = QStringLiteral(".cu");

bool write_atomically(const QString& path, const QByteArray& bytes, QString* error) {
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        if (error) *error = QObject::tr("%1: cannot write: %2").arg(QDir::toNativeSeparators(path), file.errorString());
        return false;
    }
    file.write(bytes);
    if (!file.commit()) {
        if (error) *error = QObject::tr("%1: cannot write: %2").arg(QDir::toNativeSeparators(path), file.errorString());
        return false;
    }
    return true;
}

}  // namespace

KernelStore::KernelStore(const QString& folder, QObject* parent)
    : QObject(parent), folder_(folder.isEmpty() ? defaultFolder() : QDir::cleanPath(folder)) {}

QString KernelStore::defaultFolder() {
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/kernels");
}

bool KernelStore::ensureFolder(QString* error) const {
    if (QDir().mkpath(folder_)) return true;
    if (error) *error = tr("%1: cannot make the kernels folder").arg(QDir::toNativeSeparators(folder_));
    return false;
}

QStringList KernelStore::kernels() const {
    QStringList out;
    const QFileInfoList files = QDir(folder_).entryInfoList({QStringLiteral("*") + kSuffix}, QDir::Files, QDir::Name);
    for (const QFileInfo& f : files) out << f.absoluteFilePath();
    return out;
}

QString KernelStore::freePath(const QString& base) const {
    QString stem = QFileInfo(base).completeBaseName();
    if (stem.isEmpty()) stem = QStringLiteral("kernel");
    const QDir dir(folder_);
    QString path = dir.filePath(stem + kSuffix);
    for (int n = 2; QFileInfo::exists(path); ++n) path = dir.filePath(QStringLiteral("%1-%2%3").arg(stem).arg(n).arg(kSuffix));
    return path;
}

bool KernelStore::read(const QString& path, QString* text, QString* error) {
    const QString shown = QDir::toNativeSeparators(path);
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        if (error) *error = tr("%1: cannot open: %2").arg(shown, file.errorString());
        return false;
    }
    if (file.size() > kMaxBytes) {
        if (error) *error = tr("%1: %2 bytes is too large for a kernel source (at most %3)").arg(shown).arg(file.size()).arg(kMaxBytes);
        return false;
    }
    const QByteArray bytes = file.readAll();
    if (bytes.contains('\0')) {
        if (error) *error = tr("%1: not a text file (it contains NUL bytes)").arg(shown);
        return false;
    }
    QStringDecoder utf8(QStringDecoder::Utf8);
    QString decoded = utf8(bytes);
    if (utf8.hasError()) {
        if (error) *error = tr("%1: not UTF-8 text").arg(shown);
        return false;
    }
    if (text) *text = decoded;
    return true;
}

bool KernelStore::write(const QString& path, const QString& text, QString* error) {
    if (!QDir().mkpath(QFileInfo(path).absolutePath())) {
        if (error) *error = tr("%1: cannot make its folder").arg(QDir::toNativeSeparators(path));
        return false;
    }
    if (!write_atomically(path, text.toUtf8(), error)) return false;
    if (QFileInfo(path).absolutePath() == QFileInfo(folder_).absoluteFilePath()) emit kernelsChanged();
    return true;
}

QString KernelStore::autosavePath() const { return QDir(folder_).filePath(QStringLiteral(".autosave.json")); }

bool KernelStore::writeAutosave(const QString& file, const QString& text, QString* error) {
    if (!ensureFolder(error)) return false;
    QJsonObject o;
    o.insert(QStringLiteral("file"), file);
    o.insert(QStringLiteral("text"), text);
    return write_atomically(autosavePath(), QJsonDocument(o).toJson(QJsonDocument::Compact), error);
}

bool KernelStore::readAutosave(QString* file, QString* text) const {
    QFile f(autosavePath());
    if (!f.open(QIODevice::ReadOnly) || f.size() > 4 * kMaxBytes) return false;
    const QJsonDocument doc = QJsonDocument::fromJson(f.readAll());
    if (!doc.isObject() || !doc.object().value(QStringLiteral("text")).isString()) return false;
    if (file) *file = doc.object().value(QStringLiteral("file")).toString();
    if (text) *text = doc.object().value(QStringLiteral("text")).toString();
    return true;
}

void KernelStore::clearAutosave() { QFile::remove(autosavePath()); }

// Beside the kernels rather than in QSettings: the folder is the editor's whole state, so a test (or
// a second profile) that points the store elsewhere gets its own.
QString KernelStore::lastFile() const {
    QFile f(QDir(folder_).filePath(QStringLiteral(".last")));
    if (!f.open(QIODevice::ReadOnly) || f.size() > 4096) return {};
    return QString::fromUtf8(f.readAll()).trimmed();
}

void KernelStore::setLastFile(const QString& path) {
    if (path == lastFile() || !ensureFolder()) return;
    write_atomically(QDir(folder_).filePath(QStringLiteral(".last")), path.toUtf8(), nullptr);
}

// Also beside the kernels: a small JSON object, file path -> function name.
QString KernelStore::chosenKernel(const QString& file) const {
    QFile f(QDir(folder_).filePath(QStringLiteral(".chosen.json")));
    if (file.isEmpty() || !f.open(QIODevice::ReadOnly) || f.size() > (1 << 20)) return {};
    return QJsonDocument::fromJson(f.readAll()).object().value(file).toString();
}

void KernelStore::setChosenKernel(const QString& file, const QString& name) {
    if (file.isEmpty() || chosenKernel(file) == name || !ensureFolder()) return;
    const QString path = QDir(folder_).filePath(QStringLiteral(".chosen.json"));
    QJsonObject all;
    QFile f(path);
    if (f.open(QIODevice::ReadOnly) && f.size() <= (1 << 20)) all = QJsonDocument::fromJson(f.readAll()).object();
    f.close();
    if (name.isEmpty()) all.remove(file);
    else all.insert(file, name);
    write_atomically(path, QJsonDocument(all).toJson(QJsonDocument::Compact), nullptr);
}

}  // namespace cvz
