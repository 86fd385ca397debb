// The notes on the grayscale kernels' memory figures (kernels/catalogue/gpu_counter_notes.h): what Nsight
// Compute measured for the same launches on the H200 (bench/ncu_compare, 2026-12-01).
#include <map>
#include <string>

#include "grayscale_family.h"

namespace cvz {

std::string GrayscaleFamily::counter_note(const std::string& name) {
    static const std::string same =
        "On the H200, Nsight Compute measured the same ten figures for this kernel: the compiled code makes one "
        "request per source access.";
    static const std::map<std::string, std::string> notes = {
        {"gray_1d", same},
        {"gray_2d", same},
        {"gray_1d_x4", same},
        {"gray_vec16",
         "On the H200 the figures equal Nsight Compute's, except planar images whose pixel count is not a multiple of "
         "16: every chunk then takes the pixel-by-pixel loop, which nvcc unrolls four times with the remainder "
         "(trip count mod 4) peeled off first as separate instructions. Every thread runs 16 pixels, no remainder; "
         "the one thread with the image's last n mod 16 pixels runs its remainder in the peeled instructions alone, "
         "one extra request per access and remaining pixel: at 1537x1023 (15 pixels left, 3 peeled) 9 load and 3 "
         "store requests more on the GPU of 147,408 and 49,136. A request here is the k-th execution of the line by "
         "each lane, which puts that thread's pixels with the other lanes' (issue 10's definition)."},
        {"gray_vec16_waves",
         "The body is gray_vec16's, and so are the figures: equal to Nsight Compute's on the H200 but for planar "
         "images whose pixel count is not a multiple of 16, where the thread with the last n mod 16 pixels runs "
         "the (n mod 16) mod 4 of them in the peeled remainder of nvcc's four-times unrolled pixel loop: 9 load and 3 "
         "store requests more on the GPU at 1537x1023."},
    };
    const auto it = notes.find(name);
    return it == notes.end() ? std::string() : it->second;
}

}  // namespace cvz
