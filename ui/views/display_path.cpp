#include "ui/views/display_path.h"

#include <QOffscreenSurface>
#include <QOpenGLContext>
#include <QOpenGLFunctions>

namespace cvz {

DisplayPathChoice choose_display_path(bool force_raster) {
    if (force_raster) return {DisplayPath::Raster, QStringLiteral("forced by --raster")};
    if (qEnvironmentVariableIntValue("CUDAVIZ_RASTER") == 1)
        return {DisplayPath::Raster, QStringLiteral("forced by CUDAVIZ_RASTER=1")};

    QOpenGLContext context;
    if (!context.create()) return {DisplayPath::Raster, QStringLiteral("no OpenGL context could be created")};
    QOffscreenSurface surface;
    surface.setFormat(context.format());
    surface.create();
    if (!surface.isValid()) return {DisplayPath::Raster, QStringLiteral("no offscreen surface for OpenGL")};
    if (!context.makeCurrent(&surface))
        return {DisplayPath::Raster, QStringLiteral("the OpenGL context could not be made current")};

    const QSurfaceFormat format = context.format();
    // The views need GLSL 1.10 / ES 2 shaders and non-power-of-two textures: OpenGL 2.0 or ES 2.0.
    if (format.majorVersion() < 2) {
        context.doneCurrent();
        return {DisplayPath::Raster,
                QStringLiteral("OpenGL %1.%2 is too old (2.0 needed)").arg(format.majorVersion()).arg(format.minorVersion())};
    }
    const auto* renderer = reinterpret_cast<const char*>(context.functions()->glGetString(GL_RENDERER));
    const QString text = QStringLiteral("%1 %2.%3, %4")
                             .arg(context.isOpenGLES() ? QStringLiteral("OpenGL ES") : QStringLiteral("OpenGL"))
                             .arg(format.majorVersion())
                             .arg(format.minorVersion())
                             .arg(renderer ? QString::fromLatin1(renderer) : QStringLiteral("unknown renderer"));
    context.doneCurrent();
    return {DisplayPath::OpenGL, text};
}

QString to_string(DisplayPath path) {
    return path == DisplayPath::OpenGL ? QStringLiteral("OpenGL") : QStringLiteral("raster fallback");
}

}  // namespace cvz
