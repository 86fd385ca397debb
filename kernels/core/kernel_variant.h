#pragma once
// The vocabulary of the kernel catalogue, shared by every family: which family, how a variant's block
// is chosen, which variant (and TILE) a launch runs, and what the catalogue says about it.
// A family folder (kernels/<family>/) lists its variants as types in a VariantList
// and dispatches on them with with_variant (variant_dispatch.h); nothing outside the family switches
// on which kernel it is.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "dim3.h"

namespace cvz {

// A family's id (its trait, kernels/<family>/<family>_family.h, and kernels/catalogue/families.h
// register it; this enumerator is the one edit a new family makes outside its folder in kernels/).
enum class KernelFamily : std::uint8_t { Grayscale, Matmul, Convolution };

// How a variant's block is chosen: any 1-D block, any 2-D block, TILE x TILE for one of its tiles,
// or one fixed block.
enum class BlockRule : std::uint8_t { OneD, TwoD, Tile, Fixed };

const char* to_string(KernelFamily family);  // its registered name (families.cpp); "unknown" for none
const char* to_string(BlockRule rule);       // "1d", "2d", "tile", "fixed": the CLI's JSON spelling

// Which compiled kernel: a family, a variant of it (its index in the family's VariantList, which is
// also the value of the family's variant enum) and the TILE it was instantiated for (0 when the
// variant takes none). The key of the register table and of the occupancy API.
struct KernelRef {
    KernelFamily family = KernelFamily::Grayscale;
    std::uint8_t variant = 0;
    unsigned tile = 0;
};

constexpr bool operator==(const KernelRef& a, const KernelRef& b) {
    return a.family == b.family && a.variant == b.variant && a.tile == b.tile;
}
constexpr bool operator!=(const KernelRef& a, const KernelRef& b) { return !(a == b); }

// One variant as the catalogue lists it (for the CLI, the panels, the sweep and the tests).
struct KernelInfo {
    KernelFamily family = KernelFamily::Grayscale;
    std::uint8_t variant = 0;
    std::string name;                  // the CLI's spelling (--kernel NAME), unique across families
    std::string title;                 // one line
    std::string label;                 // the short prefix of a launch's label: "1-D", "2-D", "naive", "tiled"
    BlockRule block = BlockRule::OneD;
    Dim3 fixed_block;                  // BlockRule::Fixed only
    std::vector<std::string> layouts;  // the pixel layouts it reads ("interleaved", "planar"), where a family has them
    std::vector<unsigned> tiles;       // the TILEs it is compiled for; empty when it takes none
    bool exact = true;                 // bit-identical to the family's reference variant
    bool barriers = false;             // calls __syncthreads(): the emulator runs it with fibers
    // 0, or the one compute capability (major * 10 + minor) whose arch-specific code the GPU kernel
    // needs (90: sm_90a's wgmma); the launchers refuse it on any other device. The emulator runs it anywhere.
    unsigned arch_specific = 0;
    unsigned items_per_thread = 1;     // elements one thread handles (the grid rule divides by it)
    // 1-D rule only: 0, or the most threads the grid has (a grid sized in waves of a device); the
    // body's grid-stride loop covers the elements past them.
    std::uint64_t grid_threads = 0;

    KernelRef ref(unsigned tile = 0) const { return {family, variant, tiles.empty() ? 0u : tile}; }
};

}  // namespace cvz
