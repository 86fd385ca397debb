#include "memory_trace_io.h"

#include <cstdint>
#include <cstring>

namespace cvz {

namespace {

constexpr std::uint32_t kTraceMagic = 0x54565a43;     // "CZVT"
constexpr std::uint32_t kScheduleMagic = 0x53565a43;  // "CZVS"
constexpr std::uint32_t kVersion = 1;

class Writer {
public:
    void u8(std::uint8_t v) { out_.push_back(char(v)); }
    void u32(std::uint32_t v) { raw(v); }
    void u64(std::uint64_t v) { raw(v); }
    void str(const std::string& s) {
        u64(s.size());
        out_ += s;
    }
    void dim(Dim3 d) {
        u32(d.x);
        u32(d.y);
        u32(d.z);
    }
    void counts(const RequestCounts& c) {
        u64(c.requests);
        u64(c.sectors);
        u64(c.ideal_sectors);
        u64(c.wavefronts);
        u64(c.ideal_wavefronts);
    }
    void metrics(const MemoryMetrics& m) {
        counts(m.global_ld);
        counts(m.global_st);
        counts(m.shared_ld);
        counts(m.shared_st);
        counts(m.constant_ld);
    }
    std::string take() { return std::move(out_); }

private:
    template <class T> void raw(T v) {
        char b[sizeof(T)];
        for (std::size_t k = 0; k < sizeof(T); ++k) b[k] = char((v >> (8 * k)) & 0xff);
        out_.append(b, sizeof(T));
    }
    std::string out_;
};

// Reads fields until the bytes run out; then every read fails and gives zeros, checked once per record.
class Reader {
public:
    explicit Reader(const std::string& s) : s_(s) {}
    bool ok() const { return ok_; }
    std::size_t left() const { return s_.size() - at_; }
    std::uint8_t u8() { return std::uint8_t(raw<std::uint8_t>()); }
    std::uint32_t u32() { return raw<std::uint32_t>(); }
    std::uint64_t u64() { return raw<std::uint64_t>(); }
    std::string str() {
        const std::uint64_t n = u64();
        if (!ok_ || n > left()) return fail(), std::string();
        std::string v = s_.substr(at_, n);
        at_ += n;
        return v;
    }
    Dim3 dim() {
        Dim3 d;
        d.x = u32();
        d.y = u32();
        d.z = u32();
        return d;
    }
    RequestCounts counts() {
        RequestCounts c;
        c.requests = u64();
        c.sectors = u64();
        c.ideal_sectors = u64();
        c.wavefronts = u64();
        c.ideal_wavefronts = u64();
        return c;
    }
    MemoryMetrics metrics() {
        MemoryMetrics m;
        m.global_ld = counts();
        m.global_st = counts();
        m.shared_ld = counts();
        m.shared_st = counts();
        m.constant_ld = counts();
        return m;
    }
    // A count of records of at least `min_bytes` each: refused when they cannot all be there.
    std::uint64_t count(std::size_t min_bytes) {
        const std::uint64_t n = u64();
        if (!ok_ || (min_bytes && n > left() / min_bytes)) return fail(), 0;
        return n;
    }
    void fail() { ok_ = false; }

private:
    template <class T> T raw() {
        if (!ok_ || left() < sizeof(T)) return fail(), T(0);
        T v = 0;
        for (std::size_t k = 0; k < sizeof(T); ++k) v |= T(T(static_cast<unsigned char>(s_[at_ + k])) << (8 * k));
        at_ += sizeof(T);
        return v;
    }
    const std::string& s_;
    std::size_t at_ = 0;
    bool ok_ = true;
};

constexpr std::size_t kMetricsBytes = 5 * 5 * 8;

std::string damaged(const std::string& source, const char* what) {
    return source + ": not a memory trace cudaviz can read (" + what + ")";
}

}  // namespace

std::string serialize_memory_trace(const MemoryTrace& t) {
    Writer w;
    w.u32(kTraceMagic);
    w.u32(kVersion);
    w.dim(t.grid);
    w.dim(t.block);
    w.u64(t.buffers.size());
    for (const TraceBuffer& b : t.buffers) {
        w.str(b.name);
        w.u8(std::uint8_t(b.space));
        w.u64(b.bytes);
    }
    w.u64(t.sites.size());
    for (const TraceSite& s : t.sites) {
        w.str(s.where.file);
        w.u32(s.where.line);
        w.u8(std::uint8_t(s.access));
    }
    w.metrics(t.totals);
    w.u64(t.lines.size());
    for (const LineMetrics& l : t.lines) {
        w.str(l.where.file);
        w.u32(l.where.line);
        w.metrics(l.metrics);
    }
    w.u64(t.warps.size());
    for (const WarpMetrics& m : t.warps) {
        w.u64(m.block);
        w.u32(m.warp);
        w.metrics(m.metrics);
    }
    w.u64(t.requests.size());
    for (const MemoryRequest& r : t.requests) {
        w.u64(r.block);
        w.u32(r.warp);
        w.u32(r.site);
        w.u32(r.occurrence);
        w.u8(std::uint8_t(r.space));
        w.u8(std::uint8_t(r.access));
        w.u32(std::uint32_t(std::int32_t(r.buffer)));
        w.u32(r.sectors);
        w.u32(r.ideal_sectors);
        w.u32(r.wavefronts);
        w.u32(r.ideal_wavefronts);
        w.u64(r.lanes.size());
        for (const LaneAccess& a : r.lanes) {
            w.u32(a.lane);
            w.u32(a.bytes);
            w.u64(a.offset);
        }
    }
    w.u64(t.unmapped_accesses);
    return w.take();
}

std::string deserialize_memory_trace(const std::string& bytes, const std::string& source, MemoryTrace* out) {
    *out = MemoryTrace{};
    Reader r(bytes);
    if (r.u32() != kTraceMagic || !r.ok()) return damaged(source, "no trace header");
    if (const std::uint32_t v = r.u32(); v != kVersion)
        return source + ": memory trace version " + std::to_string(v) + ", this cudaviz reads version " +
               std::to_string(kVersion);
    MemoryTrace t;
    t.grid = r.dim();
    t.block = r.dim();
    const auto space = [&](std::uint8_t v) {
        if (v > std::uint8_t(MemorySpace::Constant)) r.fail();
        return MemorySpace(v);
    };
    const auto access = [&](std::uint8_t v) {
        if (v > std::uint8_t(Access::Store)) r.fail();
        return Access(v);
    };
    t.buffers.resize(r.count(8 + 1 + 8));
    for (TraceBuffer& b : t.buffers) {
        b.name = r.str();
        b.space = space(r.u8());
        b.bytes = r.u64();
    }
    t.sites.resize(r.count(8 + 4 + 1));
    for (TraceSite& s : t.sites) {
        s.where.file = r.str();
        s.where.line = r.u32();
        s.access = access(r.u8());
    }
    t.totals = r.metrics();
    t.lines.resize(r.count(8 + 4 + kMetricsBytes));
    for (LineMetrics& l : t.lines) {
        l.where.file = r.str();
        l.where.line = r.u32();
        l.metrics = r.metrics();
    }
    t.warps.resize(r.count(8 + 4 + kMetricsBytes));
    for (WarpMetrics& m : t.warps) {
        m.block = r.u64();
        m.warp = r.u32();
        m.metrics = r.metrics();
    }
    t.requests.resize(r.count(8 + 4 * 3 + 2 + 4 * 5 + 8));
    for (MemoryRequest& q : t.requests) {
        q.block = r.u64();
        q.warp = r.u32();
        q.site = r.u32();
        q.occurrence = r.u32();
        q.space = space(r.u8());
        q.access = access(r.u8());
        q.buffer = int(std::int32_t(r.u32()));
        q.sectors = r.u32();
        q.ideal_sectors = r.u32();
        q.wavefronts = r.u32();
        q.ideal_wavefronts = r.u32();
        q.lanes.resize(r.count(16));
        for (LaneAccess& a : q.lanes) {
            a.lane = r.u32();
            a.bytes = r.u32();
            a.offset = r.u64();
        }
        if (!r.ok()) break;
        if (q.site >= t.sites.size() || (q.buffer >= 0 && std::size_t(q.buffer) >= t.buffers.size()) || q.buffer < -1)
            return damaged(source, "a request names a site or buffer it does not have");
    }
    t.unmapped_accesses = r.u64();
    if (!r.ok()) return damaged(source, "it ends early or a count is larger than the file");
    if (r.left() != 0) return damaged(source, "bytes after its end");
    *out = std::move(t);
    return {};
}

std::string serialize_block_schedule(const std::vector<BlockTiming>& schedule) {
    Writer w;
    w.u32(kScheduleMagic);
    w.u32(kVersion);
    w.u64(schedule.size());
    for (const BlockTiming& b : schedule) {
        w.u32(std::uint32_t(std::int32_t(b.sm)));
        w.u64(b.start_ns);
        w.u64(b.end_ns);
    }
    return w.take();
}

std::string deserialize_block_schedule(const std::string& bytes, const std::string& source,
                                       std::vector<BlockTiming>* out) {
    out->clear();
    Reader r(bytes);
    if (r.u32() != kScheduleMagic || r.u32() != kVersion || !r.ok())
        return source + ": not a block schedule cudaviz can read";
    std::vector<BlockTiming> s(r.count(20));
    for (BlockTiming& b : s) {
        b.sm = int(std::int32_t(r.u32()));
        b.start_ns = r.u64();
        b.end_ns = r.u64();
    }
    if (!r.ok() || r.left() != 0) return source + ": a damaged block schedule (it ends early or has bytes after its end)";
    *out = std::move(s);
    return {};
}

}  // namespace cvz
