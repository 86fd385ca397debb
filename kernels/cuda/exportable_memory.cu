#include "exportable_memory.h"

#include <cuda.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <string>

#include "cuda_check.h"

namespace cvz {

namespace {

// The driver entry points this needs, resolved once through the runtime (no link against libcuda).
struct DriverVmm {
    decltype(&::cuMemGetAllocationGranularity) granularity = nullptr;
    decltype(&::cuMemCreate) create = nullptr;
    decltype(&::cuMemRelease) release = nullptr;
    decltype(&::cuMemAddressReserve) reserve = nullptr;
    decltype(&::cuMemAddressFree) address_free = nullptr;
    decltype(&::cuMemMap) map = nullptr;
    decltype(&::cuMemUnmap) unmap = nullptr;
    decltype(&::cuMemSetAccess) set_access = nullptr;
    decltype(&::cuMemExportToShareableHandle) export_handle = nullptr;
    decltype(&::cuGetErrorName) error_name = nullptr;
    decltype(&::cuDeviceGet) device_get = nullptr;
    decltype(&::cuDeviceGetAttribute) attribute = nullptr;
    std::string missing;

    DriverVmm() {
        get("cuMemGetAllocationGranularity", &granularity);
        get("cuMemCreate", &create);
        get("cuMemRelease", &release);
        get("cuMemAddressReserve", &reserve);
        get("cuMemAddressFree", &address_free);
        get("cuMemMap", &map);
        get("cuMemUnmap", &unmap);
        get("cuMemSetAccess", &set_access);
        get("cuMemExportToShareableHandle", &export_handle);
        get("cuGetErrorName", &error_name);
        get("cuDeviceGet", &device_get);
        get("cuDeviceGetAttribute", &attribute);
    }
    template <class Fn>
    void get(const char* name, Fn* fn) {
        void* p = nullptr;
        cudaDriverEntryPointQueryResult found{};
        // 12000: the ABI of these functions as of CUDA 12.0 (unchanged since 10.2).
        if (cudaGetDriverEntryPointByVersion(name, &p, 12000, cudaEnableDefault, &found) != cudaSuccess ||
            found != cudaDriverEntryPointSuccess || !p) {
            (void)cudaGetLastError();
            missing += (missing.empty() ? "" : ", ") + std::string(name);
            return;
        }
        *fn = reinterpret_cast<Fn>(p);
    }
    Status check(CUresult r, const char* what) const {
        if (r == CUDA_SUCCESS) return Status::ok();
        const char* name = nullptr;
        if (error_name) error_name(r, &name);
        const ErrorKind kind = r == CUDA_ERROR_NOT_SUPPORTED || r == CUDA_ERROR_NO_DEVICE ? ErrorKind::Unavailable
                                                                                          : ErrorKind::Device;
        return Status::error(kind, std::string(what) + ": " + (name ? name : "CUresult " + std::to_string(int(r))));
    }
};

const DriverVmm& driver() {
    static const DriverVmm d;
    return d;
}

CUmemAllocationProp properties(int device) {
    CUmemAllocationProp prop{};
    prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    prop.location.id = device;
    prop.requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
    return prop;
}

}  // namespace

ExportableMemory::~ExportableMemory() { reset(); }

Status ExportableMemory::allocate(int device, std::size_t bytes) {
    reset();
    const DriverVmm& d = driver();
    if (!d.missing.empty()) return Status::error(ErrorKind::Unavailable, "the CUDA driver lacks " + d.missing);
    CVZ_CUDA_TRY(cudaSetDevice(device));
    CVZ_CUDA_TRY(cudaFree(nullptr));  // the primary context current, for the driver calls
    CUdevice dev = 0;
    int supported = 0;
    if (Status s = d.check(d.device_get(&dev, device), "cuDeviceGet"); !s) return s;
    if (Status s = d.check(d.attribute(&supported, CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_SUPPORTED, dev),
                           "cuDeviceGetAttribute");
        !s)
        return s;
    if (!supported)
        return Status::error(ErrorKind::Unavailable, "CUDA device " + std::to_string(device) +
                                                         " cannot export memory as a POSIX file descriptor");
    const CUmemAllocationProp prop = properties(device);
    std::size_t grain = 0;
    if (Status s = d.check(d.granularity(&grain, &prop, CU_MEM_ALLOC_GRANULARITY_RECOMMENDED), "cuMemGetAllocationGranularity"); !s)
        return s;
    if (grain == 0) grain = 2u << 20;
    size_ = (std::max<std::size_t>(bytes, 1) + grain - 1) / grain * grain;
    CUmemGenericAllocationHandle handle = 0;
    if (Status s = d.check(d.create(&handle, size_, &prop, 0), "cuMemCreate"); !s) {
        size_ = 0;
        return s;
    }
    handle_ = handle;
    CUdeviceptr address = 0;
    if (Status s = d.check(d.reserve(&address, size_, grain, 0, 0), "cuMemAddressReserve"); !s) {
        reset();
        return s;
    }
    address_ = std::uintptr_t(address);
    if (Status s = d.check(d.map(address, size_, 0, handle, 0), "cuMemMap"); !s) {
        reset();
        return s;
    }
    mapped_ = true;
    CUmemAccessDesc access{};
    access.location = prop.location;
    access.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
    if (Status s = d.check(d.set_access(address, size_, &access, 1), "cuMemSetAccess"); !s) {
        reset();
        return s;
    }
    // Each frame's upload reads the whole image: bytes a writer leaves alone must be defined.
    if (Status s = cuda_status(cudaMemset(pointer(), 0, size_), "cudaMemset"); !s) {
        reset();
        return s;
    }
    return Status::ok();
}

Status ExportableMemory::export_fd(int* fd) const {
    if (!handle_) return Status::error(ErrorKind::InvalidInput, "no memory to export");
    const DriverVmm& d = driver();
    int out = -1;
    if (Status s = d.check(d.export_handle(&out, CUmemGenericAllocationHandle(handle_),
                                           CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0),
                           "cuMemExportToShareableHandle");
        !s)
        return s;
    *fd = out;
    return Status::ok();
}

void ExportableMemory::reset() {
    const DriverVmm& d = driver();
    if (mapped_ && d.unmap) d.unmap(CUdeviceptr(address_), size_);
    if (address_ && d.address_free) d.address_free(CUdeviceptr(address_), size_);
    if (handle_ && d.release) d.release(CUmemGenericAllocationHandle(handle_));
    mapped_ = false;
    address_ = 0;
    handle_ = 0;
    size_ = 0;
}

}  // namespace cvz
