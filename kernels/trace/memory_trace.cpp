#include "memory_trace.h"

#include <algorithm>
#include <cstring>
#include <tuple>

namespace cvz {

const std::array<const char*, kNsightMetricCount> kNsightMetricNames = {
    "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
    "smsp__sass_inst_executed_op_shared_ld.sum",
    "smsp__sass_inst_executed_op_shared_st.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
};

RequestCounts& RequestCounts::operator+=(const RequestCounts& o) {
    requests += o.requests;
    sectors += o.sectors;
    ideal_sectors += o.ideal_sectors;
    wavefronts += o.wavefronts;
    ideal_wavefronts += o.ideal_wavefronts;
    return *this;
}

const RequestCounts& MemoryMetrics::counts(MemorySpace space, Access access) const {
    if (space == MemorySpace::Global) return access == Access::Load ? global_ld : global_st;
    if (space == MemorySpace::Constant) return constant_ld;
    return access == Access::Load ? shared_ld : shared_st;
}

RequestCounts& MemoryMetrics::counts(MemorySpace space, Access access) {
    return const_cast<RequestCounts&>(static_cast<const MemoryMetrics&>(*this).counts(space, access));
}

void MemoryMetrics::add(const MemoryRequest& r) {
    RequestCounts& c = counts(r.space, r.access);
    ++c.requests;
    c.sectors += r.sectors;
    c.ideal_sectors += r.ideal_sectors;
    c.wavefronts += r.wavefronts;
    c.ideal_wavefronts += r.ideal_wavefronts;
}

MemoryMetrics& MemoryMetrics::operator+=(const MemoryMetrics& o) {
    global_ld += o.global_ld;
    global_st += o.global_st;
    shared_ld += o.shared_ld;
    shared_st += o.shared_st;
    constant_ld += o.constant_ld;
    return *this;
}

std::array<std::uint64_t, kNsightMetricCount> MemoryMetrics::nsight() const {
    return {global_ld.requests,  global_ld.sectors,    global_st.requests,         global_st.sectors,
            shared_ld.requests,  shared_st.requests,   shared_ld.wavefronts,       shared_st.wavefronts,
            shared_ld.bank_conflicts(), shared_st.bank_conflicts()};
}

bool MemoryMetrics::nsight(const std::string& name, std::uint64_t& value) const {
    const auto values = nsight();
    for (std::size_t i = 0; i < kNsightMetricCount; ++i)
        if (name == kNsightMetricNames[i]) {
            value = values[i];
            return true;
        }
    return false;
}

bool operator<(const SourceLine& a, const SourceLine& b) { return std::tie(a.file, a.line) < std::tie(b.file, b.line); }
bool operator==(const SourceLine& a, const SourceLine& b) { return a.line == b.line && a.file == b.file; }

std::string repo_relative_source(const char* compiler_path) {
    // Lexically normalised first: a header included as "../grayscale/x.h" from kernels/trace/ is seen
    // as ".../kernels/trace/../grayscale/x.h".
    const std::string path = compiler_path ? compiler_path : "";
    std::vector<std::string> parts;
    std::size_t at = 0;
    while (at <= path.size()) {
        const std::size_t slash = std::min(path.find('/', at), path.size());
        const std::string part = path.substr(at, slash - at);
        if (part == "..") {
            if (!parts.empty() && parts.back() != "..") parts.pop_back();
            else parts.push_back(part);
        } else if (!part.empty() && part != ".") {
            parts.push_back(part);
        }
        at = slash + 1;
    }
    std::size_t from = parts.size();
    for (std::size_t i = parts.size(); i-- > 0;)
        if (parts[i] == "kernels") {
            from = i;
            break;
        }
    if (from == parts.size()) return path;
    std::string out;
    for (std::size_t i = from; i < parts.size(); ++i) out += (i > from ? "/" : "") + parts[i];
    return out;
}

std::vector<const MemoryRequest*> MemoryTrace::requests_of(std::uint64_t block, std::uint32_t warp) const {
    std::vector<const MemoryRequest*> out;
    for (const MemoryRequest& r : requests)
        if (r.block == block && r.warp == warp) out.push_back(&r);
    return out;
}

const LineMetrics* MemoryTrace::line(const std::string& file, unsigned line) const {
    for (const LineMetrics& l : lines)
        if (l.where.line == line && l.where.file == file) return &l;
    return nullptr;
}

}  // namespace cvz
