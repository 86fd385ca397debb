#include "runner_job.h"

#include <sstream>

namespace cvz::user {

namespace {

// Paths go last on their line, whole (a temporary directory may have spaces).
std::string rest(std::istringstream& in) {
    std::string s;
    std::getline(in >> std::ws, s);
    return s;
}

}  // namespace

std::string frame_job(const std::string& job_text) { return std::to_string(job_text.size()) + "\n" + job_text; }

std::string write_job(const RunnerJob& j) {
    std::ostringstream o;
    o << "object " << j.object << '\n';
    o << "file " << j.file_name << '\n';
    o << "grid " << j.grid.x << ' ' << j.grid.y << ' ' << j.grid.z << '\n';
    o << "block " << j.block.x << ' ' << j.block.y << ' ' << j.block.z << '\n';
    o << "barriers " << j.barriers << '\n';
    o << "host_threads " << j.host_threads << '\n';
    o << "dynamic_shared " << j.dynamic_shared << '\n';
    o << "trace " << j.trace << '\n';
    o << "all_warps " << j.all_warps << '\n';
    o << "schedule " << j.schedule << '\n';
    o << "progress " << j.progress << '\n';
    o << "time_limit " << j.time_limit_s << '\n';
    o << "access_budget " << j.access_budget << '\n';
    for (std::uint64_t b : j.keep_blocks) o << "keep " << b << '\n';
    for (std::uint64_t b : j.sample_blocks) o << "sample " << b << '\n';
    if (!j.trace_path.empty()) o << "trace_path " << j.trace_path << '\n';
    if (!j.schedule_path.empty()) o << "schedule_path " << j.schedule_path << '\n';
    for (const RunnerArg& a : j.args) {
        if (a.buffer) {
            o << "buffer " << a.name << ' ' << a.bytes << ' ' << a.element_bytes << ' ' << a.writable << ' ' << a.path << '\n';
            if (!a.writers_path.empty()) o << "writers " << a.writers_path << '\n';
        } else {
            o << "int " << a.name << ' ' << a.value << '\n';
        }
    }
    return o.str();
}

std::string read_job(const std::string& text, RunnerJob* job) {
    RunnerJob j;
    std::istringstream lines(text);
    std::string line;
    unsigned number = 0;
    while (std::getline(lines, line)) {
        ++number;
        if (line.empty()) continue;
        std::istringstream in(line);
        std::string key;
        in >> key;
        if (key == "object") j.object = rest(in);
        else if (key == "file") j.file_name = rest(in);
        else if (key == "grid") in >> j.grid.x >> j.grid.y >> j.grid.z;
        else if (key == "block") in >> j.block.x >> j.block.y >> j.block.z;
        else if (key == "barriers") in >> j.barriers;
        else if (key == "host_threads") in >> j.host_threads;
        else if (key == "dynamic_shared") in >> j.dynamic_shared;
        else if (key == "trace") in >> j.trace;
        else if (key == "all_warps") in >> j.all_warps;
        else if (key == "schedule") in >> j.schedule;
        else if (key == "progress") in >> j.progress;
        else if (key == "time_limit") in >> j.time_limit_s;
        else if (key == "access_budget") in >> j.access_budget;
        else if (key == "keep") j.keep_blocks.emplace_back(), in >> j.keep_blocks.back();
        else if (key == "sample") j.sample_blocks.emplace_back(), in >> j.sample_blocks.back();
        else if (key == "trace_path") j.trace_path = rest(in);
        else if (key == "schedule_path") j.schedule_path = rest(in);
        else if (key == "buffer") {
            RunnerArg a;
            a.buffer = true;
            in >> a.name >> a.bytes >> a.element_bytes >> a.writable;
            a.path = rest(in);
            j.args.push_back(a);
        } else if (key == "writers" && !j.args.empty()) j.args.back().writers_path = rest(in);
        else if (key == "int") {
            RunnerArg a;
            in >> a.name >> a.value;
            j.args.push_back(a);
        } else return "line " + std::to_string(number) + ": unknown key " + key;
        if (in.fail()) return "line " + std::to_string(number) + ": cannot read " + key;
    }
    if (j.object.empty()) return "no object";
    *job = std::move(j);
    return {};
}

}  // namespace cvz::user
