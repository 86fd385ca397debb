// cudaviz: the GUI. `cudaviz [FILE] [--raster]`.
#include <QApplication>
#include <QCommandLineParser>

#include "ui/views/display_path.h"
#include "ui/windows/main_window.h"

int main(int argc, char* argv[]) {
    // Views may be reparented or live in several windows; shared contexts keep their GL resources valid.
    QCoreApplication::setAttribute(Qt::AA_ShareOpenGLContexts);
    QApplication app(argc, argv);
    QCoreApplication::setOrganizationName(QStringLiteral("cudaviz"));
    QCoreApplication::setApplicationName(QStringLiteral("cudaviz"));
    QCoreApplication::setApplicationVersion(QStringLiteral(CUDAVIZ_VERSION));
    QGuiApplication::setApplicationDisplayName(QStringLiteral("cudaviz"));

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("See CUDA's execution model: an RGB to grayscale kernel on the GPU or a CPU emulator."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("FILE"), QStringLiteral("Image to open (default: the bundled sample)."),
                                 QStringLiteral("[FILE]"));
    const QCommandLineOption raster(QStringLiteral("raster"),
                                    QStringLiteral("Draw without OpenGL (also: CUDAVIZ_RASTER=1)."));
    parser.addOption(raster);
    parser.process(app);

    const QStringList files = parser.positionalArguments();
    cvz::MainWindow window(cvz::choose_display_path(parser.isSet(raster)), files.value(0));
    window.show();
    return app.exec();
}
