#pragma once
// Host storage aligned as cudaMalloc aligns device memory (256 bytes), so that a traced launch sees
// the alignment the GPU sees (a body's is_aligned16 checks take the same branch) and a buffer's byte
// offsets fall into the same 32-byte sectors.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>

namespace cvz {

class AlignedBytes {
public:
    static constexpr std::size_t kAlignment = 256;

    explicit AlignedBytes(std::size_t bytes) : bytes_(bytes) {
        // calloc, aligned by hand: a large block comes as fresh zero pages that cost nothing until
        // touched, so a sampled trace of an 8K image or a 4096x4096 C pays only for what it reaches.
        raw_.reset(static_cast<unsigned char*>(std::calloc(bytes + 2 * kAlignment, 1)));
        align();
    }
    // A copy of `bytes` bytes at `source`, or zeros when it is null. A copy is not zeroed first (a
    // block reused from the heap, as a repeated trace's is, would be cleared in full for nothing).
    AlignedBytes(const void* source, std::size_t bytes) : bytes_(bytes) {
        if (!source) {
            *this = AlignedBytes(bytes);
            return;
        }
        raw_.reset(static_cast<unsigned char*>(std::malloc(bytes + 2 * kAlignment)));
        align();
        if (bytes) std::memcpy(data_, source, bytes);
    }
    unsigned char* data() { return data_; }
    const unsigned char* data() const { return data_; }
    std::size_t size() const { return bytes_; }
    template <class T> T* as() { return reinterpret_cast<T*>(data_); }

private:
    void align() {
        if (!raw_) throw std::bad_alloc();
        const std::uintptr_t p = reinterpret_cast<std::uintptr_t>(raw_.get());
        data_ = raw_.get() + ((kAlignment - p % kAlignment) % kAlignment);
    }
    struct Free {
        void operator()(unsigned char* p) const { std::free(p); }
    };
    std::unique_ptr<unsigned char[], Free> raw_;
    unsigned char* data_ = nullptr;
    std::size_t bytes_ = 0;
};

}  // namespace cvz
