#include "grayscale_schedule.h"

#include "../emulator/emulator_schedule.h"
#include "grayscale_emulated.h"
#include "grayscale_launch.h"

namespace cvz {

Status grayscale_emulated_schedule(const GrayscaleImage& image, const LaunchShape& shape, BlockSchedule* out,
                                   const EmuOptions& options) {
    return record_emulator_schedule(grayscale_grid(shape, image.width, image.height), options,
                                    [&](const EmuOptions& o) { return grayscale_emulated(image, shape, o); }, out);
}

}  // namespace cvz
