#include "shared_buffer.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>

namespace cvz::user {

namespace {

std::size_t page_size() {
    static const std::size_t page = std::size_t(sysconf(_SC_PAGESIZE));
    return page;
}
std::size_t round_up(std::size_t v, std::size_t to) { return (v + to - 1) / to * to; }

std::string failure(const std::string& what, const std::string& path) {
    return what + " " + path + ": " + std::strerror(errno);
}

// Maps `bytes` of `fd` at `at` (or anywhere when null).
void* map_file(int fd, std::size_t bytes, bool writable, void* at) {
    const int prot = PROT_READ | (writable ? PROT_WRITE : 0);
    void* p = ::mmap(at, bytes, prot, MAP_SHARED | (at ? MAP_FIXED : 0), fd, 0);
    return p == MAP_FAILED ? nullptr : p;
}

}  // namespace

SharedBuffer& SharedBuffer::operator=(SharedBuffer&& o) noexcept {
    if (this != &o) {
        unmap();
        path_ = std::move(o.path_);
        data_ = o.data_;
        bytes_ = o.bytes_;
        region_ = o.region_;
        region_bytes_ = o.region_bytes_;
        valid_empty_ = o.valid_empty_;
        fd_ = o.fd_;
        o.fd_ = -1;
        o.data_ = o.region_ = nullptr;
        o.bytes_ = o.region_bytes_ = 0;
        o.valid_empty_ = false;
    }
    return *this;
}

void SharedBuffer::unmap() {
    if (region_) ::munmap(region_, region_bytes_);
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
    region_ = data_ = nullptr;
    region_bytes_ = bytes_ = 0;
}

SharedBuffer SharedBuffer::create(const std::string& path, std::size_t bytes, std::string* error) {
    const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0) {
        *error = failure("cannot create", path);
        return {};
    }
    if (::ftruncate(fd, off_t(bytes)) != 0) {
        *error = failure("cannot size", path);
        ::close(fd);
        return {};
    }
    ::close(fd);
    return open(path, bytes, true, error);
}

SharedBuffer SharedBuffer::create_anonymous(const std::string& name, std::size_t bytes, std::string* error) {
    const int fd = ::memfd_create(name.c_str(), MFD_CLOEXEC);
    if (fd < 0) {
        *error = failure("cannot make shared memory", name);
        return {};
    }
    if (::ftruncate(fd, off_t(bytes)) != 0) {
        *error = failure("cannot size shared memory", name);
        ::close(fd);
        return {};
    }
    const std::string path = "/proc/" + std::to_string(::getpid()) + "/fd/" + std::to_string(fd);
    SharedBuffer b = open(path, bytes, true, error);
    if (!b.valid()) {
        ::close(fd);
        return {};
    }
    b.fd_ = fd;
    return b;
}

SharedBuffer SharedBuffer::open(const std::string& path, std::size_t bytes, bool writable, std::string* error) {
    return open_guarded(path, bytes, writable, 0, error);
}

SharedBuffer SharedBuffer::open_guarded(const std::string& path, std::size_t bytes, bool writable,
                                        std::size_t guard_bytes, std::string* error) {
    SharedBuffer b;
    b.path_ = path;
    b.bytes_ = bytes;
    const int fd = ::open(path.c_str(), (writable ? O_RDWR : O_RDONLY) | O_CLOEXEC);
    if (fd < 0) {
        *error = failure("cannot open", path);
        return {};
    }
    struct stat st {};
    if (::fstat(fd, &st) != 0 || std::size_t(st.st_size) != bytes) {
        *error = path + ": expected " + std::to_string(bytes) + " bytes, found " + std::to_string(st.st_size);
        ::close(fd);
        return {};
    }
    const std::size_t page = page_size(), guard = round_up(guard_bytes, page), body = round_up(bytes, page);
    if (body == 0 && guard == 0) {
        ::close(fd);
        b.valid_empty_ = true;
        return b;
    }
    // Reserve guard + body + guard inaccessible, then map the file over the middle.
    b.region_bytes_ = guard + std::max(body, page) + guard;
    b.region_ = ::mmap(nullptr, b.region_bytes_, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (b.region_ == MAP_FAILED) {
        b.region_ = nullptr;
        *error = failure("cannot reserve address space for", path);
        ::close(fd);
        return {};
    }
    void* at = static_cast<unsigned char*>(b.region_) + guard;
    if (body > 0) {
        if (!map_file(fd, body, writable, at)) {
            *error = failure("cannot map", path);
            ::close(fd);
            return {};  // b's destructor frees the reservation
        }
    }
    ::close(fd);
    b.data_ = at;
    return b;
}

TempDir& TempDir::operator=(TempDir&& o) noexcept {
    if (this != &o) {
        remove();
        path_ = std::move(o.path_);
        o.path_.clear();
    }
    return *this;
}

TempDir TempDir::make(const std::string& prefix, std::string* error) {
    const char* base = std::getenv("TMPDIR");
    std::string pattern = std::string(base && *base ? base : "/tmp") + "/" + prefix + "-XXXXXX";
    TempDir d;
    if (!::mkdtemp(pattern.data())) {
        *error = failure("cannot make a temporary directory", pattern);
        return d;
    }
    d.path_ = pattern;
    return d;
}

void TempDir::remove() {
    if (path_.empty()) return;
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
    path_.clear();
}

}  // namespace cvz::user
