#pragma once
#include <QString>
#include <QStringList>

#include "kernels/core/kernel_variant.h"

namespace cvz {

// The lecture's kernels as a learner types them (resources/kernels/*.cu), embedded in the app, where
// File > New Kernel starts. A family's are the files named after it ("<family>.cu",
// "<family>_<variant>.cu", the family's registered name), so a new family's lecture kernel is one
// file and no code; the first by name is the lecture's first (grayscale_1d before grayscale_2d).
struct LectureKernel {
    QString name;   // the file's base name: "grayscale_1d"
    QString text;
    QString error;  // why there is none
};

// Resource paths (":/resources/kernels/NAME.cu"), by name.
QStringList lecture_kernel_files();
QStringList lecture_kernel_files(KernelFamily family);
LectureKernel lecture_kernel_for(KernelFamily family);
// The kernel of one of those files.
LectureKernel lecture_kernel(const QString& resource_path);

}  // namespace cvz
