#include "ui/views/raster_overlay.h"

#include <QColor>

#include <algorithm>
#include <cmath>

#include "app/models/overlay_geometry.h"
#include "ui/views/block_colors.h"
#include "ui/views/overlay_state.h"
#include "ui/views/view_transform.h"

namespace cvz {

namespace {

struct Rgb {
    float r = 0, g = 0, b = 0;
};

Rgb rgb(const QColor& c) { return {float(c.redF()), float(c.greenF()), float(c.blueF())}; }
Rgb rgb(QRgb c) { return {qRed(c) / 255.0f, qGreen(c) / 255.0f, qBlue(c) / 255.0f}; }
Rgb mix(Rgb a, Rgb b, double t) {
    const float f = float(t);
    return {a.r + (b.r - a.r) * f, a.g + (b.g - a.g) * f, a.b + (b.b - a.b) * f};
}
Rgb scaled(Rgb a, double f) { return {float(a.r * f), float(a.g * f), float(a.b * f)}; }
QRgb to_qrgb(Rgb c) {
    auto byte = [](float v) { return int(std::lround(std::clamp(v, 0.0f, 1.0f) * 255.0f)); };
    return qRgb(byte(c.r), byte(c.g), byte(c.b));
}

// The shader's Cell, from the launch plan.
struct Cell {
    bool grid = false;
    bool inside = false;
    bool active = false;
    std::int64_t block = -1;
    std::int64_t thread = 0;
    std::int64_t warp = 0;
};

// One lookup per call site, remembered: neighbouring device pixels mostly share their cell.
class CellCache {
public:
    explicit CellCache(const LaunchPlan& plan) : plan_(plan) {}
    const Cell& at(std::int64_t x, std::int64_t y) {
        if (valid_ && x == x_ && y == y_) return cell_;
        const GridCell g = grid_cell(plan_, x, y);
        cell_ = Cell{g.in_grid, g.inside, g.active, g.in_grid ? std::int64_t(g.thread.linear_block) : -1,
                     std::int64_t(g.thread.linear_thread), std::int64_t(g.thread.warp)};
        x_ = x;
        y_ = y;
        valid_ = true;
        return cell_;
    }

private:
    const LaunchPlan& plan_;
    Cell cell_;
    std::int64_t x_ = 0, y_ = 0;
    bool valid_ = false;
};

class Shader {
public:
    Shader(const OverlayState& state, const QImage& image, const QImage& source, double px)
        : s_(state), a_(state.animation), image_(image), source_(source), px_(px), c_(state.plan), l1_(state.plan),
          u1_(state.plan), l2_(state.plan), u2_(state.plan) {
        anim_ = a_.mode != AnimationMode::Off;
        warp_block_ = anim_ ? a_.block : -1;
        line_fade_ = state.blockLineFade(1 / px);
        warp_fade_ = state.warpLineFade(1 / px);
        focus_ = state.focusRing(1 / px);
    }

    // image.frag's main(), for the image point `p` and the fragment's gl_FragCoord.
    QRgb shade(QPointF p, QPointF frag_coord) {
        namespace st = overlay_style;
        const std::int64_t cx = std::int64_t(std::floor(p.x())), cy = std::int64_t(std::floor(p.y()));
        const Cell c = c_.at(cx, cy);
        if (!c.grid) return to_qrgb(focus(p, rgb(st::kBackground)));
        const bool overlay = s_.enabled;
        const bool colored = overlay && s_.coloring != OverlayColoring::None;
        Rgb col = rgb(st::kBackground);

        const int state = stateOf(c);
        if (c.inside) {
            col = rgb(state > 0 && !source_.isNull() ? source_.pixel(int(cx), int(cy)) : image_.pixel(int(cx), int(cy)));
            if (anim_ && warp_block_ >= 0 && c.block != warp_block_) col = scaled(col, st::kDimOthers);
            double a = colored && !anim_ ? s_.opacity : 0.0;  // animating: only running units tinted
            if (state == 1) a = colored ? std::max(s_.opacity, st::kRunningTint) : st::kRunningTint;
            col = mix(col, colored ? modeColor(c) : rgb(color_for_id(std::uint64_t(c.block))), a);
        } else if (overlay && s_.show_idle) {
            const double stripe = std::fmod(std::floor((frag_coord.x() + frag_coord.y()) / st::kHatchPeriod), 2.0);
            const Rgb tint = colored ? modeColor(c) : Rgb{0.6f, 0.6f, 0.6f};
            col = stripe < 0.5 ? scaled(tint, st::kHatchShade) : rgb(st::kHatchDark);
        }

        const Cell l1 = l1_.at(std::int64_t(std::floor(p.x() - px_)), cy);
        const Cell u1 = u1_.at(cx, std::int64_t(std::floor(p.y() - px_)));
        const Cell l2 = l2_.at(std::int64_t(std::floor(p.x() - 2 * px_)), cy);
        const Cell u2 = u2_.at(cx, std::int64_t(std::floor(p.y() - 2 * px_)));
        if (overlay) {
            const bool guard = s_.show_idle && ((l2.grid && l2.inside != c.inside) || (u2.grid && u2.inside != c.inside));
            if (guard) {
                col = mix(col, rgb(st::kGuard), st::kGuardAlpha);
            } else {
                const bool warps = s_.coloring == OverlayColoring::Warp || (anim_ && c.block == warp_block_);
                const double w = st::kWarpBoundaryAlpha;
                const std::int64_t group = lineGroup(c.block);
                const double ax = l1.block != c.block ? (lineGroup(l1.block) != group ? line_fade_.x() : 0.0)
                                                      : (warps && l1.warp != c.warp ? w * warp_fade_.x() : 0.0);
                const double ay = u1.block != c.block ? (lineGroup(u1.block) != group ? line_fade_.y() : 0.0)
                                                      : (warps && u1.warp != c.warp ? w * warp_fade_.y() : 0.0);
                col = mix(col, rgb(st::kBoundary), st::kBoundaryAlpha * std::max(ax, ay));
            }
        }

        const bool edge_l = !sameUnit(l2, c), edge_u = !sameUnit(u2, c);
        if (anim_ && (edge_l || edge_u)) {
            const bool running = state == 1;
            const bool l_running = edge_l && l2.grid && stateOf(l2) == 1;
            const bool u_running = edge_u && u2.grid && stateOf(u2) == 1;
            if (running || l_running || u_running) col = mix(col, rgb(st::kRunning), 0.9);
        }
        const std::int64_t hov = s_.hovered_block;
        if (hov >= 0) {
            const bool own = c.block == hov && (l2.block != c.block || u2.block != c.block);
            const bool next = (l2.block == hov && l2.block != c.block) || (u2.block == hov && u2.block != c.block);
            if (own || next) col = mix(col, rgb(st::kSelection), st::kHoverAlpha);
        }
        const std::int64_t sel = s_.selected_block;
        if (sel >= 0) {
            const bool own = c.block == sel && (l2.block != c.block || u2.block != c.block);
            const bool next = (l2.block == sel && l2.block != c.block) || (u2.block == sel && u2.block != c.block);
            if (own || next) col = rgb(st::kSelection);
        }
        if (cx == s_.selected_pixel.x() && cy == s_.selected_pixel.y()) {
            const double fx = p.x() - std::floor(p.x()), fy = p.y() - std::floor(p.y()), w = 1.5 * px_;
            if (fx < w || fy < w || fx > 1 - w || fy > 1 - w) col = rgb(st::kSelection);
        }
        return to_qrgb(focus(p, col));
    }

private:
    // image.frag's focus(): the ring around running units too small to see (OverlayState::focusRing).
    Rgb focus(QPointF p, Rgb col) const {
        namespace st = overlay_style;
        if (focus_.isNull()) return col;
        const QPointF c = focus_.center();
        const double d = std::max(std::abs(p.x() - c.x()) - focus_.width() / 2, std::abs(p.y() - c.y()) - focus_.height() / 2);
        if (d >= 0 && d < st::kFocusWidth * px_) return rgb(st::kRunning);
        if (d >= st::kFocusWidth * px_ && d < (st::kFocusWidth + st::kFocusEdge) * px_) return rgb(st::kBoundary);
        return col;
    }

    // image.frag's line_group: the group of blocks whose outer lines are drawn (OverlayState::line_merge).
    std::int64_t lineGroup(std::int64_t block) const {
        const std::int64_t mx = std::max(1, s_.line_merge.x()), my = std::max(1, s_.line_merge.y());
        if (s_.plan.one_d) return block / mx;
        const std::int64_t gx = std::max<std::int64_t>(1, s_.plan.grid.x);
        const std::int64_t by = block / gx, bx = block % gx;
        return (by / my) * gx + bx / mx;
    }
    int stateOf(const Cell& c) const {
        if (!anim_) return 0;
        if (c.block == warp_block_)
            return c.warp < std::int64_t(a_.warp_done_end) ? 0 : (c.warp < std::int64_t(a_.warp_run_end) ? 1 : 2);
        return c.block < std::int64_t(a_.done_end) ? 0 : (c.block < std::int64_t(a_.run_end) ? 1 : 2);
    }
    bool sameUnit(const Cell& a, const Cell& b) const {
        return a.block == b.block && (a.block != warp_block_ || a.warp == b.warp);
    }
    Rgb modeColor(const Cell& c) const {
        const LaunchPlan& p = s_.plan;
        switch (s_.coloring) {
            case OverlayColoring::Thread: return rgb(color_for_thread(std::uint64_t(c.thread), p.threads_per_block));
            case OverlayColoring::Warp:
                return rgb(color_for_warp(std::uint64_t(c.block), std::uint64_t(c.warp), p.warps_per_block));
            default: return rgb(color_for_id(std::uint64_t(c.block)));
        }
    }

    const OverlayState& s_;
    const AnimationFrame& a_;
    const QImage& image_;
    const QImage& source_;
    double px_;
    bool anim_ = false;
    std::int64_t warp_block_ = -1;
    QPointF line_fade_, warp_fade_;
    QRectF focus_;
    CellCache c_, l1_, u1_, l2_, u2_;
};

}  // namespace

QImage render_overlay_frame(const OverlayState& state, const ViewTransform& transform, QSize widget_size, qreal dpr,
                            const QImage& image, const QImage& source) {
    const QSize device(int(std::lround(widget_size.width() * dpr)), int(std::lround(widget_size.height() * dpr)));
    QImage frame(device, QImage::Format_RGB32);
    frame.setDevicePixelRatio(dpr);
    frame.fill(overlay_style::kBackground);
    if (image.isNull()) return frame;

    const QImage pixels = image.format() == QImage::Format_Grayscale8 || image.format() == QImage::Format_RGB32
                              ? image
                              : image.convertToFormat(QImage::Format_RGB32);
    const QImage from = source.isNull() || source.size() != image.size() || !state.animating()
                            ? QImage()
                            : source.convertToFormat(QImage::Format_RGB32);
    const double zoom = transform.zoom();
    const double px = 1.0 / (zoom * dpr);  // image pixels per device pixel
    const QPointF origin = transform.origin(widget_size);
    const QSize extent = state.extent();
    Shader shader(state, pixels, from, px);

    // Only the device pixels over the drawn area are shaded.
    const QRectF area(origin * dpr, QSizeF(extent) * zoom * dpr);
    const int x0 = std::max(0, int(std::floor(area.left()))), x1 = std::min(device.width(), int(std::ceil(area.right())));
    const int y0 = std::max(0, int(std::floor(area.top()))), y1 = std::min(device.height(), int(std::ceil(area.bottom())));
    for (int dy = y0; dy < y1; ++dy) {
        auto* line = reinterpret_cast<QRgb*>(frame.scanLine(dy));
        const double iy = ((dy + 0.5) / dpr - origin.y()) / zoom;
        if (iy < 0 || iy >= extent.height()) continue;
        for (int dx = x0; dx < x1; ++dx) {
            const double ix = ((dx + 0.5) / dpr - origin.x()) / zoom;
            if (ix < 0 || ix >= extent.width()) continue;
            // gl_FragCoord: device pixel centres, y up.
            line[dx] = shader.shade(QPointF(ix, iy), QPointF(dx + 0.5, device.height() - dy - 0.5));
        }
    }
    return frame;
}

}  // namespace cvz
