#pragma once
#include "../core/dim3_text.h"
#include "grayscale_launch_shape.h"
#include "../core/status.h"
#include "../emulator/emu_options.h"
#include "grayscale_image.h"

namespace cvz {

// Runs the grayscale kernel body on the CPU emulator with the lecture's grid for `shape`.
Status grayscale_emulated(const GrayscaleImage& image, const LaunchShape& shape, const EmuOptions& options = {});

}  // namespace cvz
