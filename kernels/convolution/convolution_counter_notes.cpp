// The notes on the convolution kernels' memory figures (kernels/catalogue/gpu_counter_notes.h): what
// Nsight Compute measured for the same launches on the H200 (bench/ncu_compare, 2026-12-02: 16x16
// blocks, 97x61 and 1537x1023 images, 3x3 and 7x7 masks; conv_constant's constant cache with ncu's idc__
// and LDC counters). docs/measurements/2026-12-02-convolution-model-and-ncu.md has the tables.
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
         "The image's loads are conv_naive's and so are their figures on the H200: requests and stores equal Nsight "
         "Compute's, the GPU counts 0.05-8% fewer load sectors (97x61, 7x7 mask: 27,207 against 29,496). The mask's "
         "reads are constant-memory requests, kept apart from the ten: every one is a broadcast here (0 replays), and so "
         "on the GPU, whose indexed constant cache gets exactly one request per LDC instruction (none split) and hits "
         "76-99.7% of them. The GPU executes more LDC than the body's mask reads, 16 a warp for a 3x3 mask and 67 for "
         "7x7 (9 and 49 here): the compiled, unrolled loop reads some mask values twice."},
        {"conv_tiled_cached",
         "Shared load and store instructions and the global stores equal Nsight Compute's on the H200; the rest differs. "
         "Each tap picks, per lane, shared memory (inside the block's tile) or a global load (the halo), and a request "
         "here is the k-th execution of a line by each lane: where a warp's lanes take different branches it joins lanes "
         "of different taps, whose shared words collide in banks and whose global reads fall into fewer requests. The "
         "GPU issues one request per tap and branch: 1.5-1.7x these global load requests with fewer sectors at 7x7 "
         "(1537x1023: 2,160,992 requests, 4,643,470 sectors against 1,284,902 and 5,848,176), and almost no bank "
         "conflicts (20,635 against 116,640 at 3x3; 1 against 4,884 at 97x61, 7x7). Its halo loads mostly hit the L1, so "
         "sectors count requests, not misses."},
    };
    const auto it = notes.find(name);
    return it == notes.end() ? std::string() : it->second;
}

}  // namespace cvz
