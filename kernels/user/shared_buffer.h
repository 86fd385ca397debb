#pragma once
// Memory that the caller and an isolated child process both map (MAP_SHARED over a file in a private
// temporary directory): the launch's buffers go in, the outputs and the records come back, with no
// copy through a pipe. The child may map a buffer with inaccessible guard regions around it, so that
// an access just outside it faults instead of landing in another buffer.
#include <cstddef>
#include <string>

namespace cvz::user {

class SharedBuffer {
public:
    SharedBuffer() = default;
    SharedBuffer(SharedBuffer&& o) noexcept { *this = std::move(o); }
    SharedBuffer& operator=(SharedBuffer&& o) noexcept;
    SharedBuffer(const SharedBuffer&) = delete;
    SharedBuffer& operator=(const SharedBuffer&) = delete;
    ~SharedBuffer() { unmap(); }

    // A new file `path` of `bytes` bytes (zeros), mapped read-write. On failure: invalid, *error set.
    static SharedBuffer create(const std::string& path, std::size_t bytes, std::string* error);
    // Memory with no file behind it (memfd: no disk, no write-back), mapped read-write; path() is
    // "/proc/PID/fd/N", which another process of the same user opens while this buffer lives.
    static SharedBuffer create_anonymous(const std::string& name, std::size_t bytes, std::string* error);
    // An existing file, mapped read-write or read-only; `bytes` must be its size.
    static SharedBuffer open(const std::string& path, std::size_t bytes, bool writable, std::string* error);
    // The same with `guard_bytes` (rounded up to pages) of inaccessible address space before and after
    // it; data() is page aligned, so the first guard page starts right below it and an access past the
    // end faults at the latest at the next page boundary.
    static SharedBuffer open_guarded(const std::string& path, std::size_t bytes, bool writable,
                                     std::size_t guard_bytes, std::string* error);

    bool valid() const { return data_ != nullptr || (valid_empty_ && bytes_ == 0); }
    void* data() const { return data_; }
    std::size_t size() const { return bytes_; }
    const std::string& path() const { return path_; }
    // The whole reservation, guards included (equal to [data, data + size) without guards).
    const unsigned char* reserved_begin() const { return static_cast<const unsigned char*>(region_); }
    const unsigned char* reserved_end() const { return static_cast<const unsigned char*>(region_) + region_bytes_; }

private:
    void unmap();
    std::string path_;
    void* data_ = nullptr;
    std::size_t bytes_ = 0;
    void* region_ = nullptr;  // what is unmapped at the end
    std::size_t region_bytes_ = 0;
    bool valid_empty_ = false;
    int fd_ = -1;  // kept open by create_anonymous: it is what path() names
};

// A private directory (mode 0700) under $TMPDIR or /tmp, removed with what it holds when destroyed.
class TempDir {
public:
    TempDir() = default;
    TempDir(TempDir&& o) noexcept : path_(std::move(o.path_)) { o.path_.clear(); }
    TempDir& operator=(TempDir&& o) noexcept;
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    ~TempDir() { remove(); }

    static TempDir make(const std::string& prefix, std::string* error);
    bool valid() const { return !path_.empty(); }
    const std::string& path() const { return path_; }
    std::string file(const std::string& name) const { return path_ + "/" + name; }

private:
    void remove();
    std::string path_;
};

}  // namespace cvz::user
