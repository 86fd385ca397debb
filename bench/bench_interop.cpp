// The cost of getting the grayscale result onto a GL texture, per frame, at 1920x1080, 3840x2160 and
// 7680x4320, in one run and one headless EGL context on the GPU:
//   (a) surface write: map the registered texture + kernel writes it through surf2Dwrite + unmap
//   (b) pixel buffer:  map + kernel writes the registered PBO + unmap + glTexSubImage2D from the PBO
//   (c) host copy:     kernel + cudaMemcpy to pinned host memory + glTexSubImage2D from it (the
//                      app's fallback, GlInterop's HostCopy)
//   (c') the same round trip through ordinary pageable host memory, as a naive program does it
// Two figures per variant, medians over --frames after a warm-up, steady_clock:
//   latency     one frame, from the first call until cudaDeviceSynchronize + glFinish return
//   throughput  --frames frames queued back to back, one sync at the end, divided by the count
// and, to see where (a)'s time goes: the kernel alone (CUDA events), map + unmap with no kernel,
// map alone, unmap alone, the two syncs on an idle GPU; and (c)'s parts. Every variant gets a fresh
// texture; (c) is also timed on a texture that CUDA once had registered. Each path's texture is checked against the CPU
// reference first. Target: (a) at 7680x4320 at most 0.5 ms a frame, 100x faster than the round trip.
//
//   bench_interop [--frames N] [--json FILE]
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "kernels/cuda/cuda_event.h"
#include "kernels/cuda/device_buffer.h"
#include "kernels/cuda/gl_interop.h"
#include "kernels/cuda/gl_texture.h"
#include "kernels/cuda/graphics_resource.h"
#include "kernels/cuda/headless_egl_context.h"
#include "kernels/cuda/pinned_buffer.h"
#include "kernels/grayscale/grayscale_device_launch.h"
#include "kernels/grayscale/grayscale_frame.h"
#include "kernels/grayscale/grayscale_launch.h"
#include "kernels/grayscale/grayscale_reference.h"

using namespace cvz;

namespace {

using Clock = std::chrono::steady_clock;

struct Row {
    std::uint32_t width, height;
    std::string variant;
    std::string shape;
    double latency_ms;
    double throughput_ms;  // 0: not measured
};

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

double ms_since(Clock::time_point a) { return std::chrono::duration<double, std::milli>(Clock::now() - a).count(); }

bool check(const Status& s, const std::string& what) {
    if (!s) std::fprintf(stderr, "%s: %s\n", what.c_str(), s.message().c_str());
    return s.is_ok();
}

Status sync_all(const GlFunctions& gl) {
    if (Status s = cuda_status(cudaDeviceSynchronize(), "cudaDeviceSynchronize"); !s) return s;
    gl.Finish();
    return Status::ok();
}

// Median wall milliseconds of one `frame` until CUDA and GL are idle again.
bool latency_ms(const GlFunctions& gl, int frames, const std::function<Status()>& frame, double* ms) {
    for (int i = 0; i < 5; ++i)
        if (!check(frame(), "warm-up frame")) return false;
    if (!check(sync_all(gl), "sync")) return false;
    std::vector<double> t;
    for (int i = 0; i < frames; ++i) {
        const auto a = Clock::now();
        if (!check(frame(), "frame") || !check(sync_all(gl), "sync")) return false;
        t.push_back(ms_since(a));
    }
    *ms = median(t);
    return true;
}

// Wall milliseconds per frame of `frames` frames queued back to back, one sync at the end; median of 5.
bool throughput_ms(const GlFunctions& gl, int frames, const std::function<Status()>& frame, double* ms) {
    std::vector<double> t;
    for (int rep = 0; rep < 5; ++rep) {
        if (!check(sync_all(gl), "sync")) return false;
        const auto a = Clock::now();
        for (int i = 0; i < frames; ++i)
            if (!check(frame(), "frame")) return false;
        if (!check(sync_all(gl), "sync")) return false;
        t.push_back(ms_since(a) / frames);
    }
    *ms = median(t);
    return true;
}

std::string shape_name(const LaunchShape& s) { return (is_one_d(s) ? "1-D " : "2-D ") + to_string(s); }

// One frame as the app writes it: the display path maps, the grayscale frame's writer launches.
FrameWriter writer(GrayscaleFrame& frame, const LaunchShape& shape) {
    return [&frame, shape](const InteropTarget& target) { return frame.write(target, shape); };
}

const char* kExternal = "(0) external memory, zero-copy";
const char* kSurface = "(a) surface write";
const char* kPbo = "(b) pixel buffer + upload";
const char* kHost = "(c) host copy, pinned";
const char* kPageable = "(c') host copy, pageable";

}  // namespace

int main(int argc, char** argv) {
    int frames = 30;
    std::string json;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--frames" && i + 1 < argc) frames = std::max(20, std::stoi(argv[++i]));
        else if (a == "--json" && i + 1 < argc) json = argv[++i];
        else {
            std::fprintf(stderr, "usage: bench_interop [--frames N>=20] [--json FILE]\n");
            return 2;
        }
    }
    std::unique_ptr<HeadlessEglContext> egl;
    GlFunctions gl;
    if (!check(HeadlessEglContext::create(&egl), "headless EGL context") || !check(gl.load(egl->resolver()), "GL"))
        return 1;
    cudaDeviceProp prop{};
    if (!check(cuda_status(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties"), "CUDA")) return 1;
    std::printf("OpenGL: %s\nCUDA: %s\n", egl->description().c_str(), prop.name);

    struct Size {
        std::uint32_t w, h;
    };
    const Size sizes[] = {{1920, 1080}, {3840, 2160}, {7680, 4320}};
    const LaunchShape shapes[] = {LaunchShape::one_d(256), LaunchShape::two_d(16, 16)};
    const InteropPath paths[] = {InteropPath::ExternalMemory, InteropPath::SurfaceWrite, InteropPath::PixelBuffer,
                                 InteropPath::HostCopy};
    const char* path_names[] = {kExternal, kSurface, kPbo, kHost};
    const std::string lecture = shape_name(shapes[0]);
    std::vector<Row> rows;
    std::mt19937 rng(1);
    for (const Size& sz : sizes) {
        const std::uint64_t n = std::uint64_t(sz.w) * sz.h;
        std::vector<std::uint8_t> rgb(3 * n), want(n), got(n);
        for (auto& b : rgb) b = std::uint8_t(rng());
        grayscale_reference({rgb.data(), want.data(), sz.w, sz.h, PixelLayout::Interleaved});
        // A fresh texture for each variant: on the H200 a texture CUDA once had registered takes host
        // uploads about 3x slower afterwards (the extra "once-registered" row shows it), which would
        // handicap whichever variant came after the surface path.
        auto fresh_texture = [&](GLuint* t) { return check(create_r8_texture(gl, sz.w, sz.h, t), "texture"); };
        GLuint used_by_surface = 0;
        const std::string at = std::to_string(sz.w) + "x" + std::to_string(sz.h);

        for (int p = 0; p < 4; ++p) {
            GLuint texture = 0;
            if (!fresh_texture(&texture)) return 1;
            std::unique_ptr<GlInterop> interop;
            GrayscaleFrame picture;
            if (!check(GlInterop::open(gl, texture, sz.w, sz.h, paths[p], &interop), at + " " + path_names[p]) ||
                !check(picture.set_picture(rgb, sz.w, sz.h, PixelLayout::Interleaved), "set_picture"))
                return 1;
            for (const LaunchShape& shape : shapes) {
                std::fill(got.begin(), got.end(), 0);
                if (!check(interop->render(writer(picture, shape)), "render") ||
                    !check(interop->read_back(got.data()), "read back"))
                    return 1;
                if (got != want) {
                    std::fprintf(stderr, "%s %s %s: the texture differs from the CPU reference\n", at.c_str(),
                                 path_names[p], shape_name(shape).c_str());
                    return 1;
                }
                Row r{sz.w, sz.h, path_names[p], shape_name(shape), 0, 0};
                const FrameWriter write = writer(picture, shape);
                auto frame = [&] { return interop->render(write); };
                if (!latency_ms(gl, frames, frame, &r.latency_ms) || !throughput_ms(gl, frames, frame, &r.throughput_ms))
                    return 1;
                rows.push_back(r);
            }
            if (paths[p] == InteropPath::ExternalMemory) {
                // A block-shape change to the new result in the texture, GL finished: each frame
                // alternates between the lecture's 1-D 256 and 2-D 16x16, as a slider drag would.
                // ... and with a GL draw after each frame announced by frame_drawn(), as the view does.
                const auto clear = reinterpret_cast<decltype(&::glClear)>(egl->resolver()("glClear"));
                Row drawn{sz.w, sz.h, "(0) zero-copy + a GL draw + frame_drawn()", lecture, 0, 0};
                if (clear && !latency_ms(gl, frames, [&] {
                        if (Status s = interop->render(writer(picture, shapes[0])); !s) return s;
                        clear(GL_COLOR_BUFFER_BIT);
                        interop->frame_drawn();
                        return Status::ok();
                    }, &drawn.latency_ms))
                    return 1;
                if (clear) rows.push_back(drawn);
                Row change{sz.w, sz.h, "(0) shape change -> new frame in the texture", "alternating", 0, 0};
                int k = 0;
                if (!latency_ms(gl, frames, [&] { return interop->render(writer(picture, shapes[k++ % 2])); },
                                &change.latency_ms))
                    return 1;
                rows.push_back(change);
            }
            interop.reset();
            if (paths[p] == InteropPath::SurfaceWrite) used_by_surface = texture;
            else gl.DeleteTextures(1, &texture);
        }
        {  // (c) again, on the texture the surface path had registered and released
            std::unique_ptr<GlInterop> interop;
            GrayscaleFrame picture;
            if (!check(GlInterop::open(gl, used_by_surface, sz.w, sz.h, InteropPath::HostCopy, &interop), "host copy") ||
                !check(picture.set_picture(rgb, sz.w, sz.h, PixelLayout::Interleaved), "set_picture"))
                return 1;
            Row r{sz.w, sz.h, "(c) host copy, once-registered texture", lecture, 0, 0};
            const FrameWriter write = writer(picture, shapes[0]);
            if (!latency_ms(gl, frames, [&] { return interop->render(write); }, &r.latency_ms)) return 1;
            rows.push_back(r);
            interop.reset();
            gl.DeleteTextures(1, &used_by_surface);
        }
        GLuint spare = 0;
        if (!fresh_texture(&spare)) return 1;

        // (c') and the parts, on plain device buffers with the lecture's shape.
        DeviceBuffer<std::uint8_t> d_rgb, d_gray;
        PinnedBuffer<std::uint8_t> pinned;
        if (!check(d_rgb.allocate(3 * n), "rgb") || !check(d_gray.allocate(n), "gray") || !check(pinned.allocate(n), "pinned"))
            return 1;
        if (!check(cuda_status(cudaMemcpy(d_rgb.get(), rgb.data(), 3 * n, cudaMemcpyHostToDevice), "upload"), "upload"))
            return 1;
        const GrayscaleImage im{d_rgb.get(), d_gray.get(), sz.w, sz.h, PixelLayout::Interleaved};
        std::vector<std::uint8_t> pageable(n);
        Row r{sz.w, sz.h, kPageable, lecture, 0, 0};
        if (!latency_ms(gl, frames, [&] {
                if (Status s = launch_grayscale_on_device(im, shapes[0], nullptr); !s) return s;
                if (Status s = cuda_status(cudaMemcpy(pageable.data(), d_gray.get(), n, cudaMemcpyDeviceToHost), "cudaMemcpy"); !s)
                    return s;
                return upload_gray_from_host(gl, spare, sz.w, sz.h, pageable.data());
            }, &r.latency_ms))
            return 1;
        rows.push_back(r);
        r = Row{sz.w, sz.h, "  (c) part: cudaMemcpy D2H to pinned", "", 0, 0};
        if (!latency_ms(gl, frames, [&] {
                return cuda_status(cudaMemcpy(pinned.get(), d_gray.get(), n, cudaMemcpyDeviceToHost), "cudaMemcpy");
            }, &r.latency_ms))
            return 1;
        rows.push_back(r);
        r = Row{sz.w, sz.h, "  (c) part: glTexSubImage2D from host", "", 0, 0};
        if (!latency_ms(gl, frames, [&] { return upload_gray_from_host(gl, spare, sz.w, sz.h, pinned.get()); }, &r.latency_ms))
            return 1;
        rows.push_back(r);

        // Where (a)'s time goes: the kernel alone, map + unmap alone, and the syncs on an idle GPU.
        CudaEvent e0, e1;
        std::vector<double> k;
        if (!check(e0.create(), "event") || !check(e1.create(), "event")) return 1;
        for (int i = 0; i < frames + 5; ++i) {
            double one = 0;
            if (!check(launch_grayscale_on_device(im, shapes[0], nullptr), "kernel") || !check(e0.record(nullptr), "record") ||
                !check(launch_grayscale_on_device(im, shapes[0], nullptr), "kernel") ||
                !check(e1.record(nullptr), "record") || !check(elapsed_ms(e0, e1, &one), "elapsed"))
                return 1;
            if (i >= 5) k.push_back(one);
        }
        rows.push_back({sz.w, sz.h, "  (a) part: kernel alone (events)", lecture, median(k), 0});
        {  // Where a frame's fixed cost comes from: the kernel and a stream sync alone, then with GL work
           // between frames (the GPU switches between the GL and the CUDA context).
            const auto clear = reinterpret_cast<decltype(&::glClear)>(egl->resolver()("glClear"));
            auto kernel_and_sync = [&] {
                if (Status s = launch_grayscale_on_device(im, shapes[0], nullptr); !s) return s;
                return cuda_status(cudaStreamSynchronize(nullptr), "cudaStreamSynchronize");
            };
            auto fence_wait = [&] {
                GLsync f = gl.FenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
                gl.ClientWaitSync(f, GL_SYNC_FLUSH_COMMANDS_BIT, GLuint64(1000000000));
                gl.DeleteSync(f);
            };
            r = Row{sz.w, sz.h, "  switch part: kernel + stream sync, no GL", lecture, 0, 0};
            if (!latency_ms(gl, frames, kernel_and_sync, &r.latency_ms)) return 1;
            rows.push_back(r);
            r = Row{sz.w, sz.h, "  switch part: + a GL fence wait", lecture, 0, 0};
            if (!latency_ms(gl, frames, [&] { fence_wait(); return kernel_and_sync(); }, &r.latency_ms)) return 1;
            rows.push_back(r);
            if (clear && gl.FenceSync) {
                r = Row{sz.w, sz.h, "  switch part: + glClear and a GL fence wait", lecture, 0, 0};
                if (!latency_ms(gl, frames, [&] {
                        clear(GL_COLOR_BUFFER_BIT);
                        fence_wait();
                        return kernel_and_sync();
                    }, &r.latency_ms))
                    return 1;
                rows.push_back(r);
            }
        }
        GraphicsResource res;
        if (!check(res.register_image(spare, GL_TEXTURE_2D, cudaGraphicsRegisterFlagsSurfaceLoadStore), "register"))
            return 1;
        r = Row{sz.w, sz.h, "  (a) part: map + unmap, no kernel", "", 0, 0};
        auto map_unmap = [&] {
            MappedResource m;
            if (Status s = m.map(res.get(), nullptr); !s) return s;
            cudaArray_t array = nullptr;
            if (Status s = m.array(&array); !s) return s;
            return m.unmap();
        };
        if (!latency_ms(gl, frames, map_unmap, &r.latency_ms) || !throughput_ms(gl, frames, map_unmap, &r.throughput_ms))
            return 1;
        rows.push_back(r);
        {  // each call on its own, synced
            std::vector<double> map_t, unmap_t;
            for (int i = 0; i < frames + 5; ++i) {
                MappedResource m;
                auto a = Clock::now();
                if (!check(m.map(res.get(), nullptr), "map") || !check(sync_all(gl), "sync")) return 1;
                const double map_ms = ms_since(a);
                a = Clock::now();
                if (!check(m.unmap(), "unmap") || !check(sync_all(gl), "sync")) return 1;
                if (i >= 5) {
                    map_t.push_back(map_ms);
                    unmap_t.push_back(ms_since(a));
                }
            }
            rows.push_back({sz.w, sz.h, "  (a) part: cudaGraphicsMapResources alone", "", median(map_t), 0});
            rows.push_back({sz.w, sz.h, "  (a) part: cudaGraphicsUnmapResources alone", "", median(unmap_t), 0});
        }
        res.reset();
        {  // the same for a registered pixel buffer: is the cost the texture's or the mapping's?
            GLuint buffer = 0;
            gl.GenBuffers(1, &buffer);
            gl.BindBuffer(GL_PIXEL_UNPACK_BUFFER, buffer);
            gl.BufferData(GL_PIXEL_UNPACK_BUFFER, GLsizeiptr(n), nullptr, GL_STREAM_DRAW);
            gl.BindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
            GraphicsResource pbo;
            if (!check(pbo.register_buffer(buffer, cudaGraphicsRegisterFlagsWriteDiscard), "register buffer")) return 1;
            r = Row{sz.w, sz.h, "  (b) part: map + unmap of the buffer", "", 0, 0};
            if (!latency_ms(gl, frames, [&] {
                    MappedResource m;
                    if (Status s = m.map(pbo.get(), nullptr); !s) return s;
                    return m.unmap();
                }, &r.latency_ms))
                return 1;
            rows.push_back(r);
            pbo.reset();
            gl.DeleteBuffers(1, &buffer);
        }
        {  // Why a pixel-buffer upload costs what it costs: usage hint, unpack alignment, texel format.
            struct Variant {
                const char* name;
                GLenum usage;
                GLint alignment;
                bool rgba;
            };
            const Variant variants[] = {{"  upload part: PBO STREAM_DRAW, align 1, R8", GL_STREAM_DRAW, 1, false},
                                        {"  upload part: PBO STREAM_DRAW, align 8, R8", GL_STREAM_DRAW, 8, false},
                                        {"  upload part: PBO STATIC_DRAW, align 8, R8", GL_STATIC_DRAW, 8, false},
                                        {"  upload part: PBO DYNAMIC_COPY, align 8, R8", GL_DYNAMIC_COPY, 8, false},
                                        {"  upload part: PBO STATIC_DRAW, align 8, RGBA8 w/4", GL_STATIC_DRAW, 8, true}};
            for (const Variant& v : variants) {
                if (v.rgba && sz.w % 4) continue;
                GLuint buffer = 0, tex = 0;
                gl.GenBuffers(1, &buffer);
                gl.BindBuffer(GL_PIXEL_UNPACK_BUFFER, buffer);
                gl.BufferData(GL_PIXEL_UNPACK_BUFFER, GLsizeiptr(n), nullptr, v.usage);
                gl.BindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
                const GLsizei tw = GLsizei(v.rgba ? sz.w / 4 : sz.w);
                gl.GenTextures(1, &tex);
                gl.BindTexture(GL_TEXTURE_2D, tex);
                gl.TexImage2D(GL_TEXTURE_2D, 0, v.rgba ? GL_RGBA8 : GL_R8, tw, GLsizei(sz.h), 0, v.rgba ? GL_RGBA : GL_RED,
                              GL_UNSIGNED_BYTE, nullptr);
                r = Row{sz.w, sz.h, v.name, "", 0, 0};
                if (!latency_ms(gl, frames, [&] {
                        gl.BindTexture(GL_TEXTURE_2D, tex);
                        gl.BindBuffer(GL_PIXEL_UNPACK_BUFFER, buffer);
                        gl.PixelStorei(GL_UNPACK_ALIGNMENT, v.alignment);
                        gl.TexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, tw, GLsizei(sz.h), v.rgba ? GL_RGBA : GL_RED,
                                         GL_UNSIGNED_BYTE, nullptr);
                        gl.PixelStorei(GL_UNPACK_ALIGNMENT, 4);
                        gl.BindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
                        return gl_check(gl, v.name);
                    }, &r.latency_ms))
                    return 1;
                rows.push_back(r);
                gl.DeleteTextures(1, &tex);
                gl.DeleteBuffers(1, &buffer);
            }
        }
        r = Row{sz.w, sz.h, "  sync alone: cudaDeviceSynchronize + glFinish", "", 0, 0};
        if (!latency_ms(gl, frames, [] { return Status::ok(); }, &r.latency_ms)) return 1;
        rows.push_back(r);
        gl.DeleteTextures(1, &spare);
    }

    std::printf("ms per frame, medians; latency: one frame then cudaDeviceSynchronize + glFinish; throughput: %d "
                "frames queued, one sync\n", frames);
    std::printf("%-10s %-48s %-10s %10s %11s\n", "size", "variant", "shape", "latency", "throughput");
    for (const Row& r : rows) {
        char thr[32] = "";
        if (r.throughput_ms > 0) std::snprintf(thr, sizeof thr, "%11.3f", r.throughput_ms);
        std::printf("%-10s %-48s %-10s %10.3f %11s\n", (std::to_string(r.width) + "x" + std::to_string(r.height)).c_str(),
                    r.variant.c_str(), r.shape.c_str(), r.latency_ms, thr);
    }
    auto find = [&](std::uint32_t w, const std::string& variant, bool throughput) {
        for (const Row& r : rows)
            if (r.width == w && r.variant == variant && r.shape == lecture) return throughput ? r.throughput_ms : r.latency_ms;
        return 0.0;
    };
    std::string ratios;
    for (const Size& sz : sizes) {
        const double a = find(sz.w, kSurface, false), at = find(sz.w, kSurface, true);
        const double c = find(sz.w, kHost, false), c2 = find(sz.w, kPageable, false);
        std::printf("%ux%u, %s: (c)/(a) = %.1fx, (c')/(a) = %.1fx by latency; (c)/(a) = %.1fx against (a)'s throughput\n",
                    sz.w, sz.h, lecture.c_str(), c / a, c2 / a, c / at);
        ratios += std::string(ratios.empty() ? "" : ",\n") + "    {\"width\": " + std::to_string(sz.w) +
                  ", \"height\": " + std::to_string(sz.h) + ", \"host_pinned_over_surface\": " + std::to_string(c / a) +
                  ", \"host_pageable_over_surface\": " + std::to_string(c2 / a) +
                  ", \"host_pinned_over_surface_throughput\": " + std::to_string(c / at) + "}";
    }
    const double z8k = find(7680, kExternal, false), k8k = find(7680, "  (a) part: kernel alone (events)", false);
    std::printf("target at 7680x4320: zero-copy frame <= kernel + 0.050 ms: %s (frame %.3f ms, kernel %.3f ms, display "
                "cost %.3f ms; surface write %.3f ms)\n",
                z8k > 0 && z8k <= k8k + 0.050 ? "met" : "NOT met", z8k, k8k, z8k - k8k, find(7680, kSurface, false));
    const double a8k = find(7680, kSurface, false), c8k = find(7680, kHost, false);
    std::printf("target at 7680x4320: (a) <= 0.5 ms: %s (%.3f ms); (c)/(a) >= 100: %s (%.1fx); anchors: 3.08 ms "
                "interop with PBO upload, 135 ms round trip (135/(a) = %.0fx)\n",
                a8k <= 0.5 ? "met" : "NOT met", a8k, c8k / a8k >= 100 ? "met" : "NOT met", c8k / a8k, 135.0 / a8k);

    if (!json.empty()) {
        std::ofstream f(json);
        f << "{\n  \"benchmark\": \"interop\",\n  \"gl\": \"" << egl->description() << "\",\n  \"cuda\": \"" << prop.name
          << "\",\n  \"frames\": " << frames << ",\n  \"results\": [\n";
        for (std::size_t i = 0; i < rows.size(); ++i)
            f << "    {\"width\": " << rows[i].width << ", \"height\": " << rows[i].height << ", \"variant\": \""
              << rows[i].variant << "\", \"shape\": \"" << rows[i].shape << "\", \"latency_ms\": " << rows[i].latency_ms
              << ", \"throughput_ms\": " << rows[i].throughput_ms << "}" << (i + 1 < rows.size() ? "," : "") << "\n";
        f << "  ],\n  \"ratios\": [\n" << ratios << "\n  ]\n}\n";
        if (!f) {
            std::fprintf(stderr, "cannot write %s\n", json.c_str());
            return 1;
        }
    }
    return 0;
}
