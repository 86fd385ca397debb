// The shared view transform (zoom about a point, pan, fit, widget <-> image mapping) and the mouse
// navigation both views use, as data-driven cases. No OpenGL needed: the navigator is exercised on
// the raster view, which uses the same transform and event filter as the GL view.
#include <QtTest>

#include <QSignalSpy>
#include <QWheelEvent>

#include <cmath>

#include "support/window_waits.h"
#include "support/hover.h"
#include "ui/views/raster_image_view.h"
#include "ui/views/view_navigator.h"
#include "ui/views/view_transform.h"

using namespace cvz;

namespace {

// Widget positions are rounded to whole pixels by design (see ViewTransform::origin): a point kept
// "in place" may move by up to half a pixel.
bool near(QPointF a, QPointF b, double tolerance) {
    return std::abs(a.x() - b.x()) <= tolerance && std::abs(a.y() - b.y()) <= tolerance;
}

void set_state(ViewTransform& t, QSize image, double zoom, QPointF center) {
    t.setImageSize(image);
    t.setZoom(zoom);
    t.setCenter(center);
}

}  // namespace

class TestImageView : public QObject {
    Q_OBJECT
private slots:
    void maps_image_to_widget_data();
    void maps_image_to_widget();
    void origin_snaps_to_whole_pixels_data();
    void origin_snaps_to_whole_pixels();
    void zoom_about_point_keeps_it_under_cursor_data();
    void zoom_about_point_keeps_it_under_cursor();
    void zoom_is_clamped_data();
    void zoom_is_clamped();
    void pan_moves_image_with_mouse_data();
    void pan_moves_image_with_mouse();
    void fit_shows_whole_image_centred_data();
    void fit_shows_whole_image_centred();
    void fitting_ends_when_user_navigates();
    void signals_only_on_real_change();
    void wheel_factor();
    void wheel_on_view_zooms_about_cursor();
    void drag_on_view_pans();
    void view_mapping_uses_its_own_size();
    void fit_to_content_past_the_image_data();
    void fit_to_content_past_the_image();
    void click_is_press_and_release_in_place_data();
    void click_is_press_and_release_in_place();
    void hover_reports_without_button();
};

// ---- mapping ------------------------------------------------------------------------------------

void TestImageView::maps_image_to_widget_data() {
    QTest::addColumn<QSize>("image");
    QTest::addColumn<QSizeF>("view");
    QTest::addColumn<double>("zoom");
    QTest::addColumn<QPointF>("center");
    QTest::addColumn<QPointF>("imagePoint");
    QTest::addColumn<QPointF>("widgetPoint");

    // View centre (50, 40); image centre (48.5, 16.5) -> origin round(1.5, 23.5) = (2, 24).
    QTest::newRow("100%, centred, odd image") << QSize(97, 33) << QSizeF(100, 80) << 1.0 << QPointF(48.5, 16.5)
                                              << QPointF(0, 0) << QPointF(2, 24);
    QTest::newRow("100%, far corner") << QSize(97, 33) << QSizeF(100, 80) << 1.0 << QPointF(48.5, 16.5)
                                      << QPointF(97, 33) << QPointF(99, 57);
    // Origin = (300 - 10*4, 200 - 20*4) = (260, 120).
    QTest::newRow("400%, off centre") << QSize(64, 48) << QSizeF(600, 400) << 4.0 << QPointF(10, 20)
                                      << QPointF(12.5, 3) << QPointF(310, 132);
    // Origin = (300 - 640*0.25, 200 - 360*0.25) = (140, 110).
    QTest::newRow("25%, zoomed out") << QSize(1280, 720) << QSizeF(600, 400) << 0.25 << QPointF(640, 360)
                                     << QPointF(1280, 0) << QPointF(460, 110);
    QTest::newRow("image centre at view centre") << QSize(200, 100) << QSizeF(500, 300) << 2.0
                                                 << QPointF(100, 50) << QPointF(100, 50) << QPointF(250, 150);
}

void TestImageView::maps_image_to_widget() {
    QFETCH(QSize, image);
    QFETCH(QSizeF, view);
    QFETCH(double, zoom);
    QFETCH(QPointF, center);
    QFETCH(QPointF, imagePoint);
    QFETCH(QPointF, widgetPoint);

    ViewTransform t;
    set_state(t, image, zoom, center);
    QCOMPARE(t.imageToWidget(imagePoint, view), widgetPoint);
    QCOMPARE(t.widgetToImage(widgetPoint, view), imagePoint);
    // The QTransform the views draw with agrees with the point mapping.
    QCOMPARE(t.imageToWidgetTransform(view).map(imagePoint), widgetPoint);
    QCOMPARE(t.imageRectInWidget(view).topLeft(), t.imageToWidget(QPointF(0, 0), view));
    QCOMPARE(t.imageRectInWidget(view).size(), QSizeF(image) * zoom);
}

void TestImageView::origin_snaps_to_whole_pixels_data() {
    QTest::addColumn<QSizeF>("view");
    QTest::addColumn<double>("zoom");
    QTest::addColumn<QPointF>("center");

    QTest::newRow("odd view, 100%") << QSizeF(101, 77) << 1.0 << QPointF(48.5, 16.5);
    QTest::newRow("even view, 300%") << QSizeF(600, 400) << 3.0 << QPointF(10.3, 7.7);
    QTest::newRow("fractional zoom") << QSizeF(333, 211) << 1.37 << QPointF(99.9, 0.1);
}

void TestImageView::origin_snaps_to_whole_pixels() {
    QFETCH(QSizeF, view);
    QFETCH(double, zoom);
    QFETCH(QPointF, center);

    ViewTransform t;
    set_state(t, QSize(97, 33), zoom, center);
    const QPointF o = t.origin(view);
    QCOMPARE(o.x(), std::round(o.x()));
    QCOMPARE(o.y(), std::round(o.y()));
    // Off from the exact position by at most half a pixel.
    QVERIFY(near(o, QPointF(view.width() / 2, view.height() / 2) - center * zoom, 0.5));
}

// ---- zoom ---------------------------------------------------------------------------------------

void TestImageView::zoom_about_point_keeps_it_under_cursor_data() {
    QTest::addColumn<double>("zoom");
    QTest::addColumn<QPointF>("cursor");
    QTest::addColumn<double>("factor");

    QTest::newRow("in, top-left quadrant") << 1.0 << QPointF(37, 21) << 2.0;
    QTest::newRow("in, view centre") << 1.0 << QPointF(300, 200) << 1.25;
    QTest::newRow("out, bottom-right") << 4.0 << QPointF(590, 390) << 0.5;
    QTest::newRow("one wheel notch") << 0.8 << QPointF(123, 345) << ViewNavigator::wheelFactor(120);
    QTest::newRow("cursor outside the image") << 1.0 << QPointF(2, 3) << 3.0;
}

void TestImageView::zoom_about_point_keeps_it_under_cursor() {
    QFETCH(double, zoom);
    QFETCH(QPointF, cursor);
    QFETCH(double, factor);

    const QSizeF view(600, 400);
    ViewTransform t;
    set_state(t, QSize(451, 300), zoom, QPointF(200, 140));
    const QPointF under_cursor = t.widgetToImage(cursor, view);
    t.zoomAbout(cursor, view, factor);
    QCOMPARE(t.zoom(), zoom * factor);
    QVERIFY2(near(t.imageToWidget(under_cursor, view), cursor, 0.5),
             qPrintable(QStringLiteral("moved to %1,%2").arg(t.imageToWidget(under_cursor, view).x())
                            .arg(t.imageToWidget(under_cursor, view).y())));
}

void TestImageView::zoom_is_clamped_data() {
    QTest::addColumn<double>("requested");
    QTest::addColumn<double>("expected");

    QTest::newRow("within range") << 3.0 << 3.0;
    QTest::newRow("too far in") << 1000.0 << ViewTransform::kMaxZoom;
    QTest::newRow("too far out") << 1e-6 << ViewTransform::kMinZoom;
}

void TestImageView::zoom_is_clamped() {
    QFETCH(double, requested);
    QFETCH(double, expected);

    ViewTransform t;
    t.setImageSize(QSize(97, 33));
    t.setZoom(requested);
    QCOMPARE(t.zoom(), expected);
    t.setZoom(1);
    t.zoomAbout(QPointF(10, 10), QSizeF(100, 100), requested);
    QCOMPARE(t.zoom(), expected);
}

// ---- pan and fit --------------------------------------------------------------------------------

void TestImageView::pan_moves_image_with_mouse_data() {
    QTest::addColumn<double>("zoom");
    QTest::addColumn<QPointF>("delta");

    QTest::newRow("100%, right and down") << 1.0 << QPointF(15, 7);
    QTest::newRow("400%, left") << 4.0 << QPointF(-33, 0);
    QTest::newRow("50%, up") << 0.5 << QPointF(0, -12);
}

void TestImageView::pan_moves_image_with_mouse() {
    QFETCH(double, zoom);
    QFETCH(QPointF, delta);

    const QSizeF view(600, 400);
    ViewTransform t;
    set_state(t, QSize(451, 300), zoom, QPointF(225.5, 150));
    const QPointF before = t.imageToWidget(QPointF(100, 100), view);
    t.panBy(delta);
    QVERIFY(near(t.imageToWidget(QPointF(100, 100), view), before + delta, 0.5));
    QCOMPARE(t.center(), QPointF(225.5, 150) - delta / zoom);
}

void TestImageView::fit_shows_whole_image_centred_data() {
    QTest::addColumn<QSize>("image");
    QTest::addColumn<QSizeF>("view");
    QTest::addColumn<double>("zoom");

    QTest::newRow("wide image, width limits") << QSize(451, 300) << QSizeF(300, 400) << 300.0 / 451;
    QTest::newRow("tall image, height limits") << QSize(33, 97) << QSizeF(600, 400) << 400.0 / 97;
    QTest::newRow("exact fit") << QSize(600, 400) << QSizeF(600, 400) << 1.0;
    QTest::newRow("tiny image is enlarged") << QSize(4, 2) << QSizeF(100, 100) << 25.0;
    QTest::newRow("huge image below the usual minimum")
        << QSize(1 << 20, 256) << QSizeF(600, 400) << std::max(600.0 / (1 << 20), ViewTransform::kMinZoom);
}

void TestImageView::fit_shows_whole_image_centred() {
    QFETCH(QSize, image);
    QFETCH(QSizeF, view);
    QFETCH(double, zoom);

    ViewTransform t;
    t.setImageSize(image);
    t.setZoom(7);
    t.fitTo(view);
    QCOMPARE(t.zoom(), zoom);
    QCOMPARE(t.center(), QPointF(image.width() / 2.0, image.height() / 2.0));
    QVERIFY(t.fitting());
    const QRectF r = t.imageRectInWidget(view);
    QVERIFY(QRectF(QPointF(0, 0), view).adjusted(-0.5, -0.5, 0.5, 0.5).contains(r));
    // Centred: equal margins within the half-pixel rounding.
    QVERIFY(std::abs(r.left() - (view.width() - r.right())) <= 1.0);
    QVERIFY(std::abs(r.top() - (view.height() - r.bottom())) <= 1.0);
}

void TestImageView::fitting_ends_when_user_navigates() {
    ViewTransform t;
    t.setImageSize(QSize(97, 33));
    t.fitTo(QSizeF(200, 100));
    QVERIFY(t.fitting());
    t.panBy(QPointF(3, 0));
    QVERIFY(!t.fitting());
    t.fitTo(QSizeF(200, 100));
    t.zoomAbout(QPointF(1, 1), QSizeF(200, 100), 1.5);
    QVERIFY(!t.fitting());
    t.fitTo(QSizeF(200, 100));
    t.setZoom(1);
    QVERIFY(!t.fitting());
}

void TestImageView::signals_only_on_real_change() {
    ViewTransform t;
    t.setImageSize(QSize(97, 33));
    t.setZoom(2);
    QSignalSpy changed(&t, &ViewTransform::changed);
    QSignalSpy zoomed(&t, &ViewTransform::zoomChanged);
    t.setZoom(2);
    t.setCenter(t.center());
    t.panBy(QPointF(0, 0));
    t.setImageSize(QSize(97, 33));
    QCOMPARE(changed.count(), 0);
    QCOMPARE(zoomed.count(), 0);
    t.panBy(QPointF(1, 0));
    QCOMPARE(changed.count(), 1);
    QCOMPARE(zoomed.count(), 0);
    t.setZoom(3);
    QCOMPARE(changed.count(), 2);
    QCOMPARE(zoomed.count(), 1);
    QCOMPARE(zoomed.first().first().toDouble(), 3.0);
}

// ---- mouse navigation on a real view ------------------------------------------------------------

void TestImageView::wheel_factor() {
    QCOMPARE(ViewNavigator::wheelFactor(0), 1.0);
    QCOMPARE(ViewNavigator::wheelFactor(4 * 120), 2.0);
    QCOMPARE(ViewNavigator::wheelFactor(-4 * 120), 0.5);
    QCOMPARE(ViewNavigator::wheelFactor(120) * ViewNavigator::wheelFactor(-120), 1.0);
}

void TestImageView::wheel_on_view_zooms_about_cursor() {
    ViewTransform t;
    RasterImageView view(&t);
    view.resize(400, 300);
    t.setImageSize(QSize(97, 33));
    t.setZoom(2);
    const QPointF cursor(150, 120);
    const QPointF under_cursor = view.widgetToImage(cursor);
    QWheelEvent wheel(cursor, view.mapToGlobal(cursor), QPoint(), QPoint(0, 240), Qt::NoButton, Qt::NoModifier,
                      Qt::NoScrollPhase, false);
    QApplication::sendEvent(&view, &wheel);
    QCOMPARE(t.zoom(), 2 * ViewNavigator::wheelFactor(240));
    QVERIFY(near(view.imageToWidget(under_cursor), cursor, 0.5));
}

void TestImageView::drag_on_view_pans() {
    ViewTransform t;
    RasterImageView view(&t);
    view.resize(400, 300);
    t.setImageSize(QSize(97, 33));
    t.setZoom(3);
    t.setCenter(QPointF(40.25, 12.25));  // no origin exactly half-way between pixels: no rounding tie
    const QPointF before = view.imageToWidget(QPointF(10, 10));
    auto send = [&view](QEvent::Type type, QPointF pos, Qt::MouseButton button, Qt::MouseButtons buttons) {
        QMouseEvent event(type, pos, view.mapToGlobal(pos), button, buttons, Qt::NoModifier);
        QApplication::sendEvent(&view, &event);
    };
    send(QEvent::MouseButtonPress, QPointF(100, 100), Qt::LeftButton, Qt::LeftButton);
    send(QEvent::MouseMove, QPointF(115, 90), Qt::NoButton, Qt::LeftButton);
    send(QEvent::MouseMove, QPointF(130, 80), Qt::NoButton, Qt::LeftButton);
    send(QEvent::MouseButtonRelease, QPointF(130, 80), Qt::LeftButton, Qt::NoButton);
    QCOMPARE(view.imageToWidget(QPointF(10, 10)), before + QPointF(30, -20));
    // Moving without a button pressed does nothing.
    send(QEvent::MouseMove, QPointF(10, 10), Qt::NoButton, Qt::NoButton);
    QCOMPARE(view.imageToWidget(QPointF(10, 10)), before + QPointF(30, -20));
}

void TestImageView::view_mapping_uses_its_own_size() {
    // Two views of different sizes on one transform show the same image point at their centres.
    ViewTransform t;
    RasterImageView a(&t), b(&t);
    a.resize(400, 300);
    b.resize(401, 299);
    t.setImageSize(QSize(97, 33));
    t.setZoom(5);
    t.setCenter(QPointF(40, 12));
    QVERIFY(near(a.widgetToImage(QPointF(200, 150)), QPointF(40, 12), 0.11));
    QVERIFY(near(b.widgetToImage(QPointF(200.5, 149.5)), QPointF(40, 12), 0.11));  // half a pixel / zoom
    for (const QPointF p : {QPointF(0, 0), QPointF(97, 33), QPointF(13.25, 7.5)}) {
        QCOMPARE(a.widgetToImage(a.imageToWidget(p)), p);
        QCOMPARE(b.widgetToImage(b.imageToWidget(p)), p);
    }
}

// The overlay's grid may reach past the image (idle threads): fitting that extent keeps it all in
// view, centred, and stays in "fitting" mode like a plain fit.
void TestImageView::fit_to_content_past_the_image_data() {
    QTest::addColumn<QSize>("image");
    QTest::addColumn<QSizeF>("content");
    QTest::addColumn<QSizeF>("view");
    QTest::newRow("2-D 32x32 over 451x300") << QSize(451, 300) << QSizeF(480, 320) << QSizeF(600, 400);
    QTest::newRow("1-D idle rows below") << QSize(97, 33) << QSizeF(97, 35) << QSizeF(300, 500);
    QTest::newRow("content = image") << QSize(97, 33) << QSizeF(97, 33) << QSizeF(300, 200);
}

void TestImageView::fit_to_content_past_the_image() {
    QFETCH(QSize, image);
    QFETCH(QSizeF, content);
    QFETCH(QSizeF, view);
    ViewTransform t;
    t.setImageSize(image);
    t.setZoom(7);
    t.fitTo(view, content);
    QVERIFY(t.fitting());
    QCOMPARE(t.zoom(), ViewTransform::fitZoom(content.toSize(), view));
    QCOMPARE(t.center(), QPointF(content.width() / 2, content.height() / 2));
    const QRectF shown(t.imageToWidget(QPointF(0, 0), view), t.imageToWidget(QPointF(content.width(), content.height()), view));
    QVERIFY(QRectF(QPointF(0, 0), view).adjusted(-1, -1, 1, 1).contains(shown));
}

void TestImageView::click_is_press_and_release_in_place_data() {
    QTest::addColumn<QPoint>("press");
    QTest::addColumn<QPoint>("release");
    QTest::addColumn<bool>("click");
    QTest::newRow("in place") << QPoint(100, 80) << QPoint(100, 80) << true;
    QTest::newRow("a hand's tremor") << QPoint(100, 80) << QPoint(102, 81) << true;
    QTest::newRow("a drag") << QPoint(100, 80) << QPoint(130, 60) << false;
}

// A click picks a pixel for the inspector; a drag pans and picks nothing.
void TestImageView::click_is_press_and_release_in_place() {
    QFETCH(QPoint, press);
    QFETCH(QPoint, release);
    QFETCH(bool, click);
    ViewTransform t;
    RasterImageView view(&t);
    view.resize(400, 300);
    t.setImageSize(QSize(97, 33));
    auto* navigator = view.findChild<ViewNavigator*>();
    QVERIFY(navigator);
    QSignalSpy clicked(navigator, &ViewNavigator::clicked);
    const QPointF centre_before = t.center();
    QTest::mousePress(&view, Qt::LeftButton, Qt::NoModifier, press);
    QTest::mouseMove(&view, release);
    QTest::mouseRelease(&view, Qt::LeftButton, Qt::NoModifier, release);
    QCOMPARE(clicked.count(), click ? 1 : 0);
    if (click) QCOMPARE(clicked.at(0).at(0).toPointF(), QPointF(release));
    else QVERIFY(t.center() != centre_before);
}

void TestImageView::hover_reports_without_button() {
    ViewTransform t;
    RasterImageView view(&t);
    view.resize(400, 300);
    view.show();
    QVERIFY(cvz::test::wait_exposed(&view));
    auto* navigator = view.findChild<ViewNavigator*>();
    QSignalSpy hovered(navigator, &ViewNavigator::hovered);
    QSignalSpy left(navigator, &ViewNavigator::left);
    QVERIFY(view.hasMouseTracking());
    cvz::test::hover(&view, QPoint(50, 60));
    QTRY_VERIFY_WITH_TIMEOUT(hovered.count() >= 1, 120000);
    QCOMPARE(hovered.last().at(0).toPointF(), QPointF(50, 60));
    QEvent leave(QEvent::Leave);
    QApplication::sendEvent(&view, &leave);
    QCOMPARE(left.count(), 1);
}

// Without a display (no Xvfb), run on Qt's offscreen platform rather than not at all.
int main(int argc, char* argv[]) {
    if (qEnvironmentVariableIsEmpty("DISPLAY") && qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY") &&
        qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    TestImageView test;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&test, argc, argv);
}
#include "tst_image_view.moc"
