#include "ui/editor/lecture_kernels.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include "ui/views/kernel_sources.h"

namespace cvz {

namespace {
const QString kFolder = QStringLiteral(":/resources/kernels");
}

QStringList lecture_kernel_files() {
    embedded_kernel_sources();  // registers the resource they are embedded in (ui/CMakeLists.txt)
    QStringList out;
    for (const QString& name : QDir(kFolder).entryList({QStringLiteral("*.cu")}, QDir::Files, QDir::Name))
        out << kFolder + QLatin1Char('/') + name;
    return out;
}

QStringList lecture_kernel_files(KernelFamily family) {
    const QString stem = QString::fromLatin1(to_string(family));
    QStringList out;
    for (const QString& path : lecture_kernel_files()) {
        const QString base = QFileInfo(path).completeBaseName();
        if (base == stem || base.startsWith(stem + QLatin1Char('_'))) out << path;
    }
    return out;
}

LectureKernel lecture_kernel_for(KernelFamily family) {
    LectureKernel out;
    const QStringList files = lecture_kernel_files(family);
    if (files.isEmpty()) {
        out.error = QObject::tr("No lecture kernel for %1 in the app (resources/kernels/%1*.cu)")
                        .arg(QString::fromLatin1(to_string(family)));
        return out;
    }
    return lecture_kernel(files.first());
}

LectureKernel lecture_kernel(const QString& resource_path) {
    LectureKernel out;
    QFile f(resource_path);
    if (!f.open(QIODevice::ReadOnly)) {
        out.error = QObject::tr("%1: cannot read the embedded lecture kernel").arg(resource_path);
        return out;
    }
    out.name = QFileInfo(resource_path).completeBaseName();
    out.text = QString::fromUtf8(f.readAll());
    return out;
}

}  // namespace cvz
