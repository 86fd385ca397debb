// Built instead of grayscale_frame.cu when the CUDA toolkit was not found: the picture is kept (so the
// session code is the same), and every frame answers Unavailable; the worker's emulator runs instead.
#include "grayscale_frame.h"

namespace cvz {

struct GrayscaleFrame::Impl {
    std::vector<std::uint8_t> rgb;
    std::uint32_t width = 0, height = 0;
    PixelLayout layout = PixelLayout::Interleaved;
};

GrayscaleFrame::GrayscaleFrame() : impl_(std::make_unique<Impl>()) {}
GrayscaleFrame::~GrayscaleFrame() = default;

Status GrayscaleFrame::set_picture(std::vector<std::uint8_t> rgb, std::uint32_t width, std::uint32_t height,
                                   PixelLayout layout) {
    if (rgb.size() != 3 * std::size_t(width) * height || rgb.empty())
        return Status::error(ErrorKind::InvalidInput, "the RGB bytes do not hold " + std::to_string(width) + "x" +
                                                          std::to_string(height) + " pixels");
    impl_->rgb = std::move(rgb);
    impl_->width = width;
    impl_->height = height;
    impl_->layout = layout;
    return Status::ok();
}

bool GrayscaleFrame::has_picture() const { return !impl_->rgb.empty(); }
std::uint32_t GrayscaleFrame::width() const { return impl_->width; }
std::uint32_t GrayscaleFrame::height() const { return impl_->height; }
PixelLayout GrayscaleFrame::layout() const { return impl_->layout; }

Status GrayscaleFrame::write(const InteropTarget&, const LaunchShape&, GrayscaleFrameRun*, bool) {
    return Status::error(ErrorKind::Unavailable,
                         "cudaviz was built without the CUDA toolkit; only the CPU emulator is available");
}

}  // namespace cvz
