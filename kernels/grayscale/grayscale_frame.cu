// One grayscale frame written into a display's target (grayscale_frame.h): the picture stays on the
// device; each frame is one launch through the family's launchers (launch_grayscale_to_surface for a
// texture's surface, launch_grayscale_on_device for memory), timed with events on the target's stream.
#include <cuda_runtime.h>

#include <string>
#include <type_traits>

#include "../cuda/cuda_check.h"
#include "../cuda/cuda_event.h"
#include "../cuda/device_buffer.h"
#include "grayscale_device_launch.h"
#include "grayscale_frame.h"
#include "grayscale_launch.h"

namespace cvz {

static_assert(std::is_same_v<cudaSurfaceObject_t, unsigned long long>, "InteropTarget::surface holds a cudaSurfaceObject_t");

struct GrayscaleFrame::Impl {
    std::vector<std::uint8_t> host;  // the picture as given, until it is on the device
    std::uint32_t width = 0, height = 0;
    PixelLayout layout = PixelLayout::Interleaved;
    bool has_picture = false;
    int device = -1;                  // where `rgb` lives; -1: not uploaded yet
    DeviceBuffer<std::uint8_t> rgb;
    DeviceBuffer<std::uint8_t> scratch;  // a pitched memory target is written here first
    CudaEvent start, stop;

    std::uint64_t pixels() const { return std::uint64_t(width) * height; }

    Status upload(int to) {
        if (device == to && rgb.get()) return Status::ok();
        CVZ_CUDA_TRY(cudaSetDevice(to));
        // Buffers and events belong to the device they were made on.
        rgb = DeviceBuffer<std::uint8_t>();
        scratch = DeviceBuffer<std::uint8_t>();
        start = CudaEvent();
        stop = CudaEvent();
        device = -1;
        if (Status s = rgb.allocate(host.size()); !s) return s;
        CVZ_CUDA_TRY(cudaMemcpy(rgb.get(), host.data(), host.size(), cudaMemcpyHostToDevice));
        if (Status s = start.create(); !s) return s;
        if (Status s = stop.create(); !s) return s;
        device = to;
        return Status::ok();
    }
};

GrayscaleFrame::GrayscaleFrame() : impl_(std::make_unique<Impl>()) {}
GrayscaleFrame::~GrayscaleFrame() = default;

Status GrayscaleFrame::set_picture(std::vector<std::uint8_t> rgb, std::uint32_t width, std::uint32_t height,
                                   PixelLayout layout) {
    if (rgb.empty() || rgb.size() != 3 * std::size_t(width) * height)
        return Status::error(ErrorKind::InvalidInput, "the RGB bytes do not hold " + std::to_string(width) + "x" +
                                                          std::to_string(height) + " pixels");
    Impl& d = *impl_;
    d.host = std::move(rgb);
    d.width = width;
    d.height = height;
    d.layout = layout;
    d.has_picture = true;
    d.device = -1;  // uploaded at the next write, to the target's device
    return Status::ok();
}

bool GrayscaleFrame::has_picture() const { return impl_->has_picture; }
std::uint32_t GrayscaleFrame::width() const { return impl_->width; }
std::uint32_t GrayscaleFrame::height() const { return impl_->height; }
PixelLayout GrayscaleFrame::layout() const { return impl_->layout; }

Status GrayscaleFrame::write(const InteropTarget& target, const LaunchShape& shape, GrayscaleFrameRun* run,
                             bool read_back) {
    Impl& d = *impl_;
    if (!d.has_picture) return Status::error(ErrorKind::InvalidInput, "no picture yet: call set_picture first");
    if (target.width != d.width || target.height != d.height)
        return Status::error(ErrorKind::InvalidInput, "the target is " + std::to_string(target.width) + "x" +
                                                          std::to_string(target.height) + ", the picture " +
                                                          std::to_string(d.width) + "x" + std::to_string(d.height));
    if (!target.is_surface() && (!target.pointer || target.pitch < target.width))
        return Status::error(ErrorKind::InvalidInput, "the target is neither a surface nor device memory of pitch >= width");
    // The user's launch is checked before anything is queued: InvalidInput means "this launch".
    if (std::string e = validate_grayscale_launch(shape, d.width, d.height); !e.empty())
        return Status::error(ErrorKind::InvalidInput, e);
    if (std::string e = validate_grayscale_layout(shape, d.layout); !e.empty())
        return Status::error(ErrorKind::InvalidInput, e);
    if (Status s = d.upload(target.device); !s) return s;
    CVZ_CUDA_TRY(cudaSetDevice(d.device));
    const auto stream = static_cast<cudaStream_t>(target.stream);
    const bool timed = run != nullptr;

    // The kernel writes flat pixel i at out + i; memory of another pitch gets a 2-D copy afterwards.
    const bool direct = target.is_surface() || target.pitch == target.width;
    std::uint8_t* out = static_cast<std::uint8_t*>(target.pointer);
    if (!direct) {
        if (d.scratch.size() != d.pixels())
            if (Status s = d.scratch.allocate(d.pixels()); !s) return s;
        out = d.scratch.get();
    }
    const GrayscaleImage image{d.rgb.get(), out, d.width, d.height, d.layout};
    if (timed)
        if (Status s = d.start.record(stream); !s) return s;
    const Status launched = target.is_surface()
                                ? launch_grayscale_to_surface(image, cudaSurfaceObject_t(target.surface), shape, stream)
                                : launch_grayscale_on_device(image, shape, stream);
    if (!launched) return launched;
    if (timed)
        if (Status s = d.stop.record(stream); !s) return s;
    if (!direct)
        CVZ_CUDA_TRY(cudaMemcpy2DAsync(target.pointer, target.pitch, out, d.width, d.width, d.height,
                                       cudaMemcpyDeviceToDevice, stream));
    if (!run) return Status::ok();
    if (Status s = elapsed_ms(d.start, d.stop, &run->kernel_ms); !s) return s;
    if (!read_back) return Status::ok();
    // The bytes the frame holds now: what the display will show, copied back after the kernel.
    run->gray.resize(d.pixels());
    if (target.is_surface()) {
        cudaResourceDesc desc{};
        CVZ_CUDA_TRY(cudaGetSurfaceObjectResourceDesc(&desc, cudaSurfaceObject_t(target.surface)));
        CVZ_CUDA_TRY(cudaMemcpy2DFromArrayAsync(run->gray.data(), d.width, desc.res.array.array, 0, 0, d.width,
                                                d.height, cudaMemcpyDeviceToHost, stream));
    } else {
        CVZ_CUDA_TRY(cudaMemcpy2DAsync(run->gray.data(), d.width, target.pointer, target.pitch, d.width, d.height,
                                       cudaMemcpyDeviceToHost, stream));
    }
    CVZ_CUDA_TRY(cudaStreamSynchronize(stream));
    return Status::ok();
}

}  // namespace cvz
