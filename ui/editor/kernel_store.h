#pragma once
#include <QObject>
#include <QString>
#include <QStringList>

namespace cvz {

// The user's kernels on disk: the .cu files of one folder (by default the app's data folder,
// QStandardPaths::AppDataLocation/kernels), listed again at every start, read and written whole and
// atomically (QSaveFile: a crash mid-write leaves the old file). Also the editor's autosave: the text
// not yet saved, with the file it belongs to, kept in the same folder so that it outlives a crash of
// the app or of the kernel and is offered again at the next start. Qt Core only.
class KernelStore : public QObject {
    Q_OBJECT
public:
    // `folder` empty: defaultFolder().
    explicit KernelStore(const QString& folder = QString(), QObject* parent = nullptr);

    static QString defaultFolder();
    QString folder() const { return folder_; }
    // Makes the folder; false and a message naming it when it cannot be made.
    bool ensureFolder(QString* error = nullptr) const;

    // The kernels kept in the folder (absolute paths of its *.cu files), by name.
    QStringList kernels() const;
    // A path in the folder for a new kernel named after `base` ("grayscale_1d" -> ".../grayscale_1d.cu",
    // or "grayscale_1d-2.cu" when that is taken).
    QString freePath(const QString& base) const;

    // Whole-file reads and writes; false and a message naming the file and the problem.
    static bool read(const QString& path, QString* text, QString* error);
    bool write(const QString& path, const QString& text, QString* error);

    // The autosave: the unsaved `text` of `file` (empty: a kernel never saved), written atomically.
    bool writeAutosave(const QString& file, const QString& text, QString* error = nullptr);
    // What the last autosave kept; false when there is none (or it cannot be read).
    bool readAutosave(QString* file, QString* text) const;
    void clearAutosave();
    QString autosavePath() const;

    // The file the editor showed last (remembered across starts).
    QString lastFile() const;
    void setLastFile(const QString& path);

    // Which __global__ function of `file` Compile and Run runs, as the editor's chooser last set it (empty:
    // none remembered).
    QString chosenKernel(const QString& file) const;
    void setChosenKernel(const QString& file, const QString& name);

    static constexpr qint64 kMaxBytes = 4 << 20;  // a kernel source larger than this is refused

signals:
    void kernelsChanged();  // a kernel was written into the folder

private:
    QString folder_;
};

}  // namespace cvz
