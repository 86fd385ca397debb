// The source view, headless under Xvfb: the text shown is the kernel's file as compiled (embedded from
// kernels/, compared with the file on disk); every access site the trace records for every catalogue
// kernel is a line of an embedded file that loads or stores; the launch line has the launch's real
// numbers; and in the window the view highlights the lines of the picked warp's requests and of the
// matmul animation's step, with per-line figures that agree with the launch plan.
#include <QtTest>

#include <QAction>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QPlainTextEdit>
#include <QTextBlock>

#include "support/window_waits.h"
#include "app/grayscale/grayscale_session.h"
#include "app/matmul/matmul_session.h"
#include "app/io/matrix_generator.h"
#include "app/trace/memory_trace_session.h"
#include "kernels/catalogue/gpu_counter_notes.h"
#include "kernels/catalogue/kernel_catalogue.h"
#include "kernels/grayscale/grayscale_variants.h"
#include "kernels/matmul/matmul_launch.h"
#include "kernels/matmul/matmul_variants.h"
#include "kernels/grayscale/grayscale_trace.h"
#include "kernels/matmul/matmul_trace.h"
#include "tests/support/main_window_fixtures.h"
#include "tests/test_paths.h"
#include "ui/pages/grayscale/image_page.h"
#include "ui/pages/matmul/matmul_page.h"
#include "app/grayscale/grayscale_choice.h"
#include "app/matmul/matmul_choice.h"
#include "ui/panels/launch_panel.h"
#include "ui/panels/timeline_bar.h"
#include "ui/views/kernel_sources.h"
#include "ui/views/memory_view.h"
#include "ui/views/source_view.h"
#include "ui/views/trace_presentation.h"
#include "ui/windows/main_window.h"

using namespace cvz;

namespace {

constexpr int kTimeoutMs = 60000;

QString disk_text(const QString& path) {
    QFile f(test::source_dir() + QLatin1Char('/') + path);
    if (!f.open(QIODevice::ReadOnly)) return QString();
    return QString::fromUtf8(f.readAll());
}

// 1-based numbers of the lines of `path` (on disk) that contain `needle`.
QList<int> lines_with(const QString& path, const QString& needle) {
    QList<int> out;
    const QStringList lines = disk_text(path).split(QLatin1Char('\n'));
    for (int i = 0; i < lines.size(); ++i)
        if (lines[i].contains(needle)) out << i + 1;
    return out;
}

// Every site of a trace: an embedded file whose line loads or stores through the context.
void check_sites(const MemoryTrace& trace, const QString& kernel) {
    QVERIFY2(!trace.sites.empty(), qPrintable(kernel));
    for (const TraceSite& site : trace.sites) {
        const QString file = QDir::cleanPath(QString::fromStdString(site.where.file));
        QString text, error;
        QVERIFY2(embedded_kernel_source(file, &text, &error), qPrintable(kernel + QStringLiteral(": ") + error));
        const QString line = text.split(QLatin1Char('\n')).value(int(site.where.line) - 1);
        QVERIFY2(line.contains(QStringLiteral("load(")) || line.contains(QStringLiteral("store(")),
                 qPrintable(QStringLiteral("%1: %2:%3 is '%4'").arg(kernel, file).arg(site.where.line).arg(line)));
    }
}

}  // namespace

class TestSourceView : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void embedded_sources_are_the_files_on_disk();
    void every_catalogue_site_is_a_load_or_store_line();
    void launch_line_has_the_launch_numbers();
    void view_shows_file_highlights_and_margin();
    void emulator_loop_is_offered_beside_the_kernel();
    void missing_file_is_a_message();
    void every_catalogue_kernel_has_its_gpu_note();
    void image_page_source_follows_picked_warp();
    void matmul_steps_highlight_their_lines_and_caption_from_trace();
};

void TestSourceView::initTestCase() {
    QStandardPaths::setTestModeEnabled(true);  // QSettings go to a test location, not the user's
    QCoreApplication::setOrganizationName(QStringLiteral("cudaviz"));
    QCoreApplication::setApplicationName(QStringLiteral("cudaviz-source-view-test"));
    QSettings().clear();
}

void TestSourceView::embedded_sources_are_the_files_on_disk() {
    const QStringList paths = embedded_kernel_sources();
    QVERIFY(paths.contains(QStringLiteral("kernels/grayscale/grayscale_body.h")));
    QVERIFY(paths.contains(QStringLiteral("kernels/matmul/matmul_body.h")));
    for (const QString& path : paths) {
        QString text;
        QVERIFY(embedded_kernel_source(path, &text));
        QCOMPARE(text, disk_text(path));
    }
}

void TestSourceView::every_catalogue_site_is_a_load_or_store_line() {
    for (const KernelRef& ref : compiled_kernels()) {
        const KernelInfo* info = kernel_info(ref);
        QVERIFY(info);
        const QString name = QString::fromStdString(to_string(ref));
        if (ref.family == KernelFamily::Grayscale) {
            const Dim3 block = info->block == BlockRule::OneD ? Dim3{256, 1, 1} : info->block == BlockRule::Fixed ? info->fixed_block : Dim3{16, 16, 1};
            for (PixelLayout layout : {PixelLayout::Interleaved, PixelLayout::Planar}) {
                const TraceResult r = trace_grayscale(nullptr, 97, 33, layout, LaunchShape::of(GrayscaleVariant(ref.variant), block));
                QVERIFY2(r.status.is_ok(), r.status.message().c_str());
                check_sites(r.trace, name);
            }
        } else {
            const TraceResult r = trace_matmul(nullptr, nullptr, 97, 33, 61, MatmulLaunch::of(MatmulVariant(ref.variant), Dim3{16, 16, 1}, ref.tile ? ref.tile : 16));
            QVERIFY2(r.status.is_ok(), r.status.message().c_str());
            check_sites(r.trace, name);
        }
    }
}

void TestSourceView::launch_line_has_the_launch_numbers() {
    QCOMPARE(launch_line(QStringLiteral("gray_2d"), Dim3{29, 19, 1}, Dim3{16, 16, 1}),
             QStringLiteral("gray_2d<<<dim3(29,19), dim3(16,16)>>>"));
    QCOMPARE(launch_line(QStringLiteral("gray_1d"), Dim3{529, 1, 1}, Dim3{256, 1, 1}), QStringLiteral("gray_1d<<<529, 256>>>"));
    QCOMPARE(launch_line(QStringLiteral("matmul_tiled<16>"), Dim3{2, 3, 1}, Dim3{16, 16, 1}, 2048),
             QStringLiteral("matmul_tiled<16><<<dim3(2,3), dim3(16,16), 2048>>>"));
}

void TestSourceView::view_shows_file_highlights_and_margin() {
    SourceView view;
    view.resize(900, 500);
    view.show();
    QVERIFY(cvz::test::wait_exposed(&view));
    const QString path = QStringLiteral("kernels/grayscale/grayscale_body.h");
    const QList<int> loads = lines_with(path, QStringLiteral("ctx.load(im.rgb"));
    QCOMPARE(loads.size(), 3);
    view.setColumns(line_figure_columns(), line_figure_tips());
    view.setFiles({path});
    QCOMPARE(view.file(), path);
    QCOMPARE(view.text(), disk_text(path));
    QCOMPARE(view.lineText(loads[0]), disk_text(path).split(QLatin1Char('\n'))[loads[0] - 1]);

    SourceLineFigures f;
    f.line = loads[1];
    f.cells = QStringList{QStringLiteral("7"), QStringLiteral("21"), QStringLiteral("3.0"), QStringLiteral("1.0"), QString(), QString()};
    f.excess = true;
    view.setFigures(path, {f});
    QCOMPARE(view.marginCells(loads[1]), f.cells);
    QVERIFY(view.marginCells(loads[0]).isEmpty());

    view.setCurrentLines(path, {loads[0], loads[2]});
    QCOMPARE(view.currentLines(), (QList<int>{loads[0], loads[2]}));
    auto* editor = view.findChild<QPlainTextEdit*>(QStringLiteral("sourceText"));
    QVERIFY(editor);
    QList<int> highlighted;
    for (const QTextEdit::ExtraSelection& s : editor->extraSelections()) highlighted << s.cursor.blockNumber() + 1;
    QCOMPARE(highlighted, (QList<int>{loads[0], loads[2]}));
    // The highlighted line is on screen, painted in the highlight colour beside its text.
    const QRect line_rect = editor->cursorRect(QTextCursor(editor->document()->findBlockByNumber(loads[0] - 1)));
    QVERIFY(editor->viewport()->rect().contains(line_rect.center()));
    const QImage image = view.grab().toImage();
    // In the line's indentation, where no glyph covers the highlight.
    const QPoint right = editor->viewport()->mapTo(&view, QPoint(12, line_rect.center().y()));
    QCOMPARE(QColor(image.pixel(int(right.x() * image.devicePixelRatio()), int(right.y() * image.devicePixelRatio()))),
             QColor(255, 236, 140));
    view.setCurrentLines(QString(), {});
    QVERIFY(editor->extraSelections().isEmpty());
}

// The lecture's blk_kernel, as the emulator writes it: the chooser's last entry after the kernel's
// files; choosing it shows the embedded emulate.h with the block and thread loops that call the body.
void TestSourceView::emulator_loop_is_offered_beside_the_kernel() {
    SourceView view;
    view.resize(900, 500);
    view.show();
    QVERIFY(cvz::test::wait_exposed(&view));
    const QString kernel = QStringLiteral("kernels/grayscale/grayscale_body.h");
    view.setFiles({kernel});
    QCOMPARE(view.files(), QStringList{kernel});
    QCOMPARE(view.file(), kernel);
    auto* box = view.findChild<QComboBox*>(QStringLiteral("sourceFile"));
    QVERIFY(box);
    QCOMPARE(box->count(), 2);
    QCOMPARE(box->itemText(1), SourceView::emulatorLoopFile());
    box->setCurrentIndex(1);
    emit box->activated(1);  // as a user's choice
    QCOMPARE(view.file(), SourceView::emulatorLoopFile());
    QCOMPARE(view.text(), disk_text(SourceView::emulatorLoopFile()));
    const QList<int> loop = view.currentLines();
    QVERIFY(loop.size() >= 5);
    QVERIFY(view.lineText(loop.first()).contains(QStringLiteral("for (std::uint64_t b = first; b < last; ++b)")));
    QVERIFY(view.lineText(loop.last()).contains(QStringLiteral("body(")));
    bool thread_loop = false;
    for (int line : loop) thread_loop |= view.lineText(line).contains(QStringLiteral("for (unsigned x = 0; x < block.x; ++x)"));
    QVERIFY(thread_loop);
    // New files for the next launch keep the loop on screen; choosing the kernel's file goes back.
    view.setFiles({kernel});
    QCOMPARE(view.file(), SourceView::emulatorLoopFile());
    QCOMPARE(box->currentIndex(), 1);
    QVERIFY(view.showFile(kernel));
    QCOMPARE(box->currentIndex(), 0);
}

// Each catalogue kernel was measured under Nsight Compute (bench/ncu_compare): a new variant needs its
// note, which says whether the hardware's figures equal the trace's and why not.
void TestSourceView::every_catalogue_kernel_has_its_gpu_note() {
    for (const KernelInfo& k : kernel_catalogue()) QVERIFY2(!gpu_counter_note(k.name).empty(), k.name.c_str());
    QVERIFY(gpu_counter_note("no_such_kernel").empty());
}

void TestSourceView::missing_file_is_a_message() {
    SourceView view;
    QVERIFY(!view.showFile(QStringLiteral("kernels/nowhere/none.h")));
    QVERIFY(view.text().contains(QStringLiteral("kernels/nowhere/none.h")));
}

// The sample photo (451 x 300) at 2-D 16 x 16: the issue's own example of a launch line.
void TestSourceView::image_page_source_follows_picked_warp() {
    MainWindow w(choose_display_path(false));
    QVERIFY(test::show_and_wait(w, QSize(1400, 900), kTimeoutMs));
    w.launchPanel()->setChoice(grayscale_choice(LaunchShape::two_d(16, 16)));
    QTRY_VERIFY_WITH_TIMEOUT(w.page<ImagePage>()->session()->resultShape() == LaunchShape::two_d(16, 16) && !w.page<ImagePage>()->session()->running(), kTimeoutMs);
    w.findChild<QAction*>(QStringLiteral("showSourceAction"))->trigger();
    auto* source = w.findChild<SourceView*>(QStringLiteral("sourceView"));
    QVERIFY(source && source->isVisible());
    MemoryTraceSession* trace = w.page<ImagePage>()->traceSession();
    QTRY_VERIFY_WITH_TIMEOUT(trace->trace() && !trace->tracing(), kTimeoutMs);
    QCOMPARE(source->launchLine(), QStringLiteral("gray_2d<<<dim3(29,19), dim3(16,16)>>>"));
    QVERIFY2(source->gpuNote().contains(QStringLiteral("same ten figures")), qPrintable(source->gpuNote()));
    const QString body = QStringLiteral("kernels/grayscale/grayscale_body.h");
    QCOMPARE(source->file(), body);
    QCOMPARE(source->text(), disk_text(body));
    // Every warp with an active lane makes one request per load: the plan's warps less its idle ones.
    const LaunchPlan& plan = w.page<ImagePage>()->session()->plan();
    const QList<int> loads = lines_with(body, QStringLiteral("ctx.load(im.rgb"));
    for (int line : loads) QCOMPARE(source->marginCells(line).value(0), QLocale().toString(qulonglong(plan.total_warps - plan.idle_warps)));

    // A clicked pixel picks its warp: the lines of its lane's requests light up, the memory view draws them.
    test::image_page(w)->inspectPixel(QPoint(200, 120), true);
    QTRY_VERIFY_WITH_TIMEOUT(trace->warpTraced(), kTimeoutMs);
    QList<int> expected = loads;
    expected << lines_with(body, QStringLiteral("ctx.store(im.gray")).value(0);
    QCOMPARE(source->currentLines(), expected);
    auto* memory = w.findChild<MemoryView*>(QStringLiteral("memoryView"));
    QCOMPARE(memory->requests().size(), qsizetype(4));
    const ThreadOfPixel t = plan.thread_of_pixel(200, 120);
    QCOMPARE(trace->block(), t.linear_block);
    QCOMPARE(trace->warp(), std::uint32_t(t.warp));
    QVERIFY(memory->title().contains(QStringLiteral("lane %1").arg(t.lane)));
}

// Tiled TILE = 8 on 37 x 70 @ 70 x 29: the load step lights the two staging lines, the multiply step
// the line of the shared loads, and the caption names those lines as the trace records them.
void TestSourceView::matmul_steps_highlight_their_lines_and_caption_from_trace() {
    MainWindow w(choose_display_path(false));
    QVERIFY(test::show_and_wait(w, QSize(1400, 900), kTimeoutMs));
    w.tabs()->setCurrentWidget(w.page<MatmulPage>());
    MatmulPage* page = w.page<MatmulPage>();
    page->setMatrices(random_matrix(37, 70, 11), random_matrix(70, 29, 12));
    w.launchPanel()->setChoice(matmul_choice(MatmulLaunch::tiled(8)));
    QTRY_VERIFY_WITH_TIMEOUT(page->session()->c() && page->resultLaunch().kernel == MatmulVariant::Tiled && !page->running(), kTimeoutMs);
    w.findChild<QAction*>(QStringLiteral("showSourceAction"))->trigger();
    auto* source = w.findChild<SourceView*>(QStringLiteral("sourceView"));
    page->selectElement(20, 21);  // block (2, 2), thread (5, 4): warp 1
    page->setAnimationPosition(0);
    MemoryTraceSession* trace = page->traceSession();
    QTRY_VERIFY_WITH_TIMEOUT(trace->warpTraced() && !trace->tracing(), kTimeoutMs);
    QCOMPARE(source->launchLine(), QStringLiteral("matmul_tiled<8><<<dim3(4,5), dim3(8,8), 512>>>"));
    // The compiler's 128-bit shared loads, as Nsight Compute measured them, beside the per-access figures.
    QVERIFY2(source->gpuNote().contains(QStringLiteral("128-bit")), qPrintable(source->gpuNote()));
    const QString body = QStringLiteral("kernels/matmul/matmul_body.h");
    const int store_a = lines_with(body, QStringLiteral("ctx.store(as + ty * TILE + tx")).value(0);
    const int store_b = lines_with(body, QStringLiteral("ctx.store(bs + ty * TILE + tx")).value(0);
    const int multiply = lines_with(body, QStringLiteral("ctx.load(as + ty * TILE + i)")).value(0);
    QCOMPARE(source->file(), body);
    QCOMPARE(source->currentLines(), (QList<int>{store_a, store_b}));
    QVERIFY(page->animationCaption().contains(QStringLiteral("line %1: load A → store shared memory").arg(store_a)));
    QVERIFY(page->animationCaption().contains(QStringLiteral("line %1: load B → store shared memory").arg(store_b)));
    page->setAnimationPosition(1);  // __syncthreads(), multiply
    QCOMPARE(source->currentLines(), (QList<int>{multiply}));
    QVERIFY(page->animationCaption().contains(QStringLiteral("line %1: load shared memory").arg(multiply)));
    QCOMPARE(page->stepRequests().size(), std::size_t(16));  // TILE iterations, two loads each
}

QTEST_MAIN(TestSourceView)
#include "tst_source_view.moc"
