#pragma once
#include <QObject>
#include <QStringList>

class QMenu;

namespace cvz {

// File > Open Recent: the last opened files, newest first, kept in QSettings ("recentFiles").
class RecentFiles : public QObject {
    Q_OBJECT
public:
    static constexpr int kMax = 10;

    // Fills `menu` (owned by the caller) each time it is about to show.
    RecentFiles(QMenu* menu, QObject* parent = nullptr);

    QStringList files() const;
    void add(const QString& path);     // moves it to the top
    void remove(const QString& path);  // e.g. after it failed to open
    void clear();
    void rebuildMenu();

signals:
    void openRequested(const QString& path);

private:
    void save(const QStringList& files);

    QMenu* menu_;
};

}  // namespace cvz
