#pragma once
// Where the tests find the CLI and the source tree: the build's paths, unless the environment says
// otherwise (on the GPU machine the programs run from a packed folder, not the build tree).
#include <QString>
#include <QtGlobal>

namespace cvz::test {

inline QString cli_path() {
    const QByteArray env = qgetenv("CUDAVIZ_CLI");
    return env.isEmpty() ? QStringLiteral(CUDAVIZ_CLI_PATH) : QString::fromLocal8Bit(env);
}

inline QString source_dir() {
    const QByteArray env = qgetenv("CUDAVIZ_SOURCE_DIR");
    return env.isEmpty() ? QStringLiteral(CUDAVIZ_SOURCE_DIR) : QString::fromLocal8Bit(env);
}

}  // namespace cvz::test
