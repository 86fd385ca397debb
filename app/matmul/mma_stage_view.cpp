#include "app/matmul/mma_stage_view.h"

#include <type_traits>

#include "kernels/matmul/matmul_tensor_core.h"
#include "kernels/matmul/matmul_variants.h"
#include "kernels/trace/request_cost.h"

// The kernels' own description of the layout, with the ldmatrix rows of A's fragments, once the
// tensor-core rungs have one.
#if __has_include("kernels/matmul/mma_shared_layout.h")
#include "kernels/matmul/mma_shared_layout.h"
#define CVZ_KERNEL_DESCRIBES_MMA_SHARED_LAYOUT 1
#endif

namespace cvz {

namespace {

// Tiles with a padding the packed comparison can take away.
template <class S, class = void>
struct has_padded_rows : std::false_type {};
template <class S>
struct has_padded_rows<S, std::void_t<decltype(S::LDA), decltype(S::LDB)>> : std::true_type {};

// The kernel's tiles with rows packed: what the same staging and loads would do without the padding.
template <class S>
struct PackedTiles : S {
    static constexpr unsigned LDA = S::BK, LDB = S::BN;
    static constexpr unsigned STAGE_FLOATS = S::BM * S::BK + S::BK * S::BN;
};

// Loads and stores of plain host memory; the loads within the stage are recorded (as word offsets)
// while `loads` is set.
struct RecordingContext {
    const float* stage = nullptr;
    unsigned stage_words = 0;
    std::vector<unsigned>* loads = nullptr;

    template <class T>
    T load(const T* p) const {
        const auto* f = reinterpret_cast<const float*>(p);
        if (loads && f >= stage && f < stage + stage_words) loads->push_back(unsigned(f - stage));
        return *p;
    }
    template <class T>
    void store(T* p, const T& v) const {
        *p = v;
    }
};

// A stage as the kernel's staging fills it from an A and a B whose elements are their indices (A's
// positive from 1, B's negative from -1; exact in float below 2^24), read back word by word.
template <class S>
std::vector<StageWord> staged_words() {
    std::vector<float> a(std::size_t(S::BM) * S::BK), b(std::size_t(S::BK) * S::BN), stage(S::STAGE_FLOATS, 0.0f);
    for (std::size_t i = 0; i < a.size(); ++i) a[i] = float(i + 1);
    for (std::size_t i = 0; i < b.size(); ++i) b[i] = -float(i + 1);
    MatmulProblem p;
    p.a = a.data(), p.b = b.data(), p.m = S::BM, p.n = S::BN, p.k = S::BK;
    const RecordingContext ctx{stage.data(), S::STAGE_FLOATS, nullptr};
    for (unsigned tid = 0; tid < S::THREADS; ++tid) copy_tile_async<S>(ctx, p, stage.data(), tid, 0, 0, 0, false, false);
    std::vector<StageWord> words(stage.size());
    for (std::size_t w = 0; w < stage.size(); ++w) {
        const float v = stage[w];
        if (v > 0) {
            const auto i = unsigned(v) - 1;
            words[w] = {StageWord::Kind::A, i / S::BK, i % S::BK};
        } else if (v < 0) {
            const auto i = unsigned(-v) - 1;
            words[w] = {StageWord::Kind::B, i / S::BN, i % S::BN};
        }
    }
    return words;
}

// Each lane's loads of one k-step, through the kernel's load_fragments: loads[lane][i] is the word of
// its i-th load.
template <class S>
std::array<std::vector<unsigned>, 32> fragment_words(unsigned wm0, unsigned wn0, unsigned ks) {
    std::vector<float> stage(S::STAGE_FLOATS, 0.0f);
    std::array<std::vector<unsigned>, 32> loads;
    for (unsigned lane = 0; lane < 32; ++lane) {
        const RecordingContext ctx{stage.data(), S::STAGE_FLOATS, &loads[lane]};
        float a[S::MI][4], b[S::NI][2];
        load_fragments<S>(ctx, stage.data(), lane, wm0, wn0, ks, a, b);
    }
    return loads;
}

unsigned wavefronts_of(const std::array<unsigned, 32>& word, unsigned bytes, unsigned* ideal) {
    std::vector<LaneAccess> lanes;
    for (unsigned lane = 0; lane < 32; ++lane) lanes.push_back({lane, bytes, std::uint64_t(word[lane]) * 4});
    const RequestCost cost = shared_request_cost(lanes);
    if (ideal) *ideal = cost.ideal_wavefronts;
    return cost.wavefronts;
}

template <class S>
MmaStageView layout_of(unsigned warp, unsigned ks) {
    MmaStageView out;
    if (warp >= S::WARPS || ks >= S::BK || ks % MmaShape::K != 0) return out;
    out.stages = S::STAGES, out.stage_words = S::STAGE_FLOATS;
    out.bm = S::BM, out.bn = S::BN, out.bk = S::BK;
    out.words = staged_words<S>();
    out.warp = warp, out.k_step = ks;
    const unsigned wm0 = (warp / S::WARPS_N) * S::WM, wn0 = (warp % S::WARPS_N) * S::WN;  // as mma_warp_tiles
    const std::array<std::vector<unsigned>, 32> loads = fragment_words<S>(wm0, wn0, ks);
    std::array<std::vector<unsigned>, 32> packed;
    if constexpr (has_padded_rows<S>::value)
        if (S::LDA != S::BK || S::LDB != S::BN) packed = fragment_words<PackedTiles<S>>(wm0, wn0, ks);
    for (std::size_t i = 0; i < loads[0].size(); ++i) {
        FragmentLoad l;
        for (unsigned lane = 0; lane < 32; ++lane) l.word[lane] = i < loads[lane].size() ? loads[lane][i] : loads[0][i];
        // Which register of which MMA tile: from the element lane 0 reads.
        const StageWord& e = out.words[l.word[0]];
        if (e.kind == StageWord::Kind::A) {
            l.operand = MmaOperand::A;
            l.tile = (e.row - wm0) / MmaShape::M;
            l.reg = mma_fragment_at(MmaOperand::A, (e.row - wm0) % MmaShape::M, e.col - ks)->reg;
        } else if (e.kind == StageWord::Kind::B) {
            l.operand = MmaOperand::B;
            l.tile = (e.col - wn0) / MmaShape::N;
            l.reg = mma_fragment_at(MmaOperand::B, e.row - ks, (e.col - wn0) % MmaShape::N)->reg;
        }
        l.wavefronts = wavefronts_of(l.word, l.bytes, &l.ideal_wavefronts);
        if (i < packed[0].size()) {
            std::array<unsigned, 32> w{};
            for (unsigned lane = 0; lane < 32; ++lane) w[lane] = packed[lane][i];
            l.unpadded_wavefronts = wavefronts_of(w, l.bytes, nullptr);
        }
        out.loads.push_back(l);
    }
#if defined(CVZ_KERNEL_DESCRIBES_MMA_SHARED_LAYOUT)
    if (describe_mma_shared_layout<S>().a_by_ldmatrix) {
        // The GPU's A loads: one ldmatrix.x4 per MMA row, lane l pointing at row mma_ldmatrix_a_row(l),
        // columns mma_ldmatrix_a_col(l) .. + 3 of the 16 x 8 tile; the words found where the staging put
        // those elements (and, for the comparison, where it puts them with rows packed).
        std::vector<StageWord> packed_words;
        if constexpr (has_padded_rows<S>::value)
            if (S::LDA != S::BK || S::LDB != S::BN) packed_words = staged_words<PackedTiles<S>>();
        auto word_in = [](const std::vector<StageWord>& words, unsigned row, unsigned col) {
            for (std::size_t w = 0; w < words.size(); ++w)
                if (words[w].kind == StageWord::Kind::A && words[w].row == row && words[w].col == col) return unsigned(w);
            return 0u;
        };
        std::vector<FragmentLoad> loads_by_ldmatrix;
        for (unsigned mi = 0; mi < S::MI; ++mi) {
            FragmentLoad l;
            l.operand = MmaOperand::A, l.tile = mi, l.bytes = 16, l.ldmatrix = true;
            std::array<unsigned, 32> w_packed{};
            for (unsigned lane = 0; lane < 32; ++lane) {
                const unsigned row = wm0 + mi * MmaShape::M + mma_ldmatrix_a_row(lane), col = ks + mma_ldmatrix_a_col(lane);
                l.word[lane] = word_in(out.words, row, col);
                if (!packed_words.empty()) w_packed[lane] = word_in(packed_words, row, col);
            }
            l.wavefronts = wavefronts_of(l.word, l.bytes, &l.ideal_wavefronts);
            if (!packed_words.empty()) l.unpadded_wavefronts = wavefronts_of(w_packed, l.bytes, nullptr);
            loads_by_ldmatrix.push_back(l);
        }
        for (const FragmentLoad& l : out.loads)
            if (l.operand != MmaOperand::A) loads_by_ldmatrix.push_back(l);
        out.loads = std::move(loads_by_ldmatrix);
    }
#endif
    return out;
}

}  // namespace

std::optional<unsigned> MmaStageView::word_of(MmaOperand operand, unsigned row, unsigned col) const {
    const StageWord::Kind kind = operand == MmaOperand::A ? StageWord::Kind::A : StageWord::Kind::B;
    if (operand == MmaOperand::C) return std::nullopt;
    for (std::size_t w = 0; w < words.size(); ++w)
        if (words[w].kind == kind && words[w].row == row && words[w].col == col) return unsigned(w);
    return std::nullopt;
}

unsigned MmaStageView::padding_words() const {
    unsigned n = 0;
    for (const StageWord& w : words) n += w.kind == StageWord::Kind::Padding;
    return n;
}

MmaStageView mma_stage_view(const MatmulLaunch& launch, unsigned warp, unsigned k_step) {
    MmaStageView out;
    (void)with_matmul_variant(launch, [&](auto body) {
        using Body = decltype(body);
        if constexpr (has_tensor_core_tiles<Body>::value) out = layout_of<typename Body::Tiles>(warp, k_step);
    });
    return out;
}

}  // namespace cvz
