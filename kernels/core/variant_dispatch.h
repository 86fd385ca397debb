#pragma once
// One dispatcher for every family (the CUTLASS habit): a runtime variant id and TILE are mapped onto
// the compile-time body type, and a generic lambda is invoked with it. The GPU launchers, the
// emulator, the traced emulator, the occupancy API and the register table all go through it, so the
// list of variants and the list of tiles are each written once, in the family's table.
//
// A family's table is a VariantList of specs. A spec (derive from VariantDefaults) provides:
//   static constexpr <FamilyEnum> id;            its id, equal to its index in the list
//   static constexpr const char* name, * title;  the CLI spelling and one line
//   static constexpr const char* label;          the short prefix of sweep rows ("2-D", "tiled")
//   static constexpr BlockRule block;
//   using tiles = TileList<...>;                 the TILEs it is compiled for (empty: none)
//   template <unsigned TILE> using body = ...;   the body type for one TILE (ignore TILE when none)
// and may override exact, barriers, items_per_thread, fixed_block, arch_specific. A body provides
//   template <class Ctx> CVZ_HD static void run(const Ctx&, const Problem&, ...);
//   static constexpr std::size_t shared_bytes(Dim3 block);  dynamic shared memory of a launch
//   static constexpr KernelResources ptxas;                  registers and static shared bytes (sm_90)
// and a 1-D variant whose body loops grid-stride may cap its grid with grid_threads (KernelInfo).
#include <cstddef>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "kernel_variant.h"
#include "status.h"

namespace cvz {

template <unsigned... T>
struct TileList {
    static constexpr std::size_t size = sizeof...(T);
    static std::vector<unsigned> values() { return {T...}; }
};

template <class... Specs>
struct VariantList {
    static constexpr std::size_t size = sizeof...(Specs);
};

// What ptxas reports for one compiled kernel (sm_90): registers per thread and static shared memory.
// The table entries are checked against the build's `ptxas -v` output by tst_kernel_resources.
struct KernelResources {
    int registers = 0;
    int static_shared_bytes = 0;
};

struct VariantDefaults {
    using tiles = TileList<>;
    static constexpr bool exact = true;
    static constexpr bool barriers = false;
    static constexpr unsigned items_per_thread = 1;
    static constexpr Dim3 fixed_block{1, 1, 1};
    static constexpr std::uint64_t grid_threads = 0;
    static constexpr unsigned arch_specific = 0;
};

// "8, 16, 32"
inline std::string tiles_text(const std::vector<unsigned>& tiles) {
    std::string s;
    for (unsigned t : tiles) s += (s.empty() ? "" : ", ") + std::to_string(t);
    return s;
}

namespace detail {

template <class Body, class F>
Status invoke_body(F& f) {
    if constexpr (std::is_void_v<decltype(f(Body{}))>) {
        f(Body{});
        return Status::ok();
    } else {
        return f(Body{});
    }
}

template <class Spec, unsigned... T, class F>
Status with_tile(TileList<T...>, unsigned tile, F& f) {
    if constexpr (sizeof...(T) == 0) {
        (void)tile;  // a variant without a TILE ignores the launch's tile
        return invoke_body<typename Spec::template body<0>>(f);
    } else {
        Status s;
        const bool found = ((tile == T ? (s = invoke_body<typename Spec::template body<T>>(f), true) : false) || ...);
        if (!found)
            return Status::error(ErrorKind::InvalidInput, std::string(Spec::name) + ": TILE = " + std::to_string(tile) +
                                                              " is not one of " + tiles_text({T...}));
        return s;
    }
}

}  // namespace detail

// Calls f(Body{}) with the body of variant `id` for `tile`, and returns what f returns (a Status, or
// ok when f returns nothing). An id not in the list or a TILE the variant is not compiled for is an
// ErrorKind::InvalidInput error, never a fallback.
template <class... Specs, class Id, class F>
Status with_variant(VariantList<Specs...>, const char* family, Id id, unsigned tile, F&& f) {
    Status s;
    const bool found = ((Specs::id == id ? (s = detail::with_tile<Specs>(typename Specs::tiles{}, tile, f), true) : false) || ...);
    if (!found)
        return Status::error(ErrorKind::InvalidInput,
                             std::string("there is no ") + family + " kernel variant number " + std::to_string(int(id)));
    return s;
}

// Calls f(Spec{}) for every spec of the list, in order.
template <class... Specs, class F>
void for_each_variant(VariantList<Specs...>, F&& f) {
    (f(Specs{}), ...);
}

// The catalogue entry of one spec (the family adds what only it knows, e.g. layouts).
template <class Spec>
KernelInfo variant_info(KernelFamily family) {
    KernelInfo info;
    info.family = family;
    info.variant = std::uint8_t(Spec::id);
    info.name = Spec::name;
    info.title = Spec::title;
    info.label = Spec::label;
    info.block = Spec::block;
    info.fixed_block = Spec::fixed_block;
    info.tiles = Spec::tiles::values();
    info.exact = Spec::exact;
    info.barriers = Spec::barriers;
    info.items_per_thread = Spec::items_per_thread;
    info.grid_threads = Spec::grid_threads;
    info.arch_specific = Spec::arch_specific;
    return info;
}

}  // namespace cvz
