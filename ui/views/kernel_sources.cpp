#include "ui/views/kernel_sources.h"

#include <QDirIterator>
#include <QFile>

// Q_INIT_RESOURCE declares a function, so outside any namespace; the library is static, so its
// resources are registered by a call rather than by a static initializer the linker may drop.
static void init_kernel_sources() { Q_INIT_RESOURCE(kernel_sources); }

namespace cvz {

namespace {
const QString kRoot = QStringLiteral(":/");

void ensure_registered() {
    static const bool done = (init_kernel_sources(), true);
    (void)done;
}
}  // namespace

QStringList embedded_kernel_sources() {
    ensure_registered();
    QStringList paths;
    QDirIterator it(QStringLiteral(":/kernels"), QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) paths << it.next().mid(kRoot.size());
    paths.sort();
    return paths;
}

bool embedded_kernel_source(const QString& path, QString* text, QString* error) {
    ensure_registered();
    QFile f(kRoot + path);
    if (!path.startsWith(QLatin1String("kernels/")) || !f.open(QIODevice::ReadOnly)) {
        if (error) *error = QStringLiteral("%1: no such kernel source embedded in the app").arg(path);
        return false;
    }
    if (text) *text = QString::fromUtf8(f.readAll());
    return true;
}

}  // namespace cvz
