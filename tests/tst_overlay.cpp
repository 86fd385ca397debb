// The launch overlay on screen, under Xvfb with Mesa (real OpenGL, in software): the fragment
// shader's colours, boundaries and idle-thread hatch at known image positions, checked against
// LaunchPlan::thread_of_pixel (the kernels' own index functions) and the colour functions the SM
// panel and legend use; the integer and float index paths of the shader; and the raster
// fallback's CPU drawing of the same picture.
#include <QtTest>

#include <cmath>
#include <memory>

#include "support/window_waits.h"
#include "app/models/launch_plan.h"
#include "app/models/overlay_geometry.h"
#include "app/grayscale/pixel_inspection.h"
#include "app/models/unit_extent.h"
#include "ui/views/block_colors.h"
#include "ui/views/image_surface.h"
#include "ui/views/image_view.h"
#include "ui/panels/inspector_panel.h"
#include "ui/views/overlay_state.h"
#include "ui/views/raster_image_view.h"
#include "ui/views/view_transform.h"

using namespace cvz;

Q_DECLARE_METATYPE(cvz::LaunchShape)
Q_DECLARE_METATYPE(cvz::OverlayColoring)

namespace {

constexpr int kZoom = 8;  // device pixels per image pixel: lines at full strength, centres clear of them
const QSize kViewSize(640, 480);

QImage make_test_image(int width, int height) {
    QImage image(width, height, QImage::Format_RGB888);
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x)
            image.setPixel(x, y, qRgb(x * 255 / (width - 1), y * 255 / (height - 1), (x * 7 + y * 13) % 256));
    return image;
}

struct Rgbf {
    double r, g, b;
};
Rgbf rgbf(const QColor& c) { return {c.redF(), c.greenF(), c.blueF()}; }
Rgbf mix(Rgbf a, Rgbf b, double t) { return {a.r + (b.r - a.r) * t, a.g + (b.g - a.g) * t, a.b + (b.b - a.b) * t}; }
Rgbf scaled(Rgbf a, double f) { return {a.r * f, a.g * f, a.b * f}; }

bool near(QRgb got, Rgbf want, int tolerance) {
    return std::abs(qRed(got) - int(std::lround(want.r * 255))) <= tolerance &&
           std::abs(qGreen(got) - int(std::lround(want.g * 255))) <= tolerance &&
           std::abs(qBlue(got) - int(std::lround(want.b * 255))) <= tolerance;
}

QString hex(QRgb c) { return QStringLiteral("#%1").arg(c & 0xFFFFFF, 6, 16, QLatin1Char('0')); }
QString hex(Rgbf c) { return hex(qRgb(int(std::lround(c.r * 255)), int(std::lround(c.g * 255)), int(std::lround(c.b * 255)))); }

// The colour the overlay gives a cell in `coloring` (the legend's and the SM panel's functions).
Rgbf cell_color(const LaunchPlan& plan, const GridCell& cell, OverlayColoring coloring) {
    const ThreadOfPixel& t = cell.thread;
    switch (coloring) {
        case OverlayColoring::Thread: return rgbf(color_for_thread(t.linear_thread, plan.threads_per_block));
        case OverlayColoring::Warp: return rgbf(color_for_warp(t.linear_block, t.warp, plan.warps_per_block));
        case OverlayColoring::None: return {0.6, 0.6, 0.6};
        case OverlayColoring::Block: break;
    }
    return rgbf(color_for_id(t.linear_block));
}

// A view of a known size showing `image` at kZoom with the grid's extent centred.
class Rig {
public:
    Rig(bool raster, bool float_math) {
        if (float_math) qputenv("CUDAVIZ_OVERLAY_FLOAT_MATH", "1");
        if (raster) {
            auto* v = new RasterImageView(&transform_);
            view_.reset(v);
            surface_ = v;
        } else {
            auto* v = new ImageView(&transform_);
            view_.reset(v);
            surface_ = v;
        }
        view_->resize(kViewSize);
        view_->show();
        exposed_ = cvz::test::wait_exposed(view_.get());
        QCoreApplication::processEvents();
        if (!raster) static_cast<ImageView*>(surface_)->grabFramebuffer();  // runs initializeGL now
        qunsetenv("CUDAVIZ_OVERLAY_FLOAT_MATH");
    }
    bool exposed() const { return exposed_; }
    ImageSurface* surface() const { return surface_; }
    ImageView* gl() const { return qobject_cast<ImageView*>(view_.get()); }

    void show(const QImage& image, const OverlayState& state, double zoom = kZoom) {
        surface_->setImage(image);
        transform_.setImageSize(image.size());
        transform_.setZoom(zoom);
        const QSize extent = state.extent();
        transform_.setCenter(QPointF(extent.width() / 2.0, extent.height() / 2.0));
        surface_->setOverlay(state);
        shot_ = surface_->grabImage();
        dpr_ = view_->devicePixelRatioF();
    }
    // The device pixel at offset (dx, dy) device pixels from the top-left corner of image cell (x, y).
    QRgb at(int x, int y, int dx, int dy) const {
        const QPointF w = surface_->imageToWidget(QPointF(x, y)) * dpr_;
        return shot_.pixel(int(std::lround(w.x())) + dx, int(std::lround(w.y())) + dy);
    }
    QRgb centre(int x, int y) const { return at(x, y, kZoom / 2, kZoom / 2); }
    const QImage& shot() const { return shot_; }
    qreal dpr() const { return dpr_; }

private:
    ViewTransform transform_;
    std::unique_ptr<QWidget> view_;
    ImageSurface* surface_ = nullptr;
    QImage shot_;
    qreal dpr_ = 1;
    bool exposed_ = false;
};

OverlayState full_overlay(const LaunchShape& shape, QSize size, OverlayColoring coloring) {
    OverlayState s;
    s.enabled = true;
    s.plan = plan_grayscale_launch(shape, std::uint32_t(size.width()), std::uint32_t(size.height()));
    s.coloring = coloring;
    s.opacity = 1.0;  // the cell colour alone: no blending with the image to undo
    s.show_idle = true;
    return s;
}

}  // namespace

class TestOverlay : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();

    void cells_have_their_threads_colour_data();
    void cells_have_their_threads_colour();
    void boundaries_where_blocks_meet_data();
    void boundaries_where_blocks_meet();
    void idle_threads_hatched_past_the_image_data();
    void idle_threads_hatched_past_the_image();
    void opacity_blends_with_the_image();
    void warp_boundaries_inside_a_block();
    void selection_outlines_block_and_pixel();
    void hover_outlines_block_lighter();
    void merged_lines_between_block_groups_data();
    void merged_lines_between_block_groups();
    void line_merge_keeps_lines_apart();
    void overlay_off_draws_the_plain_image();
    void overlay_off_still_marks_the_pinned_pixel();
    void integer_math_exact_past_2_to_the_24();
    void grid_in_waves_covers_the_image_in_passes();
    void extent_and_cells_data();
    void extent_and_cells();
    void inspector_shows_grid_stride_pass();
    void focus_ring_only_where_running_units_are_small();
    void focus_ring_drawn_around_the_running_warp();

private:
    void add_shape_rows();
    bool gl_ = false;
    QString gl_reason_;
};

void TestOverlay::initTestCase() {
    // Probe once: without OpenGL (no GLX on this display) the GL rows skip; the raster rows run.
    ViewTransform t;
    ImageView probe(&t);
    probe.resize(64, 64);
    probe.show();
    if (cvz::test::wait_exposed(&probe)) {
        probe.grabFramebuffer();
        gl_ = probe.context() && probe.context()->isValid();
        qInfo("renderer: %s, index math: %s", qPrintable(probe.renderer()), probe.integerIndexMath() ? "int" : "float");
    }
}

// Each row: a launch shape on a 37x23 image (odd, non-square) and a colouring, drawn by the GL view
// with integer index math, with the float fallback, and by the raster view.
void TestOverlay::add_shape_rows() {
    QTest::addColumn<LaunchShape>("shape");
    QTest::addColumn<OverlayColoring>("coloring");
    QTest::addColumn<int>("path");  // 0 GL int, 1 GL float, 2 raster

    struct Case {
        const char* name;
        LaunchShape shape;
        OverlayColoring coloring;
    };
    const Case cases[] = {
        {"1-D 256, blocks", LaunchShape::one_d(256), OverlayColoring::Block},
        {"1-D 100 staircase, blocks", LaunchShape::one_d(100), OverlayColoring::Block},
        {"1-D 1024 idle rows, blocks", LaunchShape::one_d(1024), OverlayColoring::Block},
        {"1-D 33, warps", LaunchShape::one_d(33), OverlayColoring::Warp},
        {"2-D 16x16, blocks", LaunchShape::two_d(16, 16), OverlayColoring::Block},
        {"2-D 5x3, blocks", LaunchShape::two_d(5, 3), OverlayColoring::Block},
        {"2-D 8x32, threads", LaunchShape::two_d(8, 32), OverlayColoring::Thread},
        {"2-D 8x8, warps", LaunchShape::two_d(8, 8), OverlayColoring::Warp},
        {"2-D 32x8, none", LaunchShape::two_d(32, 8), OverlayColoring::None},
    };
    const char* paths[] = {"GL int", "GL float", "raster"};
    for (const Case& c : cases)
        for (int path = 0; path < 3; ++path)
            QTest::newRow(qPrintable(QStringLiteral("%1 (%2)").arg(QLatin1String(c.name), QLatin1String(paths[path]))))
                << c.shape << c.coloring << path;
}

void TestOverlay::cells_have_their_threads_colour_data() { add_shape_rows(); }

void TestOverlay::cells_have_their_threads_colour() {
    QFETCH(LaunchShape, shape);
    QFETCH(OverlayColoring, coloring);
    QFETCH(int, path);
    if (path < 2 && !gl_) QSKIP("no OpenGL here");
    const QImage image = make_test_image(37, 23);
    Rig rig(path == 2, path == 1);
    QVERIFY(rig.exposed());
    if (path == 0) QVERIFY2(rig.gl()->integerIndexMath(), "GLSL 1.30 expected on Mesa");
    if (path == 1) QVERIFY(!rig.gl()->integerIndexMath());
    const OverlayState state = full_overlay(shape, image.size(), coloring);
    rig.show(image, state);

    // Every cell of the extent, at its centre: image cells in the thread's colour (or the image
    // itself when uncoloured), idle cells in one of the hatch's two colours, cells past a 1-D grid
    // in the background.
    const QSize extent = state.extent();
    int checked = 0;
    for (int y = 0; y < extent.height(); ++y)
        for (int x = 0; x < extent.width(); ++x) {
            const GridCell cell = grid_cell(state.plan, x, y);
            const QRgb got = rig.centre(x, y);
            if (!cell.in_grid) {
                QVERIFY2(near(got, rgbf(overlay_style::kBackground), 1), qPrintable(QStringLiteral("(%1,%2) %3").arg(x).arg(y).arg(hex(got))));
                continue;
            }
            const Rgbf want = cell.inside ? (coloring == OverlayColoring::None ? rgbf(QColor(image.pixel(x, y)))
                                                                               : cell_color(state.plan, cell, coloring))
                                          : scaled(cell_color(state.plan, cell, coloring), overlay_style::kHatchShade);
            const bool ok = near(got, want, 2) || (!cell.inside && near(got, rgbf(overlay_style::kHatchDark), 1));
            QVERIFY2(ok, qPrintable(QStringLiteral("cell (%1,%2) block %3 thread %4: got %5, want %6")
                                        .arg(x)
                                        .arg(y)
                                        .arg(cell.thread.linear_block)
                                        .arg(cell.thread.linear_thread)
                                        .arg(hex(got), hex(want))));
            ++checked;
        }
    QVERIFY(checked >= 37 * 23);
}

void TestOverlay::boundaries_where_blocks_meet_data() { add_shape_rows(); }

// A cell's left (top) device-pixel column (row) is a line exactly where the cell to its left
// (above) belongs to another block: straight lines in 2-D, a staircase in 1-D. Where an image
// pixel meets an idle thread, the guard's red line.
void TestOverlay::boundaries_where_blocks_meet() {
    QFETCH(LaunchShape, shape);
    QFETCH(OverlayColoring, coloring);
    QFETCH(int, path);
    if (path < 2 && !gl_) QSKIP("no OpenGL here");
    const QImage image = make_test_image(37, 23);
    Rig rig(path == 2, path == 1);
    QVERIFY(rig.exposed());
    const OverlayState state = full_overlay(shape, image.size(), coloring);
    rig.show(image, state);

    namespace st = overlay_style;
    const QSize extent = state.extent();
    int lines = 0, guards = 0;
    for (int y = 0; y < extent.height(); ++y)
        for (int x = 0; x < extent.width(); ++x) {
            const GridCell cell = grid_cell(state.plan, x, y);
            if (!cell.in_grid || !cell.inside) continue;  // hatch cells: stripes make exact checks moot
            const Rgbf base = coloring == OverlayColoring::None ? rgbf(QColor(image.pixel(x, y)))
                                                                : cell_color(state.plan, cell, coloring);
            for (int axis = 0; axis < 2; ++axis) {
                const GridCell before = axis == 0 ? grid_cell(state.plan, x - 1, y) : grid_cell(state.plan, x, y - 1);
                const QRgb got = axis == 0 ? rig.at(x, y, 0, kZoom / 2) : rig.at(x, y, kZoom / 2, 0);
                const bool edge = !before.in_grid || before.thread.linear_block != cell.thread.linear_block;
                const bool warp_edge = coloring == OverlayColoring::Warp && !edge && before.thread.warp != cell.thread.warp;
                Rgbf want = base;
                if (edge) want = mix(base, rgbf(st::kBoundary), st::kBoundaryAlpha);
                else if (warp_edge) want = mix(base, rgbf(st::kBoundary), st::kBoundaryAlpha * st::kWarpBoundaryAlpha);
                lines += edge;
                QVERIFY2(near(got, want, 3),
                         qPrintable(QStringLiteral("cell (%1,%2) %3 edge: got %4, want %5 (%6)")
                                        .arg(x)
                                        .arg(y)
                                        .arg(axis == 0 ? QStringLiteral("left") : QStringLiteral("top"))
                                        .arg(hex(got), hex(want), edge ? QStringLiteral("block boundary") : QStringLiteral("no boundary"))));
            }
        }
    // The guard line: on the first idle cell next to the image.
    for (int y = 0; y < extent.height(); ++y)
        for (int x = 0; x < extent.width(); ++x) {
            const GridCell cell = grid_cell(state.plan, x, y);
            if (!cell.in_grid || cell.inside) continue;
            const GridCell left = grid_cell(state.plan, x - 1, y), up = grid_cell(state.plan, x, y - 1);
            if (left.inside) {
                const QRgb got = rig.at(x, y, 0, kZoom / 2 + 1);
                QVERIFY2(qRed(got) > 180 && qGreen(got) < 90 && qBlue(got) < 90,
                         qPrintable(QStringLiteral("guard left of (%1,%2): %3").arg(x).arg(y).arg(hex(got))));
                ++guards;
            }
            if (up.inside) {
                const QRgb got = rig.at(x, y, kZoom / 2 + 1, 0);
                QVERIFY2(qRed(got) > 180 && qGreen(got) < 90 && qBlue(got) < 90,
                         qPrintable(QStringLiteral("guard above (%1,%2): %3").arg(x).arg(y).arg(hex(got))));
                ++guards;
            }
        }
    QVERIFY(lines > 0);
    QCOMPARE(guards > 0, state.plan.idle_threads > 0);
}

void TestOverlay::idle_threads_hatched_past_the_image_data() {
    QTest::addColumn<LaunchShape>("shape");
    QTest::addColumn<bool>("raster");
    for (bool raster : {false, true}) {
        const char* p = raster ? " (raster)" : " (GL)";
        QTest::newRow(qPrintable(QStringLiteral("2-D 16x16%1").arg(QLatin1String(p)))) << LaunchShape::two_d(16, 16) << raster;
        QTest::newRow(qPrintable(QStringLiteral("1-D 256%1").arg(QLatin1String(p)))) << LaunchShape::one_d(256) << raster;
        QTest::newRow(qPrintable(QStringLiteral("1-D 1024%1").arg(QLatin1String(p)))) << LaunchShape::one_d(1024) << raster;
    }
}

// Every idle thread's cell shows both hatch stripes; their number is the plan's idle count; in 1-D
// they follow pixel n-1 in row-major order (row h from column 0), in 2-D they lie right of and below
// the image.
void TestOverlay::idle_threads_hatched_past_the_image() {
    QFETCH(LaunchShape, shape);
    QFETCH(bool, raster);
    if (!raster && !gl_) QSKIP("no OpenGL here");
    const QImage image = make_test_image(37, 23);
    Rig rig(raster, false);
    QVERIFY(rig.exposed());
    const OverlayState state = full_overlay(shape, image.size(), OverlayColoring::Block);
    rig.show(image, state);

    const QSize extent = state.extent();
    const std::uint64_t n = 37 * 23;
    std::uint64_t idle = 0;
    for (int y = 0; y < extent.height(); ++y)
        for (int x = 0; x < extent.width(); ++x) {
            const GridCell cell = grid_cell(state.plan, x, y);
            if (!cell.in_grid || cell.active) continue;
            ++idle;
            if (shape.kind == GrayscaleVariant::OneD) QCOMPARE(std::uint64_t(y) * 37 + std::uint64_t(x) >= n, true);
            else QVERIFY(x >= 37 || y >= 23);
            const Rgbf light = scaled(rgbf(color_for_id(cell.thread.linear_block)), overlay_style::kHatchShade);
            bool saw_light = false, saw_dark = false;
            for (int dy = 2; dy < kZoom; ++dy)  // clear of the cell's left and top lines
                for (int dx = 2; dx < kZoom; ++dx) {
                    const QRgb got = rig.at(x, y, dx, dy);
                    saw_light |= near(got, light, 2);
                    saw_dark |= near(got, rgbf(overlay_style::kHatchDark), 1);
                    QVERIFY2(near(got, light, 2) || near(got, rgbf(overlay_style::kHatchDark), 1),
                             qPrintable(QStringLiteral("idle (%1,%2) +%3,%4: %5").arg(x).arg(y).arg(dx).arg(dy).arg(hex(got))));
                }
            QVERIFY2(saw_light && saw_dark, qPrintable(QStringLiteral("idle cell (%1,%2) not hatched").arg(x).arg(y)));
        }
    QCOMPARE(idle, state.plan.idle_threads);
    if (shape.kind == GrayscaleVariant::OneD) {
        // The first idle thread sits at the start of the row after the image; past the grid, background.
        QVERIFY(!grid_cell(state.plan, 0, 23).active && grid_cell(state.plan, 0, 23).in_grid);
        const std::uint64_t last = state.plan.total_threads - 1;
        const int lx = int(last % 37), ly = int(last / 37);
        if (lx + 1 < 37) QVERIFY(near(rig.centre(lx + 1, ly), rgbf(overlay_style::kBackground), 1));
    }
}

void TestOverlay::opacity_blends_with_the_image() {
    if (!gl_) QSKIP("no OpenGL here");
    const QImage image = make_test_image(37, 23);
    for (bool raster : {false, true}) {
        Rig rig(raster, false);
        QVERIFY(rig.exposed());
        OverlayState state = full_overlay(LaunchShape::two_d(16, 16), image.size(), OverlayColoring::Block);
        state.opacity = 0.5;
        rig.show(image, state);
        for (QPoint p : {QPoint(0, 0), QPoint(20, 5), QPoint(36, 22), QPoint(17, 16)}) {
            const GridCell cell = grid_cell(state.plan, p.x(), p.y());
            const Rgbf want = mix(rgbf(QColor(image.pixel(p))), rgbf(color_for_id(cell.thread.linear_block)), 0.5);
            QVERIFY2(near(rig.centre(p.x(), p.y()), want, 2),
                     qPrintable(QStringLiteral("(%1,%2): %3 vs %4").arg(p.x()).arg(p.y()).arg(hex(rig.centre(p.x(), p.y())), hex(want))));
        }
    }
}

// 8x8 blocks: warp 0 is rows 0-3 of the block, warp 1 rows 4-7. A faint line between them, none
// between the rows of one warp.
void TestOverlay::warp_boundaries_inside_a_block() {
    if (!gl_) QSKIP("no OpenGL here");
    const QImage image = make_test_image(37, 23);
    Rig rig(false, false);
    QVERIFY(rig.exposed());
    const OverlayState state = full_overlay(LaunchShape::two_d(8, 8), image.size(), OverlayColoring::Warp);
    rig.show(image, state);
    const Rgbf w1 = rgbf(color_for_warp(0, 1, 2));
    const Rgbf w0 = rgbf(color_for_warp(0, 0, 2));
    QVERIFY(near(rig.centre(3, 3), w0, 2));
    QVERIFY(near(rig.centre(3, 4), w1, 2));
    namespace st = overlay_style;
    QVERIFY(near(rig.at(3, 4, kZoom / 2, 0), mix(w1, rgbf(st::kBoundary), st::kBoundaryAlpha * st::kWarpBoundaryAlpha), 3));
    QVERIFY(near(rig.at(3, 3, kZoom / 2, 0), w0, 2));  // rows 2 and 3: one warp
}

void TestOverlay::selection_outlines_block_and_pixel() {
    const QImage image = make_test_image(37, 23);
    for (bool raster : {false, true}) {
        if (!raster && !gl_) continue;
        Rig rig(raster, false);
        QVERIFY(rig.exposed());
        OverlayState state = full_overlay(LaunchShape::two_d(16, 16), image.size(), OverlayColoring::Block);
        state.selected_pixel = QPoint(20, 5);
        state.selected_block = std::int64_t(state.plan.thread_of_pixel(20, 5).linear_block);  // block (1, 0)
        rig.show(image, state);
        const Rgbf yellow = rgbf(overlay_style::kSelection);
        QVERIFY(near(rig.at(16, 5, 0, 4), yellow, 1));    // the block's left edge
        QVERIFY(near(rig.at(32, 5, 1, 4), yellow, 1));    // the next block's first columns: its right edge
        QVERIFY(near(rig.at(20, 0, 4, 0), yellow, 1));    // its top edge
        QVERIFY(near(rig.at(20, 5, 4, 7), yellow, 1));    // the pixel's own outline
        QVERIFY(near(rig.centre(20, 5), rgbf(color_for_id(1)), 2));
        QVERIFY(near(rig.centre(24, 8), rgbf(color_for_id(1)), 2));
    }
}

// The block under the mouse: kSelection mixed half over what is there, drawn under the selection.
void TestOverlay::hover_outlines_block_lighter() {
    const QImage image = make_test_image(37, 23);
    for (bool raster : {false, true}) {
        if (!raster && !gl_) continue;
        Rig rig(raster, false);
        QVERIFY(rig.exposed());
        OverlayState plain = full_overlay(LaunchShape::two_d(16, 16), image.size(), OverlayColoring::Block);
        rig.show(image, plain);
        const QRgb before_left = rig.at(16, 5, 0, 4), before_top = rig.at(20, 0, 4, 0);
        OverlayState state = plain;
        state.hovered_block = 1;  // block (1, 0)
        rig.show(image, state);
        auto half = [](QRgb under) {
            const Rgbf y = rgbf(overlay_style::kSelection), u = rgbf(QColor(under));
            return Rgbf{(u.r + y.r) / 2, (u.g + y.g) / 2, (u.b + y.b) / 2};
        };
        QVERIFY(near(rig.at(16, 5, 0, 4), half(before_left), 2));  // its left edge
        QVERIFY(near(rig.at(20, 0, 4, 0), half(before_top), 2));   // its top edge
        QVERIFY(near(rig.centre(24, 8), rgbf(color_for_id(1)), 2));  // the inside untouched
        // Hovering the pinned block: the selection's full yellow wins.
        state.selected_block = 1;
        rig.show(image, state);
        QVERIFY(near(rig.at(16, 5, 0, 4), rgbf(overlay_style::kSelection), 1));
    }
}

// With line_merge (m, n) block lines are drawn only where groups of m x n blocks (1-D: m
// consecutive blocks) meet; inside a group, block edges draw nothing. GL (int and float) and raster.
void TestOverlay::merged_lines_between_block_groups_data() {
    QTest::addColumn<LaunchShape>("shape");
    QTest::addColumn<QPoint>("merge");
    QTest::addColumn<int>("path");
    const char* paths[] = {"GL int", "GL float", "raster"};
    for (int path = 0; path < 3; ++path) {
        QTest::newRow(qPrintable(QStringLiteral("2-D 4x3 by 2x3, %1").arg(QLatin1String(paths[path]))))
            << LaunchShape::two_d(4, 3) << QPoint(2, 3) << path;
        QTest::newRow(qPrintable(QStringLiteral("1-D 32 by 3, %1").arg(QLatin1String(paths[path]))))
            << LaunchShape::one_d(32) << QPoint(3, 1) << path;
    }
}

void TestOverlay::merged_lines_between_block_groups() {
    QFETCH(LaunchShape, shape);
    QFETCH(QPoint, merge);
    QFETCH(int, path);
    if (path < 2 && !gl_) QSKIP("no OpenGL here");
    const QImage image = make_test_image(37, 23);
    Rig rig(path == 2, path == 1);
    QVERIFY(rig.exposed());
    OverlayState state = full_overlay(shape, image.size(), OverlayColoring::Block);
    state.line_merge = merge;
    rig.show(image, state);
    const LaunchPlan& plan = state.plan;
    auto group = [&](std::uint64_t b) -> std::uint64_t {
        if (plan.one_d) return b / std::uint64_t(merge.x());
        const std::uint64_t bx = b % plan.grid.x, by = b / plan.grid.x;
        return (by / std::uint64_t(merge.y())) * plan.grid.x + bx / std::uint64_t(merge.x());
    };
    namespace st = overlay_style;
    int merged = 0, drawn = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x) {
            const GridCell cell = grid_cell(plan, x, y);
            if (!cell.inside) continue;
            const Rgbf base = cell_color(plan, cell, OverlayColoring::Block);
            for (int axis = 0; axis < 2; ++axis) {
                const GridCell before = axis == 0 ? grid_cell(plan, x - 1, y) : grid_cell(plan, x, y - 1);
                if (!before.in_grid) continue;
                const QRgb got = axis == 0 ? rig.at(x, y, 0, kZoom / 2) : rig.at(x, y, kZoom / 2, 0);
                const bool block_edge = before.thread.linear_block != cell.thread.linear_block;
                const bool group_edge = block_edge && group(before.thread.linear_block) != group(cell.thread.linear_block);
                const Rgbf want = group_edge ? mix(base, rgbf(st::kBoundary), st::kBoundaryAlpha) : base;
                merged += block_edge && !group_edge;
                drawn += group_edge;
                QVERIFY2(near(got, want, 3), qPrintable(QStringLiteral("cell (%1,%2) %3: got %4, want %5")
                                                            .arg(x)
                                                            .arg(y)
                                                            .arg(axis == 0 ? "left" : "top")
                                                            .arg(hex(got), hex(want))));
            }
        }
    QVERIFY(merged > 0);
    QVERIFY(drawn > 0);
}

// At fit zoom blocks can be a pixel or two on screen: the merge keeps block lines kMinLinePitch
// device pixels apart, and draws them at full strength there.
void TestOverlay::line_merge_keeps_lines_apart() {
    const LaunchPlan two_d = plan_grayscale_launch(LaunchShape::two_d(16, 16), 4000, 3000);
    QCOMPARE(OverlayState::lineMergeFor(two_d, 1.0), QPoint(1, 1));      // 16 px apart
    QCOMPARE(OverlayState::lineMergeFor(two_d, 0.089), QPoint(3, 3));    // 1.4 px: every 3rd, 4.3 px apart
    const LaunchPlan one_d = plan_grayscale_launch(LaunchShape::one_d(256), 451, 300);
    QCOMPARE(OverlayState::lineMergeFor(one_d, 4.0), QPoint(1, 1));      // a row is 4 px: the staircase reads
    QCOMPARE(OverlayState::lineMergeFor(one_d, 1.4), QPoint(6, 1));      // 6 blocks reach 3.4 rows = 4.8 px
    QCOMPARE(OverlayState::lineMergeFor(plan_grayscale_launch(LaunchShape::two_d(32, 1), 97, 33), 1.0), QPoint(1, 4));
    OverlayState s;
    s.plan = two_d;
    s.line_merge = OverlayState::lineMergeFor(two_d, 0.089);
    QCOMPARE(s.blockLineFade(0.089), QPointF(1, 1));  // merged lines at full strength
    QCOMPARE(s.warpLineFade(0.089), QPointF(0, 0));
    s.line_merge = QPoint(1, 1);
    QCOMPARE(s.blockLineFade(0.089), QPointF(0, 0));  // unmerged they would be a moire: faded out
}

void TestOverlay::overlay_off_draws_the_plain_image() {
    const QImage image = make_test_image(37, 23);
    for (bool raster : {false, true}) {
        if (!raster && !gl_) continue;
        Rig rig(raster, false);
        QVERIFY(rig.exposed());
        OverlayState state = full_overlay(LaunchShape::one_d(1024), image.size(), OverlayColoring::Block);
        state.enabled = false;
        rig.show(image, state);
        for (int y = 0; y < 23; ++y)
            for (int x = 0; x < 37; ++x) QCOMPARE(rig.centre(x, y) & 0xFFFFFF, image.pixel(x, y) & 0xFFFFFF);
        QVERIFY(near(rig.centre(0, 23), rgbf(overlay_style::kBackground), 0));  // no idle rows drawn
    }
}

// Issue 30, item 11: with the grid off, the pinned pixel and its block are still outlined (the
// legend lists them), over the plain image.
void TestOverlay::overlay_off_still_marks_the_pinned_pixel() {
    const QImage image = make_test_image(37, 23);
    for (bool raster : {false, true}) {
        if (!raster && !gl_) continue;
        Rig rig(raster, false);
        QVERIFY(rig.exposed());
        OverlayState state = full_overlay(LaunchShape::two_d(16, 16), image.size(), OverlayColoring::Block);
        state.enabled = false;
        state.selected_pixel = QPoint(20, 5);
        state.selected_block = std::int64_t(state.plan.thread_of_pixel(20, 5).linear_block);
        QVERIFY(state.decorates());
        rig.show(image, state);
        const Rgbf yellow = rgbf(overlay_style::kSelection);
        QVERIFY(near(rig.at(16, 5, 0, 4), yellow, 1));  // the block's left edge
        QVERIFY(near(rig.at(20, 5, 4, 7), yellow, 1));  // the pixel's own outline
        QCOMPARE(rig.centre(24, 8) & 0xFFFFFF, image.pixel(24, 8) & 0xFFFFFF);  // untinted inside
        QCOMPARE(rig.centre(3, 3) & 0xFFFFFF, image.pixel(3, 3) & 0xFFFFFF);    // other blocks plain
    }
}

// A 4100x4100 image has 16,810,000 pixels, past float's 2^24: the integer path still finds the
// right block for the last pixels of a 1-D launch of 3-thread blocks.
void TestOverlay::integer_math_exact_past_2_to_the_24() {
    if (!gl_) QSKIP("no OpenGL here");
    QImage image(4100, 4100, QImage::Format_Grayscale8);
    image.fill(128);
    Rig rig(false, false);
    QVERIFY(rig.exposed());
    if (!rig.gl()->integerIndexMath()) QSKIP("this GL has no GLSL 1.30: the float path is exact below 2^24 only");
    OverlayState state = full_overlay(LaunchShape::one_d(3), image.size(), OverlayColoring::Block);
    state.show_idle = false;
    rig.surface()->setImage(image);
    ViewTransform* t = rig.surface()->transform();
    t->setImageSize(image.size());
    t->setZoom(kZoom);
    t->setCenter(QPointF(4090, 4095));
    rig.surface()->setOverlay(state);
    const QImage shot = rig.surface()->grabImage();
    int checked = 0;
    for (int y = 4093; y < 4100; ++y)
        for (int x = 4080; x < 4100; ++x) {
            const QPointF w = rig.surface()->imageToWidget(QPointF(x + 0.5, y + 0.5));
            if (!shot.rect().contains(w.toPoint())) continue;
            const ThreadOfPixel t = state.plan.thread_of_pixel(std::uint32_t(x), std::uint32_t(y));
            QVERIFY(t.global_index > (1u << 24));
            const QRgb got = shot.pixel(w.toPoint());
            QVERIFY2(near(got, rgbf(color_for_id(t.linear_block)), 2),
                     qPrintable(QStringLiteral("(%1,%2) block %3: %4").arg(x).arg(y).arg(t.linear_block).arg(hex(got))));
            ++checked;
        }
    QVERIFY(checked > 50);
}

// gray_vec16_waves caps its grid at 4 waves of the H200 (4 x 132 x 2048 threads of 16 pixels =
// 17,301,504 pixels); a larger image is covered by further passes of the grid-stride loop, so its
// last pixels belong to the first threads again, both in grid_cell and on screen.
void TestOverlay::grid_in_waves_covers_the_image_in_passes() {
    const QSize size(4200, 4200);  // 17,640,000 pixels: the second pass starts in row 4119
    OverlayState state = full_overlay(LaunchShape::of(GrayscaleVariant::GrayVec16Waves, Dim3{256, 1, 1}), size, OverlayColoring::Block);
    state.show_idle = false;
    const std::uint64_t span = state.plan.total_threads * state.plan.items_per_thread;
    QCOMPARE(span, std::uint64_t(4) * 132 * 2048 * 16);
    QCOMPARE(state.extent(), size);  // no row past the image: every cell is a pixel
    for (const std::uint64_t i : {span - 1, span, span + 17, std::uint64_t(size.width()) * size.height() - 1}) {
        const GridCell cell = grid_cell(state.plan, std::int64_t(i % 4200), std::int64_t(i / 4200));
        QVERIFY2(cell.in_grid && cell.inside && cell.active, qPrintable(QString::number(i)));
        const std::uint64_t t = (i % span) / 16;
        QCOMPARE(cell.thread.linear_block, t / 256);
        QCOMPARE(cell.thread.pass, std::uint32_t(i / span));
    }
    if (!gl_) QSKIP("no OpenGL here");
    QImage image(size, QImage::Format_Grayscale8);
    image.fill(128);
    Rig rig(false, false);
    QVERIFY(rig.exposed());
    if (!rig.gl()->integerIndexMath()) QSKIP("this GL has no GLSL 1.30: the float path is exact below 2^24 only");
    rig.surface()->setImage(image);
    ViewTransform* t = rig.surface()->transform();
    t->setImageSize(image.size());
    t->setZoom(kZoom);
    t->setCenter(QPointF(double(span % 4200) + 0.5, double(span / 4200) + 0.5));
    rig.surface()->setOverlay(state);
    const QImage shot = rig.surface()->grabImage();
    int checked = 0, wrapped = 0;
    for (int y = 4115; y < 4123; ++y)
        for (int x = 0; x < 4200; ++x) {
            const QPointF w = rig.surface()->imageToWidget(QPointF(x + 0.5, y + 0.5));
            if (!shot.rect().contains(w.toPoint())) continue;
            const ThreadOfPixel tp = state.plan.thread_of_pixel(std::uint32_t(x), std::uint32_t(y));
            const QRgb got = shot.pixel(w.toPoint());
            QVERIFY2(near(got, rgbf(color_for_id(tp.linear_block)), 2),
                     qPrintable(QStringLiteral("(%1,%2) block %3 pass %4: %5").arg(x).arg(y).arg(tp.linear_block).arg(tp.pass).arg(hex(got))));
            ++checked;
            wrapped += tp.pass == 1;
        }
    QVERIFY(checked > 50);
    QVERIFY(wrapped > 10);
}

void TestOverlay::extent_and_cells_data() {
    QTest::addColumn<LaunchShape>("shape");
    QTest::addColumn<QSize>("image");
    QTest::addColumn<QSize>("extent");
    QTest::newRow("2-D 16x16 on 37x23") << LaunchShape::two_d(16, 16) << QSize(37, 23) << QSize(48, 32);
    QTest::newRow("2-D 32x8 on 64x16: exact fit") << LaunchShape::two_d(32, 8) << QSize(64, 16) << QSize(64, 16);
    QTest::newRow("1-D 256 on 37x23: 4 blocks, rows to 1024") << LaunchShape::one_d(256) << QSize(37, 23) << QSize(37, 28);
    QTest::newRow("1-D 851 on 37x23: no idle") << LaunchShape::one_d(851) << QSize(37, 23) << QSize(37, 23);
}

void TestOverlay::extent_and_cells() {
    QFETCH(LaunchShape, shape);
    QFETCH(QSize, image);
    QFETCH(QSize, extent);
    OverlayState s = full_overlay(shape, image, OverlayColoring::Block);
    QCOMPARE(s.extent(), extent);
    s.show_idle = false;
    QCOMPARE(s.extent(), image);
    // Every thread of the launch has exactly one cell; the active ones are the image's pixels.
    const OverlayState full = full_overlay(shape, image, OverlayColoring::Block);
    std::uint64_t in_grid = 0, active = 0;
    for (int y = -1; y <= extent.height(); ++y)
        for (int x = -1; x <= extent.width(); ++x) {
            const GridCell c = grid_cell(full.plan, x, y);
            in_grid += c.in_grid;
            active += c.active;
            QCOMPARE(c.active, c.inside);
        }
    QCOMPARE(in_grid, full.plan.total_threads);
    QCOMPARE(active, full.plan.active_threads);
}

// A 2-D launch of 1x1 blocks over 70,000 rows caps gridDim.y at 65535: rows from 65535 on are the
// same threads' second pass of the grid-stride loop. The inspector says which pass and shows r.
void TestOverlay::inspector_shows_grid_stride_pass() {
    const LaunchPlan plan = plan_grayscale_launch(LaunchShape::two_d(1, 1), 3, 70000);
    QCOMPARE(plan.grid.y, 65535u);
    QCOMPARE(plan.passes, 2u);
    const std::uint8_t rgb[3] = {10, 20, 30};
    const PixelInspection in = inspect_pixel(plan, PixelLayout::Planar, 2, 65540, rgb);
    QVERIFY(in.cell.active);
    QCOMPARE(in.cell.thread.pass, 1u);
    QCOMPARE(in.cell.thread.block.y, 5u);  // the thread of row 5 does row 65540 too
    QCOMPARE(in.reads[1], std::uint64_t(65540) * 3 + 2 + 210000);  // i + n
    InspectorPanel panel;
    panel.showPixel(in, plan, PixelLayout::Planar, plan_waves(plan.blocks, 132, 32), -1);
    const QString text = panel.plainText();
    QVERIFY2(text.contains(QStringLiteral("grid-stride pass 1: r += 1*gridDim.y*blockDim.y = 5 + 1*65535 = 65540")),
             qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("x[i+n] = x[406622] = 20 (G)")), qPrintable(text));
    QCOMPARE(grid_extent(plan).height, std::uint64_t(70000));  // no idle rows: the loop covers the image
}

// A wave at the fit zoom of an 8K image is a band a few device pixels tall, one warp of a 32x2
// block a line: both get a ring at least kFocusMin device pixels across; seen large enough, none.
void TestOverlay::focus_ring_only_where_running_units_are_small() {
    OverlayState waves;
    waves.plan = plan_grayscale_launch(LaunchShape::two_d(16, 16), 7680, 4320);  // 480 x 270 blocks
    waves.animation.mode = AnimationMode::Waves;
    waves.animation.done_end = 1000;  // blocks 1000..2055 run: block rows 2 to 4
    waves.animation.run_end = 2056;
    QCOMPARE(waves.runningExtent(), QRect(0, 32, 7680, 48));
    const QRectF fit = waves.focusRing(0.089);  // 48 rows = 4.3 device pixels
    QVERIFY(!fit.isNull());
    QVERIFY(fit.height() * 0.089 >= OverlayState::kFocusMin);
    QVERIFY(fit.contains(QRectF(waves.runningExtent())));
    QVERIFY(std::abs(fit.center().y() - 56) < 1e-9);
    QVERIFY(waves.focusRing(1.0).isNull());  // 48 device pixels: plainly visible

    OverlayState warps;
    warps.plan = plan_grayscale_launch(LaunchShape::one_d(256), 451, 300);
    warps.animation.mode = AnimationMode::Warps;
    warps.animation.done_end = warps.animation.run_end = warps.plan.blocks;
    warps.animation.block = 5;  // threads 1280..1535; warp 2 = pixels 1344..1375 = row 2, x 442..450 and row 3, x 0..22
    warps.animation.warp_done_end = 2;
    warps.animation.warp_run_end = 3;
    QCOMPARE(warps.runningExtent(), warp_extent(warps.plan, 5, 2));
    QVERIFY(!warps.focusRing(1.0).isNull());
    QVERIFY(warps.focusRing(20.0).isNull());  // two rows of 20 device pixels
    warps.animation.warp_run_end = 2;         // nothing runs: no ring
    QVERIFY(warps.runningExtent().isEmpty());
    QVERIFY(warps.focusRing(1.0).isNull());
    OverlayState off = warps;
    off.animation.mode = AnimationMode::Off;
    QVERIFY(off.focusRing(1.0).isNull());
}

// The ring on screen, in both views: 2 device pixels of kRunning inside 1 of kBoundary, around the
// warp that runs.
void TestOverlay::focus_ring_drawn_around_the_running_warp() {
    const QImage image = make_test_image(37, 23);
    for (bool raster : {false, true}) {
        if (!raster && !gl_) continue;
        Rig rig(raster, false);
        QVERIFY(rig.exposed());
        OverlayState state = full_overlay(LaunchShape::two_d(32, 2), image.size(), OverlayColoring::Block);
        state.enabled = false;  // the animation alone
        state.animation.mode = AnimationMode::Warps;
        state.animation.done_end = state.animation.run_end = state.plan.blocks;
        state.animation.block = std::int64_t(state.plan.thread_of_pixel(0, 10).linear_block);  // rows 10 and 11
        state.animation.warp_done_end = 0;
        state.animation.warp_run_end = 1;  // row 10, x 0..31
        constexpr double kZoomOne = 1.0;
        rig.show(image, state, kZoomOne);
        const double dpr = rig.dpr();
        const QRectF ring = state.focusRing(kZoomOne * dpr);
        QVERIFY(!ring.isNull());
        auto device = [&](double ix, double iy) {
            const QPointF w = rig.surface()->imageToWidget(QPointF(ix, iy)) * dpr;
            return rig.shot().pixel(int(std::floor(w.x())), int(std::floor(w.y())));
        };
        const double px = 1 / dpr;  // image pixels per device pixel
        const double cx = ring.center().x();
        // Down the column through the ring's bottom edge: exactly 2 device pixels of kRunning, then 1
        // of kBoundary (pixel centres at distances [0, 2) and [2, 3) outside the inner rectangle).
        const int col = int(std::floor(rig.surface()->imageToWidget(QPointF(cx, 0)).x() * dpr));
        const int edge = int(std::floor(rig.surface()->imageToWidget(QPointF(cx, ring.bottom())).y() * dpr));
        QString seen;
        for (int row = edge - 3; row < edge + 7; ++row) {
            const QRgb c = rig.shot().pixel(col, row);
            seen += near(c, rgbf(overlay_style::kRunning), 1) ? QLatin1Char('W')
                    : near(c, rgbf(overlay_style::kBoundary), 1) ? QLatin1Char('D') : QLatin1Char('.');
        }
        QVERIFY2(seen.count(QLatin1Char('W')) == 2 && seen.count(QLatin1Char('D')) == 1 && seen.contains(QStringLiteral("WWD")),
                 qPrintable(seen));
        QVERIFY(near(device(cx, ring.top() - 1 * px), rgbf(overlay_style::kRunning), 1));  // the top edge
        // Inside the ring and away from it, the picture is the animation's own.
        QVERIFY(!near(device(cx, ring.top() + 1.5 * px), rgbf(overlay_style::kRunning), 8));
        state.animation.mode = AnimationMode::Off;
        rig.show(image, state, kZoomOne);
        QVERIFY(!near(device(cx, ring.top() - 1 * px), rgbf(overlay_style::kRunning), 8));
    }
}

int main(int argc, char* argv[]) {
    if (qEnvironmentVariableIsEmpty("DISPLAY") && qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY") &&
        qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    TestOverlay test;
QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&test, argc, argv);
}
#include "tst_overlay.moc"
