#pragma once
#include <QString>

namespace cvz {

// How the views reach the screen (ARCHITECTURE.md, invariant 4). Decided once at startup.
enum class DisplayPath { OpenGL, Raster };

struct DisplayPathChoice {
    DisplayPath path = DisplayPath::Raster;
    QString reason;  // why raster, or the GL renderer in use
};

// OpenGL when a context can be created and made current on an offscreen surface, unless raster
// is forced (`force_raster`, the --raster flag, or the environment variable CUDAVIZ_RASTER=1).
// Needs a QGuiApplication.
DisplayPathChoice choose_display_path(bool force_raster);

QString to_string(DisplayPath path);  // "OpenGL" | "raster fallback"

}  // namespace cvz
