#pragma once
// Device memory that another API can import: allocated with the driver's virtual memory management
// (cuMemCreate with a POSIX file-descriptor handle, mapped into this process's CUDA address space)
// and exported as a file descriptor, which OpenGL's GL_EXT_memory_object_fd imports once. The
// zero-copy display path (gl_interop.h, ExternalMemory) writes frames into it from CUDA and draws
// them in GL without mapping anything per frame.
//
// The driver API is reached through cudaGetDriverEntryPointByVersion, not by linking libcuda: the
// programs must still start on machines with the toolkit and no driver (CI), where the runtime
// reports "no device" instead. CUDA build only (a .cu translation unit includes this).
#include <cstddef>
#include <cstdint>

#include "../core/status.h"

namespace cvz {

class ExportableMemory {
public:
    ExportableMemory() = default;
    ~ExportableMemory();
    ExportableMemory(const ExportableMemory&) = delete;
    ExportableMemory& operator=(const ExportableMemory&) = delete;

    // At least `bytes` on CUDA device `device` (rounded up to the allocation granularity), mapped
    // read-write for that device and cleared to zero. Unavailable where the driver lacks virtual
    // memory management or POSIX file-descriptor handles.
    Status allocate(int device, std::size_t bytes);
    // A new file descriptor for the allocation; the caller owns it (GL takes ownership on import).
    Status export_fd(int* fd) const;
    void reset();

    void* pointer() const { return reinterpret_cast<void*>(address_); }
    std::size_t size() const { return size_; }  // the rounded-up size: what an importer must be told

private:
    std::uintptr_t address_ = 0;        // CUdeviceptr
    std::size_t size_ = 0;
    unsigned long long handle_ = 0;     // CUmemGenericAllocationHandle
    bool mapped_ = false;
};

}  // namespace cvz
