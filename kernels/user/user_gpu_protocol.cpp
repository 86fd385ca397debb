#include "user_gpu_protocol.h"

#include <cerrno>
#include <cstring>
#include <memory>

namespace cvz::user {

namespace {

constexpr std::uint32_t kRequestMagic = 0x43565251;   // "QRVC"
constexpr std::uint32_t kResponseMagic = 0x43565253;  // "SRVC"
constexpr std::uint32_t kVersion = 3;

struct FileCloser {
    void operator()(std::FILE* f) const { std::fclose(f); }
};
using File = std::unique_ptr<std::FILE, FileCloser>;

class Writer {
public:
    explicit Writer(std::FILE* f) : f_(f) {}
    void raw(const void* p, std::size_t n) {
        if (ok_ && n && std::fwrite(p, 1, n, f_) != n) ok_ = false;
    }
    void u32(std::uint32_t v) { raw(&v, sizeof v); }
    void u64(std::uint64_t v) { raw(&v, sizeof v); }
    void i32(std::int32_t v) { raw(&v, sizeof v); }
    void f64(double v) { raw(&v, sizeof v); }
    void str(const std::string& s) {
        u64(s.size());
        raw(s.data(), s.size());
    }
    bool ok() const { return ok_; }

private:
    std::FILE* f_;
    bool ok_ = true;
};

class Reader {
public:
    Reader(std::FILE* f, std::uint64_t size) : f_(f), left_(size) {}
    void raw(void* p, std::size_t n) {
        if (!ok_ || n > left_ || (n && std::fread(p, 1, n, f_) != n)) {
            ok_ = false;
            return;
        }
        left_ -= n;
    }
    std::uint32_t u32() { std::uint32_t v = 0; raw(&v, sizeof v); return v; }
    std::uint64_t u64() { std::uint64_t v = 0; raw(&v, sizeof v); return v; }
    std::int32_t i32() { std::int32_t v = 0; raw(&v, sizeof v); return v; }
    double f64() { double v = 0; raw(&v, sizeof v); return v; }
    // A length that claims more than the file holds is refused before anything is allocated.
    std::uint64_t length() {
        const std::uint64_t n = u64();
        if (n > left_) ok_ = false;
        return ok_ ? n : 0;
    }
    std::string str() {
        std::string s(length(), '\0');
        raw(s.data(), s.size());
        return s;
    }
    bool ok() const { return ok_; }
    bool at_end() const { return left_ == 0; }

private:
    std::FILE* f_;
    std::uint64_t left_;
    bool ok_ = true;
};

void dim(Writer& w, Dim3 d) {
    w.u32(d.x);
    w.u32(d.y);
    w.u32(d.z);
}
Dim3 dim(Reader& r) {
    Dim3 d;
    d.x = r.u32();
    d.y = r.u32();
    d.z = r.u32();
    return d;
}

std::string open_error(const std::string& path, const char* how) {
    return path + ": cannot open for " + how + " (" + std::strerror(errno) + ")";
}

// Opens for reading and measures the file.
File open_read(const std::string& path, std::uint64_t* size, std::string* error) {
    File f(std::fopen(path.c_str(), "rb"));
    if (!f) {
        *error = open_error(path, "reading");
        return f;
    }
    if (std::fseek(f.get(), 0, SEEK_END) != 0) {
        *error = path + ": cannot seek";
        return nullptr;
    }
    const long end = std::ftell(f.get());
    std::rewind(f.get());
    *size = end < 0 ? 0 : std::uint64_t(end);
    return f;
}

// Writes to PATH.part and renames it over PATH once complete, so that a reader never sees half a file.
template <class Fill>
std::string write_whole(const std::string& path, Fill&& fill) {
    const std::string part = path + ".part";
    File f(std::fopen(part.c_str(), "wb"));
    if (!f) return open_error(part, "writing");
    Writer w(f.get());
    fill(w);
    const bool flushed = std::fflush(f.get()) == 0;
    f.reset();
    if (!w.ok() || !flushed) return part + ": write failed (disk full?)";
    if (std::rename(part.c_str(), path.c_str()) != 0) return path + ": cannot rename (" + std::strerror(errno) + ")";
    return {};
}

}  // namespace

std::string write_gpu_request(const std::string& path, const GpuRunnerRequest& q) {
    return write_whole(path, [&](Writer& w) {
        w.u32(kRequestMagic);
        w.u32(kVersion);
        w.str(q.cubin);
        w.str(q.function);
        w.str(q.recorded_cubin);
        w.i32(q.device);
        dim(w, q.grid);
        dim(w, q.block);
        w.u32(std::uint32_t(q.time));
        w.i32(q.warmup);
        w.i32(q.repeats);
        w.i32(q.rounds);
        w.f64(q.budget_ms);
        w.f64(q.spin_up_ms);
        w.u32(std::uint32_t(q.hold));
        w.u64(q.args.size());
        for (const GpuRunnerArg& a : q.args) {
            w.u32(std::uint32_t(a.buffer));
            w.u32(std::uint32_t(a.writable));
            w.i32(a.value);
            w.str(a.name);
            w.u64(a.element_bytes);
            if (a.buffer) {
                w.u64(a.bytes);
                w.str(a.path);
            }
        }
    });
}

std::string read_gpu_request(const std::string& path, GpuRunnerRequest* q) {
    std::string error;
    std::uint64_t size = 0;
    File f = open_read(path, &size, &error);
    if (!f) return error;
    Reader r(f.get(), size);
    if (r.u32() != kRequestMagic || r.u32() != kVersion) return path + ": not a cudaviz GPU runner request (or another version)";
    q->cubin = r.str();
    q->function = r.str();
    q->recorded_cubin = r.str();
    q->device = r.i32();
    q->grid = dim(r);
    q->block = dim(r);
    q->time = r.u32() != 0;
    q->warmup = r.i32();
    q->repeats = r.i32();
    q->rounds = r.i32();
    q->budget_ms = r.f64();
    q->spin_up_ms = r.f64();
    q->hold = r.u32() != 0;
    const std::uint64_t count = r.u64();
    if (count > 4096) return path + ": " + std::to_string(count) + " arguments (at most 4096)";
    q->args.clear();
    for (std::uint64_t i = 0; i < count && r.ok(); ++i) {
        GpuRunnerArg a;
        a.buffer = r.u32() != 0;
        a.writable = r.u32() != 0;
        a.value = r.i32();
        a.name = r.str();
        a.element_bytes = r.u64();
        if (a.buffer) {
            a.bytes = r.u64();
            a.path = r.str();
        }
        q->args.push_back(std::move(a));
    }
    if (!r.ok() || !r.at_end()) return path + ": the request is truncated or malformed";
    return {};
}

std::string write_gpu_response(const std::string& path, const GpuRunnerResponse& s) {
    return write_whole(path, [&](Writer& w) {
        w.u32(kResponseMagic);
        w.u32(kVersion);
        w.u32(std::uint32_t(s.outcome));
        w.str(s.message);
        w.str(s.device);
        w.i32(s.sms);
        w.f64(s.run_ms);
        w.i32(s.registers);
        w.u64(s.static_shared_bytes);
        w.u64(s.samples_ms.size());
        for (double ms : s.samples_ms) w.f64(ms);
        w.u64(s.schedule.size());
        for (const BlockTiming& b : s.schedule) {
            w.i32(b.sm);
            w.u64(b.start_ns);
            w.u64(b.end_ns);
        }
    });
}

std::string read_gpu_response(const std::string& path, GpuRunnerResponse* s) {
    std::string error;
    std::uint64_t size = 0;
    File f = open_read(path, &size, &error);
    if (!f) return error;
    Reader r(f.get(), size);
    if (r.u32() != kResponseMagic || r.u32() != kVersion) return path + ": not a cudaviz GPU runner response (or another version)";
    const std::uint32_t outcome = r.u32();
    if (outcome > std::uint32_t(GpuRunnerOutcome::BoundsFault)) return path + ": unknown outcome " + std::to_string(outcome);
    s->outcome = GpuRunnerOutcome(outcome);
    s->message = r.str();
    s->device = r.str();
    s->sms = r.i32();
    s->run_ms = r.f64();
    s->registers = r.i32();
    s->static_shared_bytes = r.u64();
    const std::uint64_t samples = r.length() ;
    for (std::uint64_t i = 0; i < samples && r.ok(); ++i) s->samples_ms.push_back(r.f64());
    const std::uint64_t blocks = r.length();
    for (std::uint64_t i = 0; i < blocks && r.ok(); ++i) {
        BlockTiming b;
        b.sm = r.i32();
        b.start_ns = r.u64();
        b.end_ns = r.u64();
        s->schedule.push_back(b);
    }
    if (!r.ok() || !r.at_end()) return path + ": the response is truncated or malformed";
    return {};
}

}  // namespace cvz::user
