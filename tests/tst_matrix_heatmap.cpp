// The matrix heatmap: the value -> colour map (NaN and infinities included), the reduction of element
// blocks to screen cells (mean and max |v|, against hand-computed blocks), the widget <-> element
// mapping under zoom and pan, mouse navigation, and what reaches the screen.
#include <QtTest>

#include <QElapsedTimer>
#include <QGridLayout>
#include <QSignalSpy>
#include <QWheelEvent>

#include <cmath>
#include <limits>
#include <memory>

#include "support/window_waits.h"
#include "app/io/matrix.h"
#include "app/io/matrix_generator.h"
#include "support/hover.h"
#include "ui/pages/matmul/matrix_heatmap.h"

using namespace cvz;

namespace {

using Bins = std::vector<std::pair<std::uint32_t, std::uint32_t>>;

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

Matrix make(std::uint32_t rows, std::uint32_t cols, std::vector<float> data) {
    Matrix m;
    m.rows = rows;
    m.cols = cols;
    m.data = std::move(data);
    return m;
}

// v(r, c) = 6r + c on a 4 x 6 matrix.
Matrix ramp_4x6() {
    std::vector<float> d(24);
    for (int i = 0; i < 24; ++i) d[std::size_t(i)] = float(i);
    return make(4, 6, d);
}

bool near_color(QRgb a, QRgb b, int tolerance) {
    return std::abs(qRed(a) - qRed(b)) <= tolerance && std::abs(qGreen(a) - qGreen(b)) <= tolerance &&
           std::abs(qBlue(a) - qBlue(b)) <= tolerance;
}

QString rgb_text(QRgb c) { return QStringLiteral("(%1, %2, %3)").arg(qRed(c)).arg(qGreen(c)).arg(qBlue(c)); }

bool near_point(QPointF a, QPointF b) { return std::abs(a.x() - b.x()) < 1e-9 && std::abs(a.y() - b.y()) < 1e-9; }

}  // namespace

class TestMatrixHeatmap : public QObject {
    Q_OBJECT
private slots:
    void color_map_data();
    void color_map();
    void markers_are_outside_the_map();
    void reduce_mean_data();
    void reduce_mean();
    void reduce_max_abs_keeps_sign();
    void reduce_non_finite();
    void bins_data();
    void bins();
    void fit_maps_elements_to_widget();
    void square_cells_keep_the_shape();
    void linked_views_share_one_square_scale();
    void zoom_keeps_element_under_cursor_data();
    void zoom_keeps_element_under_cursor();
    void pan_moves_elements_with_mouse();
    void element_at_round_trips_under_zoom_and_pan();
    void mouse_navigation();
    void click_emits_element();
    void hover_reports_element();
    void screen_shows_colors();
    void screen_shows_reduction_mode();
    void wrong_elements_are_marked();
    void mnist_sized_matrix_renders();
};

// ---- colour map ---------------------------------------------------------------------------------

void TestMatrixHeatmap::color_map_data() {
    QTest::addColumn<float>("value");
    QTest::addColumn<float>("maxAbs");
    QTest::addColumn<QColor>("expected");
    QTest::newRow("zero is the centre") << 0.0f << 3.0f << QColor(0xf7, 0xf7, 0xf7);
    QTest::newRow("+max is deep red") << 3.0f << 3.0f << QColor(0xb2, 0x18, 0x2b);
    QTest::newRow("-max is deep blue") << -3.0f << 3.0f << QColor(0x21, 0x66, 0xac);
    QTest::newRow("+half is the light red stop") << 1.5f << 3.0f << QColor(0xf4, 0xa5, 0x82);
    QTest::newRow("-half is the light blue stop") << -1.5f << 3.0f << QColor(0x92, 0xc5, 0xde);
    // Halfway between f7f7f7 and f4a582, rounded: (245.5, 206, 188.5).
    QTest::newRow("+quarter interpolates") << 0.75f << 3.0f << QColor(246, 206, 189);
    QTest::newRow("beyond the scale saturates") << 30.0f << 3.0f << QColor(0xb2, 0x18, 0x2b);
    QTest::newRow("zero scale shows the centre") << 5.0f << 0.0f << QColor(0xf7, 0xf7, 0xf7);
    QTest::newRow("NaN") << kNaN << 3.0f << MatrixHeatmap::nanColor();
    QTest::newRow("+Inf") << kInf << 3.0f << MatrixHeatmap::positiveInfColor();
    QTest::newRow("-Inf") << -kInf << 3.0f << MatrixHeatmap::negativeInfColor();
}

void TestMatrixHeatmap::color_map() {
    QFETCH(float, value);
    QFETCH(float, maxAbs);
    QFETCH(QColor, expected);
    const QRgb got = MatrixHeatmap::colorFor(value, maxAbs);
    QVERIFY2(got == expected.rgb(), qPrintable(rgb_text(got) + QStringLiteral(" != ") + rgb_text(expected.rgb())));
}

void TestMatrixHeatmap::markers_are_outside_the_map() {
    const QList<QRgb> markers{MatrixHeatmap::nanColor().rgb(), MatrixHeatmap::positiveInfColor().rgb(),
                              MatrixHeatmap::negativeInfColor().rgb()};
    QCOMPARE(QSet<QRgb>(markers.begin(), markers.end()).size(), 3);
    for (int i = -1000; i <= 1000; ++i) {
        const QRgb c = MatrixHeatmap::colorFor(float(i) / 1000, 1.0f);
        for (QRgb m : markers) QVERIFY2(!near_color(c, m, 40), qPrintable(QString::number(i)));
    }
}

// ---- reduction ----------------------------------------------------------------------------------

void TestMatrixHeatmap::reduce_mean_data() {
    QTest::addColumn<Bins>("rows");
    QTest::addColumn<Bins>("cols");
    QTest::addColumn<QList<float>>("expected");
    // Blocks of v = 6r + c: {0,1,2,6,7,8} -> 4; {3,4,5,9,10,11} -> 7; {12..14,18..20} -> 16; {15..17,21..23} -> 19.
    QTest::newRow("2x2 blocks of 2x3") << Bins{{0, 2}, {2, 4}} << Bins{{0, 3}, {3, 6}} << QList<float>{4, 7, 16, 19};
    // Uneven: row 0 alone (mean 2.5), rows 1..3 (mean 6*2 + 2.5 = 14.5).
    QTest::newRow("uneven rows, one column bin") << Bins{{0, 1}, {1, 4}} << Bins{{0, 6}} << QList<float>{2.5f, 14.5f};
    QTest::newRow("single elements") << Bins{{3, 4}} << Bins{{0, 1}, {5, 6}} << QList<float>{18, 23};
    QTest::newRow("whole matrix") << Bins{{0, 4}} << Bins{{0, 6}} << QList<float>{11.5f};
}

void TestMatrixHeatmap::reduce_mean() {
    QFETCH(Bins, rows);
    QFETCH(Bins, cols);
    QFETCH(QList<float>, expected);
    const std::vector<float> got = MatrixHeatmap::reduce(ramp_4x6(), rows, cols, HeatmapReduction::Mean);
    QCOMPARE(int(got.size()), expected.size());
    for (int i = 0; i < expected.size(); ++i) QCOMPARE(got[std::size_t(i)], expected[i]);
}

void TestMatrixHeatmap::reduce_max_abs_keeps_sign() {
    Matrix m = ramp_4x6();
    m.data[1 * 6 + 4] = -50;  // in block (0, 1)
    const auto got = MatrixHeatmap::reduce(m, {{0, 2}, {2, 4}}, {{0, 3}, {3, 6}}, HeatmapReduction::MaxAbs);
    QCOMPARE(got, (std::vector<float>{8, -50, 20, 23}));
    // The mean of the same block: (3 + 4 + 5 + 9 - 50 + 11) / 6.
    const auto mean = MatrixHeatmap::reduce(m, {{0, 2}}, {{3, 6}}, HeatmapReduction::Mean);
    QCOMPARE(mean[0], float(-18.0 / 6));
}

void TestMatrixHeatmap::reduce_non_finite() {
    // Blocks of 2x1: [NaN, 1], [+Inf, 1], [+Inf, -Inf], [-Inf, 2].
    const Matrix m = make(2, 4, {kNaN, kInf, kInf, -kInf, 1, 1, -kInf, 2});
    const Bins rows{{0, 2}}, cols{{0, 1}, {1, 2}, {2, 3}, {3, 4}};
    const auto mean = MatrixHeatmap::reduce(m, rows, cols, HeatmapReduction::Mean);
    QVERIFY(std::isnan(mean[0]));
    QCOMPARE(mean[1], kInf);
    QVERIFY(std::isnan(mean[2]));  // +Inf + -Inf
    QCOMPARE(mean[3], -kInf);
    const auto peak = MatrixHeatmap::reduce(m, rows, cols, HeatmapReduction::MaxAbs);
    QVERIFY(std::isnan(peak[0]));
    QCOMPARE(peak[1], kInf);
    QCOMPARE(std::fabs(peak[2]), kInf);
    QCOMPARE(peak[3], -kInf);
}

void TestMatrixHeatmap::bins_data() {
    QTest::addColumn<double>("offset");
    QTest::addColumn<double>("perPixel");
    QTest::addColumn<int>("pixels");
    QTest::addColumn<int>("count");
    QTest::addColumn<Bins>("expected");
    QTest::addColumn<QList<int>>("pixelBins");
    QTest::newRow("zoomed out 2:1, last bin clipped") << 0.0 << 2.0 << 3 << 5 << Bins{{0, 2}, {2, 4}, {4, 5}}
                                                       << QList<int>{0, 1, 2};
    QTest::newRow("zoomed in 1:4") << 0.0 << 0.25 << 8 << 2 << Bins{{0, 1}, {1, 2}} << QList<int>{0, 0, 0, 0, 1, 1, 1, 1};
    QTest::newRow("panned past both edges") << -1.0 << 1.0 << 4 << 2 << Bins{{0, 1}, {1, 2}} << QList<int>{-1, 0, 1, -1};
    QTest::newRow("fractional 1.5 per pixel") << 0.0 << 1.5 << 4 << 6 << Bins{{0, 1}, {1, 3}, {3, 4}, {4, 6}}
                                              << QList<int>{0, 1, 2, 3};
}

void TestMatrixHeatmap::bins() {
    QFETCH(double, offset);
    QFETCH(double, perPixel);
    QFETCH(int, pixels);
    QFETCH(int, count);
    QFETCH(Bins, expected);
    QFETCH(QList<int>, pixelBins);
    std::vector<int> px;
    QCOMPARE(MatrixHeatmap::bins(offset, perPixel, pixels, std::uint32_t(count), &px), expected);
    QCOMPARE(QList<int>(px.begin(), px.end()), pixelBins);
}

// ---- mapping ------------------------------------------------------------------------------------

void TestMatrixHeatmap::fit_maps_elements_to_widget() {
    MatrixHeatmap h;
    h.resize(300, 250);
    h.setMatrix(std::make_shared<const Matrix>(random_matrix(10, 20, 1)));
    h.setSquareCells(false);  // filling the widget: each axis on its own
    h.fitToView();
    const QRectF d = h.dataRect();
    QCOMPARE(d.width(), 300.0);
    QVERIFY(d.height() > 200 && d.height() < 250);  // less the legend strip
    QCOMPARE(h.colAxis().scale, 15.0);
    QCOMPARE(h.rowAxis().scale, d.height() / 10);
    QVERIFY(near_point(h.elementToWidget(QPointF(4, 2)), QPointF(60, 2 * d.height() / 10)));
    QVERIFY(near_point(h.elementToWidget(QPointF(20, 10)), d.bottomRight()));
    QVERIFY(near_point(h.widgetToElement(QPointF(150, d.height() / 2)), QPointF(10, 5)));
}

// Issue 30, item 5: a 97x33 matrix showed as a wide strip stretched to its panel. Square cells by
// default, centred; fill on request.
void TestMatrixHeatmap::square_cells_keep_the_shape() {
    MatrixHeatmap h;
    h.resize(400, 330);
    h.setMatrix(std::make_shared<const Matrix>(random_matrix(33, 97, 1)));
    QVERIFY(h.squareCells());
    const QRectF d = h.dataRect();
    const double s = std::min(d.width() / 97, d.height() / 33);
    QCOMPARE(h.rowAxis().scale, s);
    QCOMPARE(h.colAxis().scale, s);
    const QRectF shown(h.elementToWidget(QPointF(0, 0)), h.elementToWidget(QPointF(97, 33)));
    QVERIFY(near_point(shown.center(), d.center()));  // centred in the panel
    QVERIFY(std::abs(shown.width() / shown.height() - 97.0 / 33.0) < 1e-9);
    QVERIFY(d.adjusted(-1e-9, -1e-9, 1e-9, 1e-9).contains(shown));
    QVERIFY(!h.elementAt(QPointF(d.center().x(), shown.top() - 2)));  // above the matrix: nothing
    h.setSquareCells(false);
    QCOMPARE(h.colAxis().scale, d.width() / 97);
    QCOMPARE(h.rowAxis().scale, d.height() / 33);
}

// A, B and C as the matmul page links them: one square scale, A's rows level with C's, B's columns
// with C's; the choice to fill applies to the three.
void TestMatrixHeatmap::linked_views_share_one_square_scale() {
    QWidget page;
    auto* grid = new QGridLayout(&page);
    MatrixHeatmap *a = new MatrixHeatmap, *b = new MatrixHeatmap, *c = new MatrixHeatmap;
    grid->addWidget(b, 0, 1);
    grid->addWidget(a, 1, 0);
    grid->addWidget(c, 1, 1);
    MatrixHeatmap::shareCellShape({a, b, c});
    QObject::connect(a, &MatrixHeatmap::rowAxisChanged, c, [a, c] { c->setRowAxis(a->rowAxis()); });
    QObject::connect(c, &MatrixHeatmap::rowAxisChanged, a, [a, c] { a->setRowAxis(c->rowAxis()); });
    QObject::connect(b, &MatrixHeatmap::colAxisChanged, c, [b, c] { c->setColAxis(b->colAxis()); });
    QObject::connect(c, &MatrixHeatmap::colAxisChanged, b, [b, c] { b->setColAxis(c->colAxis()); });
    a->setMatrix(std::make_shared<const Matrix>(random_matrix(45, 61, 1)));
    b->setMatrix(std::make_shared<const Matrix>(random_matrix(61, 37, 2)));
    c->setMatrix(std::make_shared<const Matrix>(random_matrix(45, 37, 3)));
    page.resize(900, 640);
    page.show();
    QVERIFY(cvz::test::wait_exposed(&page));
    const double s = a->rowAxis().scale;
    for (MatrixHeatmap* v : {a, b, c}) {
        QCOMPARE(v->rowAxis().scale, s);
        QCOMPARE(v->colAxis().scale, s);
        const QRectF shown(v->elementToWidget(QPointF(0, 0)), v->elementToWidget(QPointF(v->matrix()->cols, v->matrix()->rows)));
        QVERIFY(v->dataRect().adjusted(-1e-6, -1e-6, 1e-6, 1e-6).contains(shown));
    }
    QCOMPARE(a->rowAxis(), c->rowAxis());
    QCOMPARE(b->colAxis(), c->colAxis());
    // A and B that do not match: C is emptied, and A and B still fit their panels, square.
    c->setMatrix(nullptr);
    a->setMatrix(std::make_shared<const Matrix>(random_matrix(45, 50, 4)));
    QVERIFY(a->rowAxis().scale > 2);
    QCOMPARE(a->rowAxis().scale, a->colAxis().scale);
    auto fit = [](const MatrixHeatmap* v) {
        return std::min(v->dataRect().width() / v->matrix()->cols, v->dataRect().height() / v->matrix()->rows);
    };
    QCOMPARE(a->rowAxis().scale, std::min(fit(a), fit(b)));
    c->setMatrix(std::make_shared<const Matrix>(random_matrix(45, 37, 3)));
    c->setSquareCells(false);
    for (MatrixHeatmap* v : {a, b, c}) QVERIFY(!v->squareCells());
    QCOMPARE(a->rowAxis(), c->rowAxis());
    QCOMPARE(b->colAxis(), c->colAxis());
    QCOMPARE(c->colAxis().scale, c->dataRect().width() / 37);
    QCOMPARE(c->rowAxis().scale, c->dataRect().height() / 45);
}

void TestMatrixHeatmap::zoom_keeps_element_under_cursor_data() {
    QTest::addColumn<QPointF>("cursor");
    QTest::addColumn<double>("factor");
    QTest::newRow("in at the centre") << QPointF(150, 100) << 2.0;
    QTest::newRow("in at a corner") << QPointF(3, 7) << 4.0;
    QTest::newRow("out off centre") << QPointF(200, 40) << 0.5;
}

void TestMatrixHeatmap::zoom_keeps_element_under_cursor() {
    QFETCH(QPointF, cursor);
    QFETCH(double, factor);
    MatrixHeatmap h;
    h.resize(300, 250);
    h.setMatrix(std::make_shared<const Matrix>(random_matrix(10, 20, 1)));
    QSignalSpy rows(&h, &MatrixHeatmap::rowAxisChanged), cols(&h, &MatrixHeatmap::colAxisChanged);
    const QPointF before = h.widgetToElement(cursor);
    const double col_scale = h.colAxis().scale;
    h.zoomAbout(cursor, factor);
    QVERIFY(near_point(h.widgetToElement(cursor), before));
    QCOMPARE(h.colAxis().scale, col_scale * factor);
    QVERIFY(!h.colAxis().fitting && !h.rowAxis().fitting);
    QCOMPARE(rows.count(), 1);
    QCOMPARE(cols.count(), 1);
}

void TestMatrixHeatmap::pan_moves_elements_with_mouse() {
    MatrixHeatmap h;
    h.resize(300, 250);
    h.setMatrix(std::make_shared<const Matrix>(random_matrix(10, 20, 1)));
    h.zoomAbout(QPointF(100, 100), 3);
    const QPointF e(7.25, 3.5);
    const QPointF before = h.elementToWidget(e);
    h.panBy(QPointF(30, -12));
    QVERIFY(near_point(h.elementToWidget(e), before + QPointF(30, -12)));
}

void TestMatrixHeatmap::element_at_round_trips_under_zoom_and_pan() {
    MatrixHeatmap h;
    h.resize(300, 250);
    h.setMatrix(std::make_shared<const Matrix>(random_matrix(10, 20, 1)));
    h.zoomAbout(QPointF(100, 80), 2.5);
    h.panBy(QPointF(-17, 9));
    int inside = 0;
    for (int r = 0; r < 10; ++r)
        for (int c = 0; c < 20; ++c) {
            const QPointF w = h.elementToWidget(QPointF(c + 0.5, r + 0.5));
            const auto at = h.elementAt(w);
            if (!h.dataRect().contains(w)) {
                QVERIFY(!at);
                continue;
            }
            ++inside;
            QVERIFY(at);
            QCOMPARE(at->first, r);
            QCOMPARE(at->second, c);
        }
    QVERIFY(inside > 10);
    // Outside the matrix (left of column 0) and in the legend strip there is no element.
    QVERIFY(!h.elementAt(h.elementToWidget(QPointF(-0.5, 1.5))));
    QVERIFY(!h.elementAt(QPointF(10, h.height() - 2)));
}

void TestMatrixHeatmap::mouse_navigation() {
    MatrixHeatmap h;
    h.resize(300, 250);
    h.setMatrix(std::make_shared<const Matrix>(random_matrix(10, 20, 1)));
    h.show();
    QVERIFY(cvz::test::wait_exposed(&h));
    const HeatmapAxis fitted_rows = h.rowAxis(), fitted_cols = h.colAxis();

    const QPointF cursor(120, 90);
    const QPointF under = h.widgetToElement(cursor);
    QWheelEvent wheel(cursor, h.mapToGlobal(cursor), QPoint(), QPoint(0, 120), Qt::NoButton, Qt::NoModifier,
                      Qt::NoScrollPhase, false);
    QApplication::sendEvent(&h, &wheel);
    QCOMPARE(h.colAxis().scale, fitted_cols.scale * 1.25);
    QVERIFY(near_point(h.widgetToElement(cursor), under));

    const QPointF e(5.5, 4.5);
    const QPointF start = h.elementToWidget(e);
    QTest::mousePress(&h, Qt::LeftButton, {}, QPoint(100, 100));
    QTest::mouseMove(&h, QPoint(110, 105));
    QTest::mouseMove(&h, QPoint(140, 120));
    QTest::mouseRelease(&h, Qt::LeftButton, {}, QPoint(140, 120));
    QVERIFY(near_point(h.elementToWidget(e), start + QPointF(40, 20)));

    QTest::mouseDClick(&h, Qt::LeftButton, {}, QPoint(50, 50));
    QCOMPARE(h.rowAxis(), fitted_rows);
    QCOMPARE(h.colAxis(), fitted_cols);
}

void TestMatrixHeatmap::click_emits_element() {
    MatrixHeatmap h;
    h.resize(300, 250);
    h.setMatrix(std::make_shared<const Matrix>(random_matrix(10, 20, 1)));
    h.zoomAbout(QPointF(0, 0), 2);
    h.show();
    QVERIFY(cvz::test::wait_exposed(&h));
    QSignalSpy clicked(&h, &MatrixHeatmap::elementClicked);
    const QPointF target = h.elementToWidget(QPointF(3.5, 2.5));
    QVERIFY(h.dataRect().contains(target));
    QTest::mouseClick(&h, Qt::LeftButton, {}, target.toPoint());
    QCOMPARE(clicked.count(), 1);
    QCOMPARE(clicked[0][0].toInt(), 2);
    QCOMPARE(clicked[0][1].toInt(), 3);
}

void TestMatrixHeatmap::hover_reports_element() {
    MatrixHeatmap h;
    h.resize(300, 250);
    h.setMatrix(std::make_shared<const Matrix>(make(2, 3, {1, 2, 3, 4, 5, 6.5f})));
    h.show();
    QVERIFY(cvz::test::wait_exposed(&h));
    QSignalSpy hovered(&h, &MatrixHeatmap::elementHovered);
    cvz::test::hover(&h, h.elementToWidget(QPointF(2.5, 1.5)).toPoint());
    QTRY_VERIFY_WITH_TIMEOUT(!hovered.isEmpty(), 120000);
    QCOMPARE(hovered.last()[0].toInt(), 1);
    QCOMPARE(hovered.last()[1].toInt(), 2);
}

// ---- on screen ----------------------------------------------------------------------------------

void TestMatrixHeatmap::screen_shows_colors() {
    MatrixHeatmap h;
    h.resize(200, 220);
    // Scale 2: -2 deep blue, 0 centre, 2 deep red, NaN marker.
    h.setMatrix(std::make_shared<const Matrix>(make(2, 2, {-2, 0, 2, kNaN})));
    const QImage shot = h.grab().toImage();
    auto at = [&](double row, double col) { return shot.pixel(h.elementToWidget(QPointF(col, row)).toPoint()); };
    QCOMPARE(at(0.5, 0.5), MatrixHeatmap::colorFor(-2, 2));
    QCOMPARE(at(0.5, 1.5), MatrixHeatmap::colorFor(0, 2));
    QCOMPARE(at(1.5, 0.5), MatrixHeatmap::colorFor(2, 2));
    QCOMPARE(at(1.5, 1.5), MatrixHeatmap::nanColor().rgb());
    QCOMPARE(h.maxAbs(), 2.0f);
}

void TestMatrixHeatmap::screen_shows_reduction_mode() {
    // 400 rows into about 100 pixel rows: each pixel covers 4 rows of +1, +1, -1, -1.
    std::vector<float> d(400 * 3);
    for (std::size_t r = 0; r < 400; ++r)
        for (std::size_t c = 0; c < 3; ++c) d[r * 3 + c] = (r % 4) < 2 ? 1.0f : -1.0f;
    MatrixHeatmap h;
    h.resize(90, 100 + (h.height() - int(h.dataRect().height())));
    h.setMatrix(std::make_shared<const Matrix>(make(400, 3, d)));
    QCOMPARE(h.dataRect().height(), 100.0);
    QVERIFY(h.cellDescription().contains(QStringLiteral("mean")));
    QCOMPARE(h.grab().toImage().pixel(45, 50), MatrixHeatmap::colorFor(0, 1));
    h.setReduction(HeatmapReduction::MaxAbs);
    QVERIFY(h.cellDescription().contains(QStringLiteral("max |v|")));
    // The first of equal magnitudes wins: +1.
    QCOMPARE(h.grab().toImage().pixel(45, 50), MatrixHeatmap::colorFor(1, 1));
}

void TestMatrixHeatmap::wrong_elements_are_marked() {
    MatrixHeatmap h;
    h.resize(200, 220);
    h.setMatrix(std::make_shared<const Matrix>(make(2, 2, {0, 0, 0, 0})));
    h.setWrongMask(std::make_shared<const std::vector<std::uint8_t>>(std::vector<std::uint8_t>{0, 1, 0, 0}));
    QImage shot = h.grab().toImage();
    // Big cells: outlined, the value inside stays readable.
    const QPointF corner = h.elementToWidget(QPointF(1, 0));
    QCOMPARE(shot.pixel((corner + QPointF(1, 20)).toPoint()), MatrixHeatmap::wrongColor().rgb());
    QCOMPARE(shot.pixel(h.elementToWidget(QPointF(1.5, 0.5)).toPoint()), MatrixHeatmap::colorFor(0, 1));
    QCOMPARE(shot.pixel(h.elementToWidget(QPointF(0.5, 0.5)).toPoint()), MatrixHeatmap::colorFor(0, 1));

    // Zoomed out so far that one pixel covers many elements: a single wrong element still tints its cell.
    std::vector<std::uint8_t> mask(1000 * 1000, 0);
    mask[std::size_t(500) * 1000 + 500] = 1;
    h.setMatrix(std::make_shared<const Matrix>(make(1000, 1000, std::vector<float>(1000 * 1000, 0.0f))));
    h.setWrongMask(std::make_shared<const std::vector<std::uint8_t>>(mask));
    shot = h.grab().toImage();
    const QRgb tinted = shot.pixel(h.elementToWidget(QPointF(500.5, 500.5)).toPoint());
    QVERIFY2(qRed(tinted) > 200 && qGreen(tinted) < 120, qPrintable(rgb_text(tinted)));
    QCOMPARE(shot.pixel(h.elementToWidget(QPointF(100.5, 100.5)).toPoint()), MatrixHeatmap::colorFor(0, 1));
}

void TestMatrixHeatmap::mnist_sized_matrix_renders() {
    // The lecture's 50000x784 input: reduced once per view change. The time is reported, not judged.
    auto m = std::make_shared<Matrix>(random_matrix(50000, 784, 7));
    m->data[std::size_t(25000) * 784 + 400] = kNaN;
    MatrixHeatmap h;
    h.resize(500, 400);
    QElapsedTimer t;
    t.start();
    h.setMatrix(m);
    const QImage shot = h.grab().toImage();
    const qint64 first = t.elapsed();
    const QPoint nan_pos = h.elementToWidget(QPointF(400.5, 25000.5)).toPoint();
    t.restart();
    h.zoomAbout(QPointF(250, 200), 1.25);
    h.grab();
    qInfo("50000x784: set + first paint %lld ms, re-reduce after zoom %lld ms", first, qint64(t.elapsed()));
    // Mean reduction: the NaN marks its cell; the rest averages ~0 (near the centre colour).
    QCOMPARE(shot.pixel(nan_pos), MatrixHeatmap::nanColor().rgb());
    QVERIFY(h.cellDescription().contains(QStringLiteral("mean")));
}

QTEST_MAIN(TestMatrixHeatmap)
#include "tst_matrix_heatmap.moc"
