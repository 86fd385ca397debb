// The notes on the convolution kernels' memory figures (kernels/catalogue/gpu_counter_notes.h): what
// Nsight Compute measured for the same launches on the H200 (bench/ncu_compare, 2026-12-02: 16x16
// blocks, 97x61 and 1537x1023 images, 3x3 and 7x7 masks). conv_constant and conv_tiled_cached were
// not measured: they have no note.
#include <map>
#include <string>

#include "convolution_family.h"

namespace cvz {

std::string ConvolutionFamily::counter_note(const std::string& name) {
    static const std::map<std::string, std::string> notes = {
        {"conv_naive",
         "Global load requests and all store figures equal Nsight Compute's on the H200; the GPU counts 0.04-6% fewer "
         "load sectors (97x61, 7x7 mask: 37,840 against 40,129). The window's loads sit under the ghost-cell guard, and "
         "a request here is the k-th execution of the line by each lane (issue 10's definition): once the guard skips "
         "a lane at the image's border, its later loads are grouped with other lanes' earlier ones, which touch more "
         "sectors; the GPU groups the lanes by iteration of the unrolled loop."},
        {"conv_tiled",
         "Shared load and store instruction counts and the global stores equal Nsight Compute's on the H200, and so do "
         "the shared loads' wavefronts and bank conflicts at 97x61 (3x3 mask: 3,573 wavefronts, 1,620 conflicts: a "
         "warp's two rows of the tile, tw = 16 + 2R words apart, share banks). The staging loop's guarded global loads "
         "differ by under 6% in requests (the GPU unrolls the loop; a request here is the k-th execution of the line by "
         "each lane) and under 6% in sectors. At 1537x1023 the GPU adds bank conflicts to the shared stores (8,488 to "
         "68,288 stores at 3x3, 23,374 to 99,328 at 7x7) and up to 3% to the loads' wavefronts, which the addresses do not make (the emulator counts "
         "none for the stores, and the GPU none at 97x61): a guess, not checked, is contention with the global loads' "
         "L1 traffic when several blocks share an SM."},
        {"conv_constant",
         "Not compared with Nsight Compute yet. The image's loads are conv_naive's; the mask's are constant-memory "
         "requests, which Nsight Compute counts apart from the L1's global and shared figures: here they are the "
         "constant figures beside the ten (a warp reading one word is served at once, distinct words serialise)."},
        {"conv_tiled_cached",
         "Not compared with Nsight Compute yet. The tile's own pixels come from shared memory and the halo's from "
         "global loads that mostly hit the L1 (its neighbours' tiles were read moments before): the sectors here "
         "count requests, not misses, so they overstate what reaches the L2."},
    };
    const auto it = notes.find(name);
    return it == notes.end() ? std::string() : it->second;
}

}  // namespace cvz
