#include "ui/pages/kernel_page.h"

#include <QFileInfo>

#include "app/user/user_variants.h"

namespace cvz {

QString KernelPage::pageName() const {
    QString name = objectName();
    if (name.endsWith(QLatin1String("Page"))) name.chop(4);
    return name;
}

void KernelPage::bind(const PageDocks& docks) {
    unbind();
    docks_ = docks;
    bound_ = true;
    onBind(docks_);
}

void KernelPage::unbind() {
    if (!bound_) return;
    for (const QMetaObject::Connection& c : connections_) disconnect(c);
    connections_.clear();
    onUnbind();
    bound_ = false;
    docks_ = PageDocks{};
}

LaunchChoice KernelPage::builtinStandIn(const LaunchChoice& choice) {
    const UserVariantPtr v = user_variant(choice.ref);
    if (!v) return choice;
    const BlockRule rule = v->one_d ? BlockRule::OneD : BlockRule::TwoD;
    for (const KernelInfo& k : family_catalogue(choice.ref.family))
        if (k.block == rule) return LaunchChoice{k.ref(), v->one_d ? Dim3{choice.block.x, 1, 1} : choice.block};
    return choice;
}

std::function<QString()> KernelPage::resultWriter(const QString& path, QString* error) const {
    Q_UNUSED(path);
    if (error) *error = tr("this page has no result to save");
    return {};
}

QString KernelPage::setLessonInput(const QString& spec) {
    // A picture page takes a bundled sample by its file name; a page that overrides this takes more.
    if (opensImages() && QFileInfo::exists(QStringLiteral(":/samples/") + spec)) {
        openFile(QStringLiteral(":/samples/") + spec);
        return {};
    }
    return tr("the %1 page cannot open \"%2\"").arg(pageName(), spec);
}

QString KernelPage::setOption(const QString& name, const QString& value) {
    Q_UNUSED(value);
    return tr("the %1 page has no setting \"%2\"").arg(pageName(), name);
}

void KernelPage::setStatus(const QString& text, bool error) {
    status_ = text;
    status_error_ = error;
    emit statusChanged(text, error);
}

}  // namespace cvz
