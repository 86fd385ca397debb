#pragma once
// Host storage aligned as cudaMalloc aligns device memory (256 bytes), so that a traced launch sees
// the alignment the GPU sees (a body's is_aligned16 checks take the same branch) and a buffer's byte
// offsets fall into the same 32-byte sectors.
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>

namespace cvz {

class AlignedBytes {
public:
    static constexpr std::size_t kAlignment = 256;

    explicit AlignedBytes(std::size_t bytes) : bytes_(bytes) {
        // aligned_alloc wants a multiple of the alignment; one spare block keeps a size of 0 valid.
        const std::size_t rounded = (bytes / kAlignment + 1) * kAlignment;
        data_.reset(static_cast<unsigned char*>(std::aligned_alloc(kAlignment, rounded)));
        if (!data_) throw std::bad_alloc();
        std::memset(data_.get(), 0, rounded);
    }
    unsigned char* data() { return data_.get(); }
    const unsigned char* data() const { return data_.get(); }
    std::size_t size() const { return bytes_; }
    template <class T> T* as() { return reinterpret_cast<T*>(data_.get()); }

private:
    struct Free {
        void operator()(unsigned char* p) const { std::free(p); }
    };
    std::unique_ptr<unsigned char[], Free> data_;
    std::size_t bytes_ = 0;
};

}  // namespace cvz
