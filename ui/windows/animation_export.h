#pragma once
#include <QImage>
#include <QPointF>
#include <QSize>
#include <QString>

#include <cstdint>

#include "app/models/execution_animation.h"
#include "app/models/wave_model.h"
#include "ui/views/overlay_state.h"

namespace cvz {

class JobControl;

// An export of the execution animation, frame by frame, as the kernel output view draws it: each
// frame is the overlay with the animation at one position (render_overlay_frame, the raster twin of
// the shader), so it runs on the worker without GL. Everything is copied in: the GUI may change
// while the worker writes.
struct AnimationExportRequest {
    OverlayState overlay;          // as shown; its animation frame is replaced for every frame
    WavePlan waves;
    AnimationMode mode = AnimationMode::Waves;  // Off is exported as Waves
    std::int64_t block = -1;       // Warps: the block stepped through
    QImage image;                  // what the view shows (the kernel's output)
    QImage source;                 // what blocks not yet run show (the kernel's input)
    QSize size;                    // frame size in pixels
    double zoom = 1;               // the view's transform
    QPointF center;
    double steps_per_second = 2;   // the GIF's pace
    QString path;                  // *.gif: one animated GIF; *.png: numbered frames beside it
    QString title;                 // what is shown, e.g. "gray_2d 16×16 over chelsea.png": the caption's start
};

struct AnimationExportResult {
    QString error;          // empty on success (and on cancel)
    bool cancelled = false;
    int frames = 0;         // frames written
};

AnimationMode export_mode(const AnimationExportRequest& request);
// Every position of the animation, from nothing run to everything done: steps + 1.
std::uint64_t animation_export_frames(const AnimationExportRequest& request);
// Frame `index` as the view draws it, `request.size` pixels.
QImage render_animation_frame(const AnimationExportRequest& request, std::uint64_t index);
// The part of the view the content covers (the image, and the grid past it while idle threads are
// shown), in view pixels: the export is cut to it, without the view's dark bands around it.
QRect animation_export_crop(const AnimationExportRequest& request);
// The caption under frame `index`: the title, then the step ("wave 3 of 8: blocks 138–206 run",
// counted from 1 as the Execution bar counts, or "all 8 waves done").
QString animation_frame_caption(const AnimationExportRequest& request, std::uint64_t index);
// Frame `index` as exported: the crop, with its caption in a strip below.
QImage export_animation_frame(const AnimationExportRequest& request, std::uint64_t index);
// Where PNG frame `index` goes: "run.png" -> "run-0007.png" (digits for the largest index).
QString animation_frame_path(const QString& path, std::uint64_t index, std::uint64_t frames);
// On the worker: writes every frame, reporting progress and stopping when asked to (a GIF is then
// not written at all; PNG frames already written stay and are counted).
AnimationExportResult export_animation(const AnimationExportRequest& request, const JobControl& control);

}  // namespace cvz
