#pragma once
// `cudaviz-cli lessons [--json]` and `cudaviz-cli lesson check ID (--kernel-file FILE | --answer TEXT)`
// (issue 28): the guided path's steps, and a step's check from a terminal.
#include <QStringList>
#include <QTextStream>

namespace cvz::cli {

int run_lessons_command(const QStringList& arguments, QTextStream& out, QTextStream& err);
int run_lesson_command(const QStringList& arguments, QTextStream& out, QTextStream& err);

}  // namespace cvz::cli
