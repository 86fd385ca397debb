#pragma once
// A display that can show a frame written on the GPU (ARCHITECTURE.md, invariant 4): with CUDA and
// CUDA-GL interop, a session runs the change's one launch through it, so the displayed run is the
// timed and inspected run. The display knows no kernel: the session hands it a FrameWriter
// (kernels/cuda/interop_target.h) and the display hands the writer its mapped target. ui/'s result
// view implements it; app/ and kernels/ never see a widget. Every call is made on the GUI thread.
#include <QSize>

#include "kernels/core/status.h"
#include "kernels/cuda/interop_target.h"

namespace cvz {

class FrameSink {
public:
    virtual ~FrameSink() = default;

    // True when a frame of `size` written now is what the display shows (a CUDA device, a path
    // open for that size, opened here if need be). False: run the launch elsewhere and hand the
    // display a host image as ever.
    virtual bool prepareFrame(QSize size) = 0;
    // Calls `write` once with the display's target and shows what it wrote. The writer's status, or
    // the display's own error (then its path is closed and prepareFrame() says false for that size).
    virtual Status writeFrame(const FrameWriter& write) = 0;
    // The next result comes from the host: show it, not the frame last written.
    virtual void releaseFrame() = 0;
};

}  // namespace cvz
