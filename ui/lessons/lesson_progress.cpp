#include "ui/lessons/lesson_progress.h"

#include <QSettings>

namespace cvz {

namespace {
const char kGroup[] = "lessons";
}

QString LessonProgress::key(const QString& step, const char* what) {
    // A step id is a file's base name; '/' would nest a group, so it is replaced.
    QString id = step;
    id.replace(QLatin1Char('/'), QLatin1Char('_'));
    return QStringLiteral("%1/steps/%2/%3").arg(QLatin1String(kGroup), id, QLatin1String(what));
}

LessonProgress::Mark LessonProgress::mark(const QString& step) const {
    const QString value = QSettings().value(key(step, "mark")).toString();
    if (value == QLatin1String("passed")) return Mark::Passed;
    if (value == QLatin1String("tried")) return Mark::Tried;
    return Mark::New;
}

int LessonProgress::failures(const QString& step) const { return QSettings().value(key(step, "failures"), 0).toInt(); }

void LessonProgress::record(const QString& step, bool passed) {
    QSettings settings;
    if (passed) {
        settings.setValue(key(step, "mark"), QStringLiteral("passed"));
        return;
    }
    settings.setValue(key(step, "failures"), failures(step) + 1);
    if (mark(step) != Mark::Passed) settings.setValue(key(step, "mark"), QStringLiteral("tried"));
}

QString LessonProgress::currentStep() const {
    return QSettings().value(QStringLiteral("%1/current").arg(QLatin1String(kGroup))).toString();
}

void LessonProgress::setCurrentStep(const QString& step) {
    QSettings().setValue(QStringLiteral("%1/current").arg(QLatin1String(kGroup)), step);
}

void LessonProgress::reset() {
    QSettings settings;
    settings.remove(QStringLiteral("%1/steps").arg(QLatin1String(kGroup)));
}

}  // namespace cvz
