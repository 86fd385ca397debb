#pragma once
#include <QColor>
#include <QPoint>
#include <QPointF>
#include <QRect>
#include <QRectF>
#include <QSize>

#include <cstdint>

#include "app/models/execution_animation.h"
#include "app/models/launch_plan.h"

namespace cvz {

// What the block overlay colours each thread's pixel by.
enum class OverlayColoring { None, Block, Thread, Warp };

// Everything the overlay draws, in a few numbers (ARCHITECTURE.md, invariant 5): the launch, how to
// colour it, the animation frame and the selection. Both image views take the same state; the
// OpenGL view turns it into shader uniforms, the raster view into a CPU drawing of the same picture.
struct OverlayState {
    bool enabled = false;     // the grid overlay (View > Grid Overlay)
    LaunchPlan plan;          // the launch drawn; no blocks: nothing to draw
    OverlayColoring coloring = OverlayColoring::Block;
    double opacity = 0.45;    // of the colour layer over the image
    bool show_idle = true;    // draw the grid past the image, idle threads hatched
    AnimationFrame animation; // mode Off: no animation
    std::int64_t selected_block = -1;  // outlined (the inspector's block)
    std::int64_t hovered_block = -1;   // outlined lightly (the block under the mouse)
    // Block boundaries are drawn between groups of line_merge.x by line_merge.y blocks (1-D: groups
    // of line_merge.x consecutive blocks), so that lines stay kMinLinePitch device pixels apart when
    // the blocks are smaller than that on screen: (1, 1) draws every block's. Set with lineMergeFor.
    QPoint line_merge{1, 1};
    static constexpr double kMinLinePitch = 4;
    QPoint selected_pixel{-1, -1};     // outlined (the inspector's pixel)

    bool hasPlan() const { return plan.blocks > 0 && plan.width > 0 && plan.height > 0; }
    // Whether the views draw anything over the plain image: the grid, an animation, or the pinned
    // pixel and its block (outlined with the grid off too, as the legend says).
    bool decorates() const {
        return hasPlan() && (enabled || animation.mode != AnimationMode::Off || selected_block >= 0 || selected_pixel.x() >= 0);
    }
    bool animating() const { return hasPlan() && animation.mode != AnimationMode::Off; }
    // The region the views draw, in image pixels: the grid's full extent while idle threads are
    // shown, else the image.
    QSize extent() const;

    // How strongly block (and warp) boundaries are drawn for vertical and horizontal edges when one
    // image pixel spans `device_px` device pixels: faded out as the cells shrink below a few pixels,
    // where lines would cover everything.
    QPointF blockLineFade(double device_px) const;
    QPointF warpLineFade(double device_px) const;
    // The line_merge that keeps block lines kMinLinePitch apart at `device_px` device pixels per image pixel.
    static QPoint lineMergeFor(const LaunchPlan& plan, double device_px);
    bool linesMerged() const { return line_merge.x() > 1 || line_merge.y() > 1; }

    // The image-pixel bounding box of what the animation runs now: the running warps of the stepped
    // block, or the running blocks of the wave. Empty when nothing runs.
    QRect runningExtent() const;
    // Where running units are smaller on screen than kFocusMin device pixels (a wave at the fit
    // zoom of an 8K image, one warp of a small block), a ring marks them: the ring's inner rectangle
    // in image pixels at `device_px` device pixels per image pixel, at least kFocusMin device pixels
    // on each side, centred on runningExtent(). Null when the running units are large enough to see.
    QRectF focusRing(double device_px) const;
    static constexpr double kFocusMin = 14;
};

// The overlay's fixed colours, shared by the raster drawing and the legend (the shader, image.frag,
// has the same values).
namespace overlay_style {
inline const QColor kBackground{0x30, 0x30, 0x30};  // the views' background
inline const QColor kBoundary{0x0f, 0x0f, 0x0f};    // block (and warp) boundaries
constexpr double kBoundaryAlpha = 0.75;
constexpr double kWarpBoundaryAlpha = 0.4;          // relative to kBoundaryAlpha
inline const QColor kGuard{0xe6, 0x38, 0x33};       // where the guard starts switching threads off
constexpr double kGuardAlpha = 0.9;
inline const QColor kRunning{0xff, 0xff, 0xff};     // the outline of running blocks (or warps)
constexpr double kRunningTint = 0.6;                // minimum colour strength of running blocks
inline const QColor kSelection{0xff, 0xd4, 0x00};   // the inspected block and pixel
constexpr double kHoverAlpha = 0.5;                 // the hovered block's outline: kSelection, lighter
inline const QColor kHatchDark{0x1c, 0x1c, 0x1c};   // the dark stripe of idle threads
constexpr double kHatchShade = 0.6;                 // the light stripe: the thread's colour times this
constexpr int kHatchPeriod = 4;                     // device pixels per stripe
constexpr double kDimOthers = 0.45;                 // other blocks while one block's warps play
constexpr double kFocusWidth = 2;                   // device pixels of the focus ring (kRunning)
constexpr double kFocusEdge = 1;                    // and of its dark outer edge (kBoundary)
}  // namespace overlay_style

}  // namespace cvz
