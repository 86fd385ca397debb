#pragma once
// Recording where and when each block of a grayscale launch ran (kernels/core/block_schedule.h): the
// same launch as grayscale_cuda / grayscale_emulated, with a recording context around the same body.
#include "../core/block_schedule.h"
#include "../core/dim3_text.h"
#include "grayscale_launch_shape.h"
#include "../core/status.h"
#include "../emulator/emu_options.h"
#include "grayscale_image.h"

namespace cvz {

// On CUDA device `device`: `image` holds host pointers; uploads, launches the recorded kernel once to
// warm up and once to record (the block's SM from %smid, times from %globaltimer), downloads into
// image.gray. Without the toolkit: ErrorKind::Unavailable.
Status grayscale_cuda_schedule(const GrayscaleImage& image, const LaunchShape& shape, BlockSchedule* out,
                               int device = 0);

// On the emulator: the host worker that ran each block as its SM, a steady clock for the times.
Status grayscale_emulated_schedule(const GrayscaleImage& image, const LaunchShape& shape, BlockSchedule* out,
                                   const EmuOptions& options = {});

}  // namespace cvz
