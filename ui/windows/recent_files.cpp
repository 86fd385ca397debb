#include "ui/windows/recent_files.h"

#include <QDir>
#include <QFileInfo>
#include <QMenu>
#include <QSettings>

namespace cvz {

namespace {
const char kKey[] = "recentFiles";
}

RecentFiles::RecentFiles(QMenu* menu, QObject* parent) : QObject(parent), menu_(menu) {
    // Built when shown, never from inside one of its own actions (which the rebuild deletes).
    connect(menu_, &QMenu::aboutToShow, this, &RecentFiles::rebuildMenu);
}

QStringList RecentFiles::files() const { return QSettings().value(kKey).toStringList(); }

void RecentFiles::add(const QString& path) {
    const QString absolute = QFileInfo(path).absoluteFilePath();
    QStringList list = files();
    list.removeAll(absolute);
    list.prepend(absolute);
    while (list.size() > kMax) list.removeLast();
    save(list);
}

void RecentFiles::remove(const QString& path) {
    QStringList list = files();
    if (list.removeAll(QFileInfo(path).absoluteFilePath()) > 0) save(list);
}

void RecentFiles::clear() { save({}); }

void RecentFiles::save(const QStringList& list) { QSettings().setValue(kKey, list); }

void RecentFiles::rebuildMenu() {
    menu_->clear();
    const QStringList list = files();
    for (int i = 0; i < list.size(); ++i) {
        const QString& path = list[i];
        // &1 .. &9 as keyboard accelerators, then plain numbers.
        const QString number = i < 9 ? QStringLiteral("&%1").arg(i + 1) : QString::number(i + 1);
        QAction* action = menu_->addAction(QStringLiteral("%1  %2").arg(number, QFileInfo(path).fileName()));
        action->setToolTip(QDir::toNativeSeparators(path));
        action->setStatusTip(QDir::toNativeSeparators(path));
        connect(action, &QAction::triggered, this, [this, path] { emit openRequested(path); });
    }
    if (!list.isEmpty()) menu_->addSeparator();
    QAction* clear_action = menu_->addAction(tr("&Clear Recent"), this, &RecentFiles::clear);
    clear_action->setEnabled(!list.isEmpty());
}

}  // namespace cvz
