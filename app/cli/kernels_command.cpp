#include "kernels_command.h"

#include <QCommandLineParser>
#include <QJsonArray>
#include <QJsonObject>

#include <algorithm>

#include "exit_codes.h"
#include "help_text.h"
#include "kernels/catalogue/kernel_catalogue.h"

namespace cvz::cli {

namespace {

QJsonArray strings(const std::vector<std::string>& list) {
    QJsonArray a;
    for (const std::string& s : list) a.append(QString::fromStdString(s));
    return a;
}

QString join(const std::vector<std::string>& list) {
    QStringList l;
    for (const std::string& s : list) l << QString::fromStdString(s);
    return l.join(QStringLiteral(", "));
}

QString tiles_text(const std::vector<unsigned>& tiles) {
    QStringList l;
    for (unsigned t : tiles) l << QString::number(t);
    return l.join(QStringLiteral(", "));
}

// The text form: one block per family, one line per variant, columns aligned.
QString catalogue_text() {
    std::size_t width = 0;
    for (const KernelInfo& k : kernel_catalogue()) width = std::max(width, k.name.size());
    QString text;
    KernelFamily family{};
    bool first = true;
    for (const KernelInfo& k : kernel_catalogue()) {
        if (first || k.family != family) {
            text += QStringLiteral("%1%2:\n").arg(first ? QString() : QStringLiteral("\n"), QString::fromLatin1(to_string(k.family)));
            family = k.family;
            first = false;
        }
        QStringList facts{QStringLiteral("block %1").arg(QString::fromLatin1(to_string(k.block)))};
        if (!k.layouts.empty()) facts << QStringLiteral("layouts %1").arg(join(k.layouts));
        if (!k.tiles.empty())  // a fixed block's list is its own parameter: "split-K slices 0, 1, 2, ..."
            facts << QStringLiteral("%1 %2").arg(k.block == BlockRule::Tile ? QStringLiteral("TILE") : QString::fromStdString(k.label),
                                                 tiles_text(k.tiles));
        facts << (k.exact ? QStringLiteral("exact") : QStringLiteral("not bit-identical"));
        if (k.grid_threads) facts << QStringLiteral("grid of at most %1 threads").arg(qulonglong(k.grid_threads));
        if (k.arch_specific)
            facts << QStringLiteral("GPU: compute capability %1.%2 only").arg(k.arch_specific / 10).arg(k.arch_specific % 10);
        text += QStringLiteral("  %1  %2\n  %3  %4\n")
                    .arg(QString::fromStdString(k.name).leftJustified(int(width)), QString::fromStdString(k.title),
                         QString(int(width), QLatin1Char(' ')), facts.join(QStringLiteral(" · ")));
    }
    return text;
}

}  // namespace

QJsonDocument kernel_catalogue_json() {
    QJsonArray kernels;
    for (const KernelInfo& k : kernel_catalogue()) {
        QJsonObject o;
        o.insert(QStringLiteral("family"), QString::fromLatin1(to_string(k.family)));
        o.insert(QStringLiteral("name"), QString::fromStdString(k.name));
        o.insert(QStringLiteral("title"), QString::fromStdString(k.title));
        o.insert(QStringLiteral("block"), QString::fromLatin1(to_string(k.block)));
        if (!k.layouts.empty()) o.insert(QStringLiteral("layouts"), strings(k.layouts));
        if (!k.tiles.empty()) {
            QJsonArray tiles;
            for (unsigned t : k.tiles) tiles.append(int(t));
            o.insert(QStringLiteral("tiles"), tiles);
        }
        o.insert(QStringLiteral("exact"), k.exact);
        if (k.grid_threads) o.insert(QStringLiteral("grid_threads"), qint64(k.grid_threads));
        if (k.arch_specific) o.insert(QStringLiteral("compute_capability"), QStringLiteral("%1.%2").arg(k.arch_specific / 10).arg(k.arch_specific % 10));
        kernels.append(o);
    }
    QJsonObject root;
    root.insert(QStringLiteral("kernels"), kernels);
    return QJsonDocument(root);
}

int run_kernels_command(const QStringList& arguments, QTextStream& out, QTextStream& err) {
    QCommandLineParser parser;
    const QCommandLineOption help = parser.addHelpOption();
    const QCommandLineOption json{"json", "Print the catalogue as JSON: {\"kernels\": [{\"family\", \"name\", "
                                          "\"title\", \"block\", \"layouts\" (grayscale), \"tiles\" (when the "
                                          "kernel takes a TILE), \"exact\", \"grid_threads\" (a grid capped at that many "
                                          "threads, a grid-stride loop covering the rest), \"compute_capability\" "
                                          "(\"9.0\": the only GPUs that run it; the emulator runs it anywhere)}, ...]}."};
    parser.addOption(json);
    parser.setApplicationDescription(QString("Lists the kernel catalogue: every variant of every kernel family, with "
                                             "the name that\nthe family's command takes as --kernel, its "
                                             "launch rule (block 1d, 2d, tile or fixed),\nthe layouts (grayscale) "
                                             "and tiles it takes, and whether it is bit-identical to its\nfamily's "
                                             "reference variant.\n\n") +
                                     general_exit_code_help());
    parser.addPositionalArgument("kernels", "The command.", "kernels");
    const auto usage = [&err](const QString& message) {
        err << "cudaviz-cli kernels: " << message << "\nTry 'cudaviz-cli kernels --help'.\n";
        return exit_status(ExitCode::BadUsage);
    };
    if (!parser.parse(arguments)) return usage(parser.errorText());
    if (parser.isSet(help)) {
        out << help_text(parser);
        return exit_status(ExitCode::Success);
    }
    if (parser.positionalArguments().size() > 1)
        return usage("unexpected argument '" + parser.positionalArguments().at(1) + "'");
    if (parser.isSet(json))
        out << kernel_catalogue_json().toJson(QJsonDocument::Indented);
    else
        out << catalogue_text();
    return exit_status(ExitCode::Success);
}

}  // namespace cvz::cli
