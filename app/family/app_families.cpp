#include "app/family/app_family.h"

#include "app/convolution/convolution_app_problem.h"
#include "app/grayscale/grayscale_problem.h"
#include "app/matmul/matmul_app_problem.h"

namespace cvz {

// The registry: one line per family, in the kernel catalogue's order.
const std::vector<AppFamily>& app_families() {
    static const std::vector<AppFamily> families{
        grayscale_app_family(),
        matmul_app_family(),
        convolution_app_family(),
    };
    return families;
}

const AppFamily& app_family(KernelFamily family) {
    for (const AppFamily& f : app_families())
        if (f.family == family) return f;
    return app_families().front();
}

const AppFamily* find_app_family(const QString& name) {
    for (const AppFamily& f : app_families())
        if (f.name == name) return &f;
    return nullptr;
}

QString app_family_names(const QString& last_separator) {
    QString text;
    const std::vector<AppFamily>& all = app_families();
    for (std::size_t i = 0; i < all.size(); ++i) {
        if (i > 0) text += i + 1 == all.size() ? last_separator : QStringLiteral(", ");
        text += all[i].name;
    }
    return text;
}

}  // namespace cvz
