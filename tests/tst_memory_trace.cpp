// The memory trace (kernels/trace/) against independent models of issue 10's definitions:
// - hand models: the threads of each warp enumerated with the kernels' index math written out here
//   (grayscale 1-D, 2-D, x4, vec16 in both layouts; matmul naive and tiled, with and without the
//   second barrier), their requests grouped and their sectors, bytes, banks and words counted with
//   std::set, nothing from kernels/trace/;
// - a log model for every catalogue variant (the blocktiled ones included): a plain observer logs
//   each access of the body, serially, and the same set-based counting groups and counts them.
// Sizes: 1xN, Nx1, 1537x1023, 97x33 @ 33x61 and the block shapes of the other kernel tests.
#include <QtTest>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "kernels/catalogue/kernel_catalogue.h"
#include "kernels/core/cancel_token.h"
#include "kernels/emulator/emulate.h"
#include "kernels/emulator/traced_context.h"
#include "kernels/grayscale/grayscale_launch.h"
#include "kernels/grayscale/grayscale_variants.h"
#include "kernels/matmul/matmul_variants.h"
#include "kernels/grayscale/grayscale_trace.h"
#include "kernels/matmul/matmul_trace.h"
#include "kernels/trace/request_cost.h"
#include <cstring>

using namespace cvz;

namespace {

// ---- The model: accesses per thread, grouped into requests, counted with sets ----------------------

struct ModelAccess {
    std::string site;  // any label that names one access site (and load or store)
    MemorySpace space;
    Access access;
    std::uint64_t offset;
    unsigned bytes;
};

struct Counts {
    std::uint64_t requests = 0, sectors = 0, ideal_sectors = 0, wavefronts = 0, ideal_wavefronts = 0;
    bool operator==(const Counts& o) const {
        return requests == o.requests && sectors == o.sectors && ideal_sectors == o.ideal_sectors &&
               wavefronts == o.wavefronts && ideal_wavefronts == o.ideal_wavefronts;
    }
};

int kind_of(MemorySpace s, Access a) { return (s == MemorySpace::Shared ? 2 : 0) + (a == Access::Store ? 1 : 0); }
const char* kKindNames[4] = {"global ld", "global st", "shared ld", "shared st"};

struct ModelRequest {
    MemorySpace space;
    Access access;
    std::vector<std::pair<unsigned, ModelAccess>> lanes;  // (lane, access)
};

// Sectors and bytes of a global request; banks and words of a shared one, by the words.
void count_request(const ModelRequest& r, Counts& c) {
    ++c.requests;
    if (r.space == MemorySpace::Global) {
        std::set<std::uint64_t> sectors, bytes;
        for (const auto& [lane, a] : r.lanes)
            for (unsigned j = 0; j < a.bytes; ++j) {
                sectors.insert((a.offset + j) / 32);
                bytes.insert(a.offset + j);
            }
        c.sectors += sectors.size();
        c.ideal_sectors += (bytes.size() + 31) / 32;
        return;
    }
    unsigned widest = 0;
    for (const auto& [lane, a] : r.lanes) widest = std::max(widest, a.bytes);
    const unsigned group = widest == 16 ? 8 : widest == 8 ? 16 : 32;  // quarter-, half-, whole warp
    std::map<unsigned, std::map<unsigned, std::set<std::uint64_t>>> words;  // group -> bank -> words
    for (const auto& [lane, a] : r.lanes)
        for (unsigned j = 0; j < a.bytes; ++j) {
            const std::uint64_t word = (a.offset + j) / 4;
            words[lane / group][unsigned(word % 32)].insert(word);
        }
    for (const auto& [g, banks] : words) {
        std::size_t most = 0;
        for (const auto& [bank, w] : banks) most = std::max(most, w.size());
        c.wavefronts += most;
        ++c.ideal_wavefronts;
    }
}

struct Model {
    Counts totals[4];
    std::map<std::string, Counts[4]> per_site;  // the model's site labels
    std::map<std::pair<std::uint64_t, unsigned>, Counts[4]> per_warp;  // kept block only
    std::uint64_t keep_block = ~0ull;
    std::map<unsigned, std::vector<ModelRequest>> kept;  // warp -> requests of keep_block

    // One block: every thread's accesses in its program order (threads by linear id).
    void add_block(std::uint64_t block, const std::vector<std::vector<ModelAccess>>& threads) {
        std::map<std::tuple<unsigned, std::string, unsigned>, ModelRequest> requests;  // (warp, site, k)
        for (unsigned t = 0; t < threads.size(); ++t) {
            std::map<std::string, unsigned> k;
            for (const ModelAccess& a : threads[t]) {
                ModelRequest& r = requests[{t / 32, a.site, k[a.site]++}];
                r.space = a.space;
                r.access = a.access;
                r.lanes.push_back({t % 32, a});
            }
        }
        for (const auto& [key, r] : requests) {
            const int kind = kind_of(r.space, r.access);
            count_request(r, totals[kind]);
            count_request(r, per_site[std::get<1>(key)][kind]);
            if (block == keep_block) {
                count_request(r, per_warp[{block, std::get<0>(key)}][kind]);
                kept[std::get<0>(key)].push_back(r);
            }
        }
    }
};

Counts trace_counts(const RequestCounts& c) {
    return Counts{c.requests, c.sectors, c.ideal_sectors, c.wavefronts, c.ideal_wavefronts};
}

QString describe(const Counts& c) {
    return QStringLiteral("requests %1 sectors %2 ideal %3 wavefronts %4 ideal %5")
        .arg(c.requests).arg(c.sectors).arg(c.ideal_sectors).arg(c.wavefronts).arg(c.ideal_wavefronts);
}

// The trace's totals, per warp of the kept block and the kept block's requests against the model.
void compare(const MemoryTrace& t, const Model& m, const QString& what) {
    const RequestCounts* tc[4] = {&t.totals.global_ld, &t.totals.global_st, &t.totals.shared_ld, &t.totals.shared_st};
    for (int k = 0; k < 4; ++k)
        QVERIFY2(trace_counts(*tc[k]) == m.totals[k],
                 qPrintable(what + " " + kKindNames[k] + ": trace " + describe(trace_counts(*tc[k])) + ", model " +
                            describe(m.totals[k])));
    QCOMPARE(t.unmapped_accesses, 0ull);
    if (m.keep_block == ~0ull) return;
    for (const auto& entry : m.per_warp) {
        const auto& key = entry.first;  // not a structured binding: C++17 lambdas cannot capture one (clang refuses)
        const auto& counts = entry.second;
        auto it = std::find_if(t.warps.begin(), t.warps.end(),
                               [&](const WarpMetrics& w) { return w.block == key.first && w.warp == key.second; });
        QVERIFY2(it != t.warps.end(), qPrintable(what + QStringLiteral(": warp %1 missing").arg(key.second)));
        const RequestCounts* wc[4] = {&it->metrics.global_ld, &it->metrics.global_st, &it->metrics.shared_ld,
                                      &it->metrics.shared_st};
        for (int k = 0; k < 4; ++k)
            QVERIFY2(trace_counts(*wc[k]) == counts[k],
                     qPrintable(what + QStringLiteral(" warp %1 ").arg(key.second) + kKindNames[k]));
    }
    for (const auto& [warp, requests] : m.kept) {
        const std::vector<const MemoryRequest*> got = t.requests_of(m.keep_block, warp);
        QVERIFY2(got.size() == requests.size(), qPrintable(what + QStringLiteral(" warp %1: %2 requests kept, model %3")
                                                                   .arg(warp).arg(got.size()).arg(requests.size())));
        // As multisets of (space, access, lanes with their offsets): the order is the trace's business.
        auto key = [](MemorySpace s, Access a, std::vector<std::tuple<unsigned, std::uint64_t, unsigned>> l) {
            std::sort(l.begin(), l.end());
            return std::make_tuple(int(s), int(a), l);
        };
        std::multiset<decltype(key(MemorySpace::Global, Access::Load, {}))> want, have;
        for (const ModelRequest& r : requests) {
            std::vector<std::tuple<unsigned, std::uint64_t, unsigned>> l;
            for (const auto& [lane, a] : r.lanes) l.emplace_back(lane, a.offset, a.bytes);
            want.insert(key(r.space, r.access, l));
        }
        for (const MemoryRequest* r : got) {
            std::vector<std::tuple<unsigned, std::uint64_t, unsigned>> l;
            for (const LaneAccess& a : r->lanes) l.emplace_back(a.lane, a.offset, a.bytes);
            have.insert(key(r->space, r->access, l));
            QCOMPARE(r->block, m.keep_block);
        }
        QVERIFY2(want == have, qPrintable(what + QStringLiteral(" warp %1: kept requests differ").arg(warp)));
    }
}

std::uint64_t cdiv(std::uint64_t a, std::uint64_t b) { return (a + b - 1) / b; }

// ---- Hand models of the kernels: the threads and the addresses their index math gives ---------------

// The four accesses of pixel i (grayscale_pixel): R, G, B loads and the grey store.
void pixel_accesses(std::vector<ModelAccess>& out, std::uint64_t i, std::uint64_t n, PixelLayout layout) {
    for (unsigned ch = 0; ch < 3; ++ch)
        out.push_back({"rgb" + std::to_string(ch), MemorySpace::Global, Access::Load,
                       layout == PixelLayout::Planar ? i + ch * n : 3 * i + ch, 1});
    out.push_back({"gray", MemorySpace::Global, Access::Store, i, 1});
}

// rgb and gray are separate buffers, each 256-byte aligned: only the offset within each matters.
Model grayscale_hand_model(GrayscaleVariant v, Dim3 block, std::uint32_t w, std::uint32_t h, PixelLayout layout,
                           std::uint64_t keep) {
    const std::uint64_t n = std::uint64_t(w) * h;
    Model m;
    m.keep_block = keep;
    const unsigned threads = block.x * block.y * block.z;
    if (v == GrayscaleVariant::Gray2d) {
        const Dim3 grid{unsigned(cdiv(w, block.x)), unsigned(std::min<std::uint64_t>(cdiv(h, block.y), 65535)), 1};
        const std::uint64_t stride = std::uint64_t(grid.y) * block.y;
        for (unsigned by = 0; by < grid.y; ++by)
            for (unsigned bx = 0; bx < grid.x; ++bx) {
                std::vector<std::vector<ModelAccess>> prog(threads);
                for (unsigned ty = 0; ty < block.y; ++ty)
                    for (unsigned tx = 0; tx < block.x; ++tx) {
                        auto& p = prog[ty * block.x + tx];
                        const std::uint64_t c = std::uint64_t(bx) * block.x + tx;
                        if (c >= w) continue;
                        for (std::uint64_t r = std::uint64_t(by) * block.y + ty; r < h; r += stride) pixel_accesses(p, r * w + c, n, layout);
                    }
                m.add_block(std::uint64_t(by) * grid.x + bx, prog);
            }
        return m;
    }
    const unsigned per = v == GrayscaleVariant::Gray1d ? 1 : v == GrayscaleVariant::Gray1dX4 ? 4 : 16;
    const std::uint64_t blocks = cdiv(cdiv(n, per), block.x);
    const std::uint64_t stride = blocks * block.x;  // vec16's grid-stride (the grid covers n in one pass)
    const bool vec = layout == PixelLayout::Interleaved || n % 16 == 0;  // buffers are 256-byte aligned
    for (std::uint64_t b = 0; b < blocks; ++b) {
        std::vector<std::vector<ModelAccess>> prog(threads);
        for (unsigned t = 0; t < block.x; ++t) {
            auto& p = prog[t];
            const std::uint64_t g = b * block.x + t;
            if (per == 1) {
                if (g < n) pixel_accesses(p, g, n, layout);
            } else if (per == 4) {
                for (unsigned j = 0; j < 4; ++j)
                    if (g * 4 + j < n) pixel_accesses(p, g * 4 + j, n, layout);
            } else {
                for (std::uint64_t q = g; q * 16 < n; q += stride) {
                    if (vec && q < n / 16) {
                        for (unsigned s = 0; s < 3; ++s)
                            p.push_back({"v" + std::to_string(s), MemorySpace::Global, Access::Load,
                                         layout == PixelLayout::Planar ? s * n + 16 * q : 48 * q + 16 * s, 16});
                        p.push_back({"vgray", MemorySpace::Global, Access::Store, 16 * q, 16});
                    } else {
                        for (std::uint64_t i = q * 16; i < q * 16 + 16 && i < n; ++i) pixel_accesses(p, i, n, layout);
                    }
                }
            }
        }
        m.add_block(b, prog);
    }
    return m;
}

// matmul_naive and matmul_tiled<T>: A at 0, B and C in their own buffers (offsets from 0 in each);
// sites are labelled per operand, so loads of A and B never share a request.
Model matmul_hand_model(const MatmulLaunch& l, std::uint32_t M, std::uint32_t K, std::uint32_t N, std::uint64_t keep) {
    Model m;
    m.keep_block = keep;
    const Dim3 block = l.kernel == MatmulVariant::Tiled ? Dim3{l.tile, l.tile, 1} : l.block;
    const Dim3 grid{unsigned(cdiv(N, block.x)), unsigned(cdiv(M, block.y)), 1};
    const unsigned T = l.tile;
    for (unsigned by = 0; by < grid.y; ++by)
        for (unsigned bx = 0; bx < grid.x; ++bx) {
            std::vector<std::vector<ModelAccess>> prog(block.x * block.y);
            for (unsigned ty = 0; ty < block.y; ++ty)
                for (unsigned tx = 0; tx < block.x; ++tx) {
                    auto& p = prog[ty * block.x + tx];
                    const std::uint64_t r = std::uint64_t(by) * block.y + ty, c = std::uint64_t(bx) * block.x + tx;
                    if (l.kernel == MatmulVariant::Naive) {
                        if (r >= M || c >= N) continue;
                        for (std::uint64_t i = 0; i < K; ++i) {
                            p.push_back({"A", MemorySpace::Global, Access::Load, 4 * (r * K + i), 4});
                            p.push_back({"B", MemorySpace::Global, Access::Load, 4 * (i * N + c), 4});
                        }
                        p.push_back({"C", MemorySpace::Global, Access::Store, 4 * (r * N + c), 4});
                        continue;
                    }
                    const std::uint64_t as = 0, bs = 4ull * T * T;  // the two tiles in shared memory
                    for (std::uint64_t ph = 0; ph < cdiv(K, T); ++ph) {
                        const std::uint64_t ka = ph * T + tx, kb = ph * T + ty;
                        if (r < M && ka < K) p.push_back({"A", MemorySpace::Global, Access::Load, 4 * (r * K + ka), 4});
                        p.push_back({"As", MemorySpace::Shared, Access::Store, as + 4 * (ty * T + tx), 4});
                        if (kb < K && c < N) p.push_back({"B", MemorySpace::Global, Access::Load, 4 * (kb * N + c), 4});
                        p.push_back({"Bs", MemorySpace::Shared, Access::Store, bs + 4 * (ty * T + tx), 4});
                        for (unsigned i = 0; i < T; ++i) {
                            p.push_back({"as", MemorySpace::Shared, Access::Load, as + 4 * (ty * T + i), 4});
                            p.push_back({"bs", MemorySpace::Shared, Access::Load, bs + 4 * (i * T + tx), 4});
                        }
                    }
                    if (r < M && c < N) p.push_back({"C", MemorySpace::Global, Access::Store, 4 * (r * N + c), 4});
                }
            m.add_block(std::uint64_t(by) * grid.x + bx, prog);
        }
    return m;
}

// ---- The log model: the body's own accesses, logged one by one, for every catalogue variant ---------

std::string source_of(const char* file) {
    const std::string f = file;
    const std::size_t at = f.rfind("kernels/");
    return at == std::string::npos ? f : f.substr(at);
}

struct AccessLog {
    struct Range {
        const unsigned char* base;
        std::size_t bytes;
    };
    std::vector<Range> buffers;
    std::size_t shared_bytes = 0;
    std::uint64_t current = ~0ull;
    std::vector<std::vector<ModelAccess>> prog;
    Model* model = nullptr;
    Dim3 grid;

    // noinline: the emulator's CPU-path runner is `flatten`ed (cpu_dispatch.h), which would otherwise
    // inline this logging (maps, strings) into every body and take the compiler minutes.
    [[gnu::noinline]] void on_access(const EmuContext& c, Access a, const void* p, std::size_t bytes, const AccessSite& site) {
        const std::uint64_t b = linear_block_id(c.block_idx(), grid);
        if (b != current) flush(), current = b;
        const auto* q = static_cast<const unsigned char*>(p);
        const auto* sh = static_cast<const unsigned char*>(c.shared_);
        ModelAccess m{source_of(site.file) + ":" + std::to_string(site.line) + (a == Access::Load ? "L" : "S"),
                      MemorySpace::Global, a, 0, unsigned(bytes)};
        if (sh && q >= sh && q < sh + shared_bytes) {
            m.space = MemorySpace::Shared;
            m.offset = std::uint64_t(q - sh);
        } else {
            bool found = false;
            for (const Range& r : buffers)
                if (q >= r.base && q < r.base + r.bytes) m.offset = std::uint64_t(q - r.base), found = true;
            if (!found) QFAIL("an access outside every buffer");
        }
        prog[linear_thread_id(c.thread_idx(), c.block_dim())].push_back(m);
    }
    void on_sync(const EmuContext&) {}
    void flush() {
        if (current != ~0ull) model->add_block(current, prog);
        for (auto& p : prog) p.clear();
    }
};

struct Aligned {
    explicit Aligned(std::size_t bytes) : p(static_cast<unsigned char*>(std::aligned_alloc(256, (bytes / 256 + 1) * 256))) {
        std::memset(p.get(), 0, (bytes / 256 + 1) * 256);
    }
    struct Free {
        void operator()(unsigned char* q) const { std::free(q); }
    };
    std::unique_ptr<unsigned char[], Free> p;
};

Model grayscale_log_model(const LaunchShape& shape, std::uint32_t w, std::uint32_t h, PixelLayout layout, std::uint64_t keep) {
    const std::uint64_t n = std::uint64_t(w) * h;
    Aligned rgb(3 * n), gray(n);
    const GrayscaleImage im{rgb.p.get(), gray.p.get(), w, h, layout};
    Model m;
    m.keep_block = keep;
    AccessLog log;
    log.model = &m;
    log.buffers = {{rgb.p.get(), 3 * n}, {gray.p.get(), n}};
    log.grid = grayscale_grid(shape, w, h);
    log.prog.resize(shape.block.volume());
    EmuOptions o;
    o.host_threads = 1;
    const Status s = with_grayscale_variant(shape.kind, [&](auto body) {
        using Body = decltype(body);
        return emulate(log.grid, shape.block, o, [&](const EmuContext& ctx) { Body::run(TracedContext(ctx, log), im); });
    });
    if (!s) qFatal("%s", s.message().c_str());
    log.flush();
    return m;
}

Model matmul_log_model(const MatmulLaunch& l, std::uint32_t M, std::uint32_t K, std::uint32_t N, std::uint64_t keep) {
    const std::size_t w_bytes = 4 * matmul_workspace_floats(l, M, N);  // split-K's partial sums
    Aligned a(4ull * M * K), b(4ull * K * N), c(4ull * M * N), w(w_bytes);
    MatmulProblem p{reinterpret_cast<const float*>(a.p.get()), reinterpret_cast<const float*>(b.p.get()),
                    reinterpret_cast<float*>(c.p.get()), M, K, N};
    if (w_bytes > 0) p.partials = reinterpret_cast<float*>(w.p.get());
    Model m;
    m.keep_block = keep;
    AccessLog log;
    log.model = &m;
    log.buffers = {{a.p.get(), 4ull * M * K}, {b.p.get(), 4ull * K * N}, {c.p.get(), 4ull * M * N}};
    if (w_bytes > 0) log.buffers.push_back({w.p.get(), w_bytes});
    const Dim3 block = l.block_shape();
    log.grid = matmul_grid(l, M, N);
    log.prog.resize(block.volume());
    log.shared_bytes = l.shared_bytes();
    EmuOptions o;
    o.host_threads = 1;
    const MatmulRunOptions run{l.second_barrier};
    const Status s = with_matmul_variant(l, [&](auto body) {
        using Body = decltype(body);
        o.barriers = Body::barriers;
        o.shared_bytes = log.shared_bytes;
        return emulate(log.grid, block, o, [&](const EmuContext& ctx) { Body::run(TracedContext(ctx, log), p, run); });
    });
    if (!s) qFatal("%s", s.message().c_str());
    log.flush();
    return m;
}

struct Size {
    std::uint32_t w, h;
};

// Under the sanitizers (the asan test preset sets CUDAVIZ_TEST_SANITIZED) every variant is still traced
// and compared, on the first `n` of each list of blocks and sizes only: the full lists take over 10
// minutes there, and the sanitizers look for memory errors, which the plain run's full lists add nothing to.
template <class T>
std::vector<T> light(std::vector<T> all, std::size_t n) {
    if (qEnvironmentVariableIsSet("CUDAVIZ_TEST_SANITIZED") && all.size() > n) all.resize(n);
    return all;
}

std::vector<Dim3> grayscale_blocks(const KernelInfo& k) {
    if (k.block == BlockRule::OneD) return light<Dim3>({Dim3{33, 1, 1}, Dim3{256, 1, 1}, Dim3{1, 1, 1}, Dim3{32, 1, 1}, Dim3{96, 1, 1}, Dim3{257, 1, 1}, Dim3{1024, 1, 1}}, 2);
    return light<Dim3>({Dim3{7, 3, 1}, Dim3{16, 16, 1}, Dim3{1, 1, 1}, Dim3{32, 8, 1}, Dim3{3, 37, 1}, Dim3{1024, 1, 1}, Dim3{1, 1024, 1}}, 2);
}

std::vector<MatmulLaunch> matmul_launches(const KernelInfo& k) {
    std::vector<MatmulLaunch> out;
    const MatmulVariant v = MatmulVariant(k.variant);
    if (k.block == BlockRule::TwoD)
        for (Dim3 b : light<Dim3>({Dim3{7, 3, 1}, Dim3{16, 16, 1}, Dim3{1, 1, 1}, Dim3{32, 8, 1}, Dim3{3, 37, 1}}, 2)) out.push_back(MatmulLaunch::of(v, b, 16));
    else if (k.block == BlockRule::Tile)
        for (unsigned t : k.tiles) out.push_back(MatmulLaunch::of(v, Dim3{t, t, 1}, t));
    else
        out.push_back(MatmulLaunch::of(v, k.fixed_block, 16));
    return out;
}

QString launch_name(const KernelInfo& k, Dim3 b, const QString& size, const char* layout = "") {
    return QStringLiteral("%1 %2x%3x%4 %5 %6").arg(QString::fromStdString(k.name)).arg(b.x).arg(b.y).arg(b.z).arg(size).arg(layout);
}

TraceOptions keep(std::uint64_t block, unsigned host_threads = 0) {
    TraceOptions o;
    o.keep_blocks = {block};
    o.host_threads = host_threads;
    return o;
}

}  // namespace

class TestMemoryTrace : public QObject {
    Q_OBJECT
private slots:
    void request_cost_by_hand();
    void grayscale_equals_hand_model();
    void grayscale_large_image_equals_hand_model();
    void every_grayscale_variant_equals_log_model();
    void matmul_equals_hand_model();
    void every_matmul_variant_equals_log_model();
    void shared_memory_broadcasts_and_conflicts();
    void sites_name_real_source_lines();
    void source_paths_are_repo_relative();
    void lines_sum_to_totals();
    void nsight_names_and_values();
    void host_threads_do_not_change_figures();
    void progress_and_cancel();
    void invalid_launch_is_refused();
};

// Costs of requests worked out on paper.
void TestMemoryTrace::request_cost_by_hand() {
    auto lanes = [](unsigned count, std::uint64_t first, std::uint64_t stride, unsigned bytes) {
        std::vector<LaneAccess> l;
        for (unsigned i = 0; i < count; ++i) l.push_back({i, bytes, first + i * stride});
        return l;
    };
    // 32 consecutive floats from 0: 128 bytes, 4 sectors, ideal 4.
    RequestCost c = global_request_cost(lanes(32, 0, 4, 4));
    QCOMPARE(c.sectors, 4u);
    QCOMPARE(c.ideal_sectors, 4u);
    // The same from byte 4: 5 sectors (it crosses into a fifth), ideal 4.
    c = global_request_cost(lanes(32, 4, 4, 4));
    QCOMPARE(c.sectors, 5u);
    QCOMPARE(c.ideal_sectors, 4u);
    // Interleaved R of 32 pixels: bytes 0, 3, ..., 93: sectors 0..2 = 3, ideal 1.
    c = global_request_cost(lanes(32, 0, 3, 1));
    QCOMPARE(c.sectors, 3u);
    QCOMPARE(c.ideal_sectors, 1u);
    // A broadcast: 32 lanes, one float: 1 and 1.
    c = global_request_cost(lanes(32, 100, 0, 4));
    QCOMPARE(c.sectors, 1u);
    QCOMPARE(c.ideal_sectors, 1u);
    // A column of a 61-wide float matrix: 32 sectors, ideal 4 (128 distinct bytes).
    c = global_request_cost(lanes(32, 0, 244, 4));
    QCOMPARE(c.sectors, 32u);
    QCOMPARE(c.ideal_sectors, 4u);
    // Shared: 32 consecutive words, 1 wavefront; stride 2 words, 2-way; stride 32 words, 32-way;
    // everyone on one word, a broadcast: 1.
    QCOMPARE(shared_request_cost(lanes(32, 0, 4, 4)).wavefronts, 1u);
    QCOMPARE(shared_request_cost(lanes(32, 0, 8, 4)).wavefronts, 2u);
    QCOMPARE(shared_request_cost(lanes(32, 0, 128, 4)).wavefronts, 32u);
    QCOMPARE(shared_request_cost(lanes(32, 64, 0, 4)).wavefronts, 1u);
    QCOMPARE(shared_request_cost(lanes(32, 64, 0, 4)).ideal_wavefronts, 1u);
    // 16-byte accesses, consecutive: each quarter-warp covers 32 words in 32 banks: 4 wavefronts,
    // ideal 4, no conflict. With a stride of 32 bytes a quarter-warp spans 64 words: 2 per bank: 8.
    RequestCost v = shared_request_cost(lanes(32, 0, 16, 16));
    QCOMPARE(v.wavefronts, 4u);
    QCOMPARE(v.ideal_wavefronts, 4u);
    v = shared_request_cost(lanes(32, 0, 32, 16));
    QCOMPARE(v.wavefronts, 8u);
    // Only lanes 0..3 (one quarter): 1 wavefront, ideal 1.
    v = shared_request_cost(lanes(4, 0, 16, 16));
    QCOMPARE(v.wavefronts, 1u);
    QCOMPARE(v.ideal_wavefronts, 1u);
    // 8-byte accesses, consecutive: two half-warps of 32 words: 2 and 2.
    v = shared_request_cost(lanes(32, 0, 8, 8));
    QCOMPARE(v.wavefronts, 2u);
    QCOMPARE(v.ideal_wavefronts, 2u);
}

void TestMemoryTrace::grayscale_equals_hand_model() {
    const std::vector<Size> sizes = light<Size>({{97, 33}, {1, 53}, {53, 1}, {33, 97}, {1, 1}}, 2);
    for (const KernelInfo& k : family_catalogue(KernelFamily::Grayscale))
        for (const Dim3& b : grayscale_blocks(k))
            for (const Size& sz : sizes)
                for (PixelLayout layout : {PixelLayout::Interleaved, PixelLayout::Planar}) {
                    const LaunchShape shape = LaunchShape::of(GrayscaleVariant(k.variant), b);
                    const Dim3 grid = grayscale_grid(shape, sz.w, sz.h);
                    const std::uint64_t kept = grid.volume() / 2;
                    const TraceResult r = trace_grayscale(nullptr, sz.w, sz.h, layout, shape, keep(kept));
                    const QString what = launch_name(k, b, QStringLiteral("%1x%2").arg(sz.w).arg(sz.h),
                                                     layout == PixelLayout::Planar ? "planar" : "interleaved");
                    QVERIFY2(r.status.is_ok(), qPrintable(what + ": " + QString::fromStdString(r.status.message())));
                    QVERIFY(r.trace.grid == grid);
                    compare(r.trace, grayscale_hand_model(shape.kind, b, sz.w, sz.h, layout, kept), what);
                }
}

void TestMemoryTrace::grayscale_large_image_equals_hand_model() {
    // The lecture's two launches (the smaller sizes above cover every variant and block); the model's
    // sets make this the slow case, so two launches only.
    const std::uint32_t w = 1537, h = 1023;
    for (const auto& [shape, layout] : light<std::pair<LaunchShape, PixelLayout>>(
             {std::pair{LaunchShape::one_d(256), PixelLayout::Interleaved}, std::pair{LaunchShape::two_d(16, 16), PixelLayout::Planar}}, 1)) {
        const std::uint64_t kept = grayscale_grid(shape, w, h).volume() - 1;  // the ragged last block
        const TraceResult r = trace_grayscale(nullptr, w, h, layout, shape, keep(kept));
        QVERIFY2(r.status.is_ok(), r.status.message().c_str());
        compare(r.trace, grayscale_hand_model(shape.kind, shape.block, w, h, layout, kept),
                QStringLiteral("%1 1537x1023").arg(QString::fromStdString(to_string(shape))));
    }
}

void TestMemoryTrace::every_grayscale_variant_equals_log_model() {
    const std::vector<Size> sizes = light<Size>({{97, 33}, {1, 53}, {53, 1}, {16, 5}}, 2);
    for (const KernelInfo& k : family_catalogue(KernelFamily::Grayscale))
        for (const Dim3& b : grayscale_blocks(k))
            for (const Size& sz : sizes)
                for (PixelLayout layout : {PixelLayout::Interleaved, PixelLayout::Planar}) {
                    const LaunchShape shape = LaunchShape::of(GrayscaleVariant(k.variant), b);
                    const TraceResult r = trace_grayscale(nullptr, sz.w, sz.h, layout, shape, keep(0));
                    QVERIFY2(r.status.is_ok(), r.status.message().c_str());
                    compare(r.trace, grayscale_log_model(shape, sz.w, sz.h, layout, 0),
                            launch_name(k, b, QStringLiteral("%1x%2").arg(sz.w).arg(sz.h)));
                }
}

void TestMemoryTrace::matmul_equals_hand_model() {
    struct Shape {
        std::uint32_t m, k, n;
    };
    const std::vector<Shape> shapes = light<Shape>({{97, 33, 61}, {40, 17, 9}, {1, 40, 53}, {53, 40, 1}, {1, 1, 1}}, 2);
    std::vector<MatmulLaunch> launches;
    for (Dim3 b : {Dim3{1, 1, 1}, Dim3{7, 3, 1}, Dim3{16, 16, 1}, Dim3{32, 8, 1}, Dim3{3, 37, 1}}) launches.push_back(MatmulLaunch::naive(b.x, b.y));
    for (unsigned t : {8u, 16u, 32u}) {
        launches.push_back(MatmulLaunch::tiled(t));
        MatmulLaunch racy = MatmulLaunch::tiled(t);
        racy.second_barrier = false;  // the missing barrier changes values, not addresses
        launches.push_back(racy);
    }
    // Under the sanitizers: one naive block shape, one TILE with and without the second barrier.
    if (qEnvironmentVariableIsSet("CUDAVIZ_TEST_SANITIZED")) launches = {launches[1], launches[7], launches[8]};
    for (const MatmulLaunch& l : launches)
        for (const Shape& s : shapes) {
            const std::uint64_t kept = matmul_grid(l, s.m, s.n).volume() - 1;
            const TraceResult r = trace_matmul(nullptr, nullptr, s.m, s.k, s.n, l, keep(kept));
            const QString what = QStringLiteral("%1%2 %3x%4@%4x%5")
                                     .arg(QString::fromStdString(to_string(l)))
                                     .arg(l.second_barrier ? "" : " no 2nd barrier")
                                     .arg(s.m).arg(s.k).arg(s.n);
            QVERIFY2(r.status.is_ok(), qPrintable(what + ": " + QString::fromStdString(r.status.message())));
            compare(r.trace, matmul_hand_model(l, s.m, s.k, s.n, kept), what);
        }
}

void TestMemoryTrace::every_matmul_variant_equals_log_model() {
    struct Shape {
        std::uint32_t m, k, n;
    };
    // 97x33@33x61 takes the scalar staging of the float4 kernels (K, N odd); 20x12@12x36 their float4 path.
    const std::vector<Shape> shapes = light<Shape>({{97, 33, 61}, {20, 12, 36}, {1, 40, 53}, {53, 40, 1}}, 2);
    for (const KernelInfo& k : family_catalogue(KernelFamily::Matmul))
        for (const MatmulLaunch& l : matmul_launches(k))
            for (const Shape& s : shapes) {
                const TraceResult r = trace_matmul(nullptr, nullptr, s.m, s.k, s.n, l, keep(1));
                QVERIFY2(r.status.is_ok(), r.status.message().c_str());
                compare(r.trace, matmul_log_model(l, s.m, s.k, s.n, 1),
                        launch_name(k, l.block_shape(), QStringLiteral("%1x%2@%2x%3").arg(s.m).arg(s.k).arg(s.n)));
            }
}

// The tiled kernel reads a row of its A tile (one word for a whole row of lanes: a broadcast) and a
// column of its B tile (consecutive words): no conflict at any TILE. The 2-D blocktile reads A at
// (ty*8+i)*8+d: two rows of lanes per warp, 64 words apart, same bank: 2 wavefronts. The float4
// kernels read 16 bytes per lane, served by quarter-warps.
void TestMemoryTrace::shared_memory_broadcasts_and_conflicts() {
    for (unsigned t : {8u, 16u, 32u}) {
        const TraceResult r = trace_matmul(nullptr, nullptr, 64, 64, 64, MatmulLaunch::tiled(t), keep(0));
        QVERIFY(r.status.is_ok());
        const RequestCounts& ld = r.trace.totals.shared_ld;
        QVERIFY(ld.requests > 0);
        QCOMPARE(ld.bank_conflicts(), 0ull);
        QCOMPARE(ld.wavefronts, ld.requests);
        // Broadcasts: a request of the A tile has 32 lanes on 32 / TILE distinct words.
        bool saw_broadcast = false;
        for (const MemoryRequest* q : r.trace.requests_of(0, 0)) {
            if (q->space != MemorySpace::Shared || q->access != Access::Load) continue;
            std::set<std::uint64_t> words;
            for (const LaneAccess& a : q->lanes) words.insert(a.offset / 4);
            if (words.size() < q->lanes.size()) saw_broadcast = true;
            QCOMPARE(q->wavefronts, 1u);
        }
        QVERIFY(saw_broadcast);
    }
    {
        const TraceResult r = trace_matmul(nullptr, nullptr, 128, 16, 128, MatmulLaunch::of(MatmulVariant::Blocktile2d, Dim3{16, 16, 1}, 16), keep(0));
        QVERIFY(r.status.is_ok());
        QVERIFY(r.trace.totals.shared_ld.bank_conflicts() > 0);
        bool two_way = false;
        for (const MemoryRequest* q : r.trace.requests_of(0, 0))
            if (q->space == MemorySpace::Shared && q->access == Access::Load && q->wavefronts == 2) two_way = true;
        QVERIFY(two_way);
    }
    {
        const TraceResult r = trace_matmul(nullptr, nullptr, 128, 16, 128, MatmulLaunch::of(MatmulVariant::Warptile, Dim3{128, 1, 1}, 16), keep(0));
        QVERIFY(r.status.is_ok());
        bool wide = false;
        for (const MemoryRequest* q : r.trace.requests_of(0, 0))
            if (q->space == MemorySpace::Shared && q->lanes.front().bytes == 16) {
                wide = true;
                QCOMPARE(q->ideal_wavefronts, 4u);
            }
        QVERIFY(wide);
    }
}

// Every site names a file under kernels/ and a line of it that holds the load or store.
void TestMemoryTrace::sites_name_real_source_lines() {
    std::vector<MemoryTrace> traces;
    traces.push_back(trace_grayscale(nullptr, 97, 33, PixelLayout::Planar, LaunchShape::two_d(16, 16)).trace);
    traces.push_back(trace_matmul(nullptr, nullptr, 97, 33, 61, MatmulLaunch::tiled(16)).trace);
    for (const MemoryTrace& t : traces) {
        QVERIFY(!t.sites.empty());
        for (const TraceSite& s : t.sites) {
            QVERIFY2(s.where.file.rfind("kernels/", 0) == 0, s.where.file.c_str());
            QVERIFY2(s.where.file.find("..") == std::string::npos && s.where.file.find("//") == std::string::npos, s.where.file.c_str());
            std::ifstream in(std::string(CUDAVIZ_SOURCE_DIR) + "/" + s.where.file);
            QVERIFY2(in, s.where.file.c_str());
            std::string text;
            for (unsigned i = 0; i < s.where.line && std::getline(in, text); ++i) {
            }
            const char* word = s.access == Access::Load ? "ctx.load(" : "ctx.store(";
            QVERIFY2(text.find(word) != std::string::npos, qPrintable(QString::fromStdString(s.where.file + ":" + std::to_string(s.where.line) + ": " + text)));
        }
    }
}

void TestMemoryTrace::source_paths_are_repo_relative() {
    QCOMPARE(repo_relative_source("/work/wt/x/kernels/trace/../grayscale/grayscale_body.h"), std::string("kernels/grayscale/grayscale_body.h"));
    QCOMPARE(repo_relative_source("../kernels/matmul/./matmul_body.h"), std::string("kernels/matmul/matmul_body.h"));
    QCOMPARE(repo_relative_source("kernels/matmul/matmul_body.h"), std::string("kernels/matmul/matmul_body.h"));
    QCOMPARE(repo_relative_source("/src/kernels/kernels/x.h"), std::string("kernels/x.h"));
    QCOMPARE(repo_relative_source("/elsewhere/body.h"), std::string("/elsewhere/body.h"));
}

void TestMemoryTrace::lines_sum_to_totals() {
    const TraceResult r = trace_matmul(nullptr, nullptr, 97, 33, 61, MatmulLaunch::tiled(8));
    MemoryMetrics sum;
    for (const LineMetrics& l : r.trace.lines) sum += l.metrics;
    QVERIFY(sum.nsight() == r.trace.totals.nsight());
    QCOMPARE(sum.global_ld.ideal_sectors, r.trace.totals.global_ld.ideal_sectors);
    QVERIFY(std::is_sorted(r.trace.lines.begin(), r.trace.lines.end(), [](const LineMetrics& a, const LineMetrics& b) { return a.where < b.where; }));
}

void TestMemoryTrace::nsight_names_and_values() {
    QCOMPARE(kNsightMetricNames.size(), std::size_t(10));
    const std::set<std::string> names(kNsightMetricNames.begin(), kNsightMetricNames.end());
    QCOMPARE(names.size(), std::size_t(10));
    const TraceResult r = trace_matmul(nullptr, nullptr, 97, 33, 61, MatmulLaunch::tiled(16));
    const MemoryMetrics& m = r.trace.totals;
    std::uint64_t v = 0;
    QVERIFY(m.nsight("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", v));
    QCOMPARE(v, m.global_ld.requests);
    QVERIFY(m.nsight("l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", v));
    QCOMPARE(v, m.global_st.sectors);
    QVERIFY(m.nsight("smsp__sass_inst_executed_op_shared_st.sum", v));
    QCOMPARE(v, m.shared_st.requests);
    QVERIFY(m.nsight("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", v));
    QCOMPARE(v, m.shared_ld.wavefronts);
    QVERIFY(m.nsight("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", v));
    QCOMPARE(v, m.shared_ld.wavefronts - m.shared_ld.requests);
    QVERIFY(!m.nsight("dram__bytes.sum", v));
}

void TestMemoryTrace::host_threads_do_not_change_figures() {
    const LaunchShape shape = LaunchShape::one_d(96);
    const TraceResult one = trace_grayscale(nullptr, 301, 77, PixelLayout::Interleaved, shape, keep(3, 1));
    const TraceResult all = trace_grayscale(nullptr, 301, 77, PixelLayout::Interleaved, shape, keep(3, 4));
    QVERIFY(one.trace.totals.nsight() == all.trace.totals.nsight());
    QCOMPARE(one.trace.requests.size(), all.trace.requests.size());
    for (std::size_t i = 0; i < one.trace.requests.size(); ++i) {
        QCOMPARE(one.trace.requests[i].warp, all.trace.requests[i].warp);
        QCOMPARE(one.trace.requests[i].sectors, all.trace.requests[i].sectors);
        QCOMPARE(one.trace.requests[i].lanes.size(), all.trace.requests[i].lanes.size());
    }
    QCOMPARE(one.trace.lines.size(), all.trace.lines.size());
}

void TestMemoryTrace::progress_and_cancel() {
    std::vector<double> seen;
    TraceOptions o;
    o.progress = [&seen](double f) { seen.push_back(f); };
    const TraceResult r = trace_grayscale(nullptr, 640, 480, PixelLayout::Interleaved, LaunchShape::one_d(64), o);
    QVERIFY(r.status.is_ok());
    QVERIFY(!seen.empty());
    QVERIFY(seen.size() <= 101);
    QVERIFY(std::is_sorted(seen.begin(), seen.end()));
    QCOMPARE(seen.back(), 1.0);

    CancelToken cancel;
    cancel.request();
    o.cancel = &cancel;
    const TraceResult c = trace_matmul(nullptr, nullptr, 97, 33, 61, MatmulLaunch::tiled(16), o);
    QVERIFY(c.cancelled);
    QCOMPARE(c.trace.totals.global_ld.requests, 0ull);
}

void TestMemoryTrace::invalid_launch_is_refused() {
    const TraceResult g = trace_grayscale(nullptr, 8, 8, PixelLayout::Interleaved, LaunchShape::one_d(2048));
    QVERIFY(!g.status.is_ok());
    QCOMPARE(g.status.kind(), ErrorKind::InvalidInput);
    const TraceResult m = trace_matmul(nullptr, nullptr, 4, 4, 4, MatmulLaunch::tiled(12));
    QVERIFY(!m.status.is_ok());
}

QTEST_APPLESS_MAIN(TestMemoryTrace)
#include "tst_memory_trace.moc"
