// The notes on the matmul kernels' memory figures (kernels/catalogue/gpu_counter_notes.h): what Nsight
// Compute measured for the same launches on the H200 (bench/ncu_compare, 2026-12-01).
#include <map>
#include <string>

#include "matmul_family.h"

namespace cvz {

std::string MatmulFamily::counter_note(const std::string& name) {
    static const std::string same =
        "On the H200, Nsight Compute measured the same ten figures for this kernel: the compiled code makes one "
        "request per source access.";
    static const std::map<std::string, std::string> notes = {
        {"matmul_naive", same},
        {"matmul_tiled",
         "Global figures equal Nsight Compute's on the H200. nvcc merges four consecutive shared loads of the A tile "
         "(the unrolled k loop's as[ty*TILE + k .. k+3]) into one 128-bit load: the GPU executes 5/8 as many shared load "
         "instructions and 3/4 as many wavefronts as the source's loads. At TILE=8 Nsight Compute's totals also count a "
         "few bank conflicts (under 0.2%) that belong to no instruction: its own source page, which counts each "
         "instruction's wavefronts from its addresses, finds none (393,216 load and 65,536 store wavefronts at "
         "256x128@128x256, 0 excessive, the figures here for the compiled loads) while the totals say 155 and 157 "
         "more, and a second run of the same launch counted 0 and 154: they are not the addresses'."},
        {"matmul_blocktile_1d",
         "Global figures equal Nsight Compute's on the H200. The compiler keeps each B value in a register across the "
         "thread's 8 outputs and merges A-tile loads into 128-bit loads: 0.43 times the shared load instructions and "
         "0.65 times the wavefronts of the source's loads."},
        {"matmul_blocktile_2d",
         "Global figures equal Nsight Compute's on the H200. The register tiles' loads compile to 128-bit shared loads: "
         "1/4 of the shared load instructions, 0.42 times the wavefronts and 1/4 of the bank conflicts of the source's "
         "4-byte loads."},
        {"matmul_blocktile_vec",
         "Global figures and shared instruction counts equal Nsight Compute's on the H200; its float4 shared loads take "
         "5/6 of the wavefronts counted here per quarter-warp, and at sizes that are not multiples of the tile the "
         "stores show under 1% more wavefronts and conflicts on the GPU."},
        {"matmul_double_buffer",
         "Global loads, all instruction counts and the shared stores' wavefronts and bank conflicts (the transposed A "
         "tile's 2-way conflicts) equal Nsight Compute's on the H200. Its float4 shared loads take 3/4 of the "
         "wavefronts counted here per quarter-warp, with a few bank conflicts (under 0.2%) in Nsight Compute's totals "
         "that belong to no instruction: its source page, counting each instruction's wavefronts from its "
         "addresses, finds no excess on any shared load (49,152 wavefronts at 256x128@128x256; the totals say 32 "
         "more in one run, 36 in the next). Global stores: where every output is a float4 (256x128@128x256), nvcc kept only 8 of a thread's 16 "
         "float4 stores (the SASS has 8 STG.E.128 beside 144 STG.E) and writes the other 8 outputs float by float, "
         "so a warp executes 40 store instructions where the source makes 16 requests: 1,280 requests and 20,480 "
         "sectors on the GPU against 512 and 8,192 here. At odd sizes the GPU counts 2% fewer store sectors: the "
         "stores sit in unrolled loops under a guard, and a request here is the k-th execution of the line by each "
         "lane (issue 10's definition), so a lane the guard skipped for some iterations is grouped with others' "
         "earlier iterations; the GPU issues one predicated instruction per unrolled iteration. Grouped by "
         "iteration, the addresses give Nsight Compute's 34,816 sectors at 257x129@129x255 (35,552 by the "
         "definition). These comparisons were made on the rung's 128x128 tiles of 8x8 a thread; its 128x256 tiles "
         "of 8x16 (2026-12-03) have not been profiled with Nsight Compute yet."},
        {"matmul_warptile",
         "Global loads and all instruction counts equal Nsight Compute's on the H200; its float4 shared loads take 5/6 "
         "of the wavefronts counted here. At odd sizes the GPU counts 3-11% fewer global store sectors for the same "
         "requests: each of a thread's 128 stores is an unrolled iteration under the guard r < M && c < N. A request "
         "here is the k-th execution of the store's line by each lane (issue 10's definition), so once the guard "
         "skips a lane for some iterations, its later stores are grouped with other lanes' earlier ones; the GPU "
         "issues one predicated instruction per iteration and groups the lanes by iteration. Grouped by iteration, "
         "the same addresses give exactly Nsight Compute's figures: 3,728 sectors at 97x33@33x61 and 40,960 at "
         "257x129@129x255 (4,196 and 42,176 by the definition)."},
        {"matmul_split_k",
         "Not compared with Nsight Compute yet. Each block runs the double buffer's loop over its slice of K, so the "
         "double buffer's note applies to its loads and shared memory; its outputs go to C (slice 0) or to the "
         "workspace (\"partials\") with the double buffer's stores. The trace is of that first pass: the second, which "
         "adds the slices to C (one load per slice and one store per output, coalesced), is not traced."},
        {"matmul_tf32", "Not compared with Nsight Compute yet. On the GPU the A and B tiles reach shared memory "
                        "through cp.async (global to shared without passing through registers), the fragments are "
                        "read with 32-bit shared loads from a padded layout, and mma.sync itself reads registers, not "
                        "memory: the figures here are those of the source's loads and stores."},
        {"matmul_3xtf32", "Not compared with Nsight Compute yet. Its memory traffic is matmul_tf32's (the same tiles "
                          "through cp.async and the same fragment loads); it issues three MMAs where that issues one."},
        {"matmul_tf32_wgmma", "Not compared with Nsight Compute yet. Each thread's share of a K tile reaches shared "
                              "memory through cp.async into slots of its own, is read back, rounded and stored "
                              "swizzled; wgmma then reads its operands from shared memory itself (through the async "
                              "proxy), so those reads, 6 KiB a wgmma, are not in the trace and not in these figures."},
        {"matmul_3xtf32_wgmma", "Not compared with Nsight Compute yet. matmul_tf32_wgmma's traffic with three tiles "
                                "stored per operand (big, small and big with Inf made 0) where that stores one, and "
                                "three wgmmas where that issues one; wgmma's own shared reads are not traced."},
    };
    const auto it = notes.find(name);
    return it == notes.end() ? std::string() : it->second;
}

}  // namespace cvz
