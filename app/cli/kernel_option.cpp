#include "kernel_option.h"

#include "kernels/catalogue/kernel_catalogue.h"

namespace cvz::cli {

const KernelInfo* find_kernel_option(KernelFamily family, const QString& text) {
    const QString t = text.trimmed().toLower();
    if (t.isEmpty()) return nullptr;
    for (const KernelInfo& k : family_catalogue(family)) {
        const QString name = QString::fromStdString(k.name);
        if (t == name) return &k;
        const int cut = name.indexOf(QLatin1Char('_'));
        if (cut > 0 && t == name.mid(cut + 1)) return &k;
    }
    return nullptr;
}

QString kernel_names_text(KernelFamily family) { return QString::fromStdString(kernel_names(family)); }

QString unknown_kernel_message(KernelFamily family, const QString& text) {
    return QStringLiteral("unknown --kernel '%1': use one of %2 (cudaviz-cli kernels lists them)")
        .arg(text, kernel_names_text(family));
}

}  // namespace cvz::cli
