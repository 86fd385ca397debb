#include "headless_egl_context.h"

#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <dlfcn.h>

#include <cstdio>
#include <vector>

namespace cvz {

namespace {

// The EGL entry points used here; core ones from the library, extensions through eglGetProcAddress.
struct EglApi {
    PFNEGLGETPROCADDRESSPROC GetProcAddress = nullptr;
    PFNEGLGETERRORPROC GetError = nullptr;
    PFNEGLINITIALIZEPROC Initialize = nullptr;
    PFNEGLTERMINATEPROC Terminate = nullptr;
    PFNEGLBINDAPIPROC BindAPI = nullptr;
    PFNEGLCHOOSECONFIGPROC ChooseConfig = nullptr;
    PFNEGLCREATEPBUFFERSURFACEPROC CreatePbufferSurface = nullptr;
    PFNEGLDESTROYSURFACEPROC DestroySurface = nullptr;
    PFNEGLCREATECONTEXTPROC CreateContext = nullptr;
    PFNEGLDESTROYCONTEXTPROC DestroyContext = nullptr;
    PFNEGLMAKECURRENTPROC MakeCurrent = nullptr;
    PFNEGLQUERYDEVICESEXTPROC QueryDevices = nullptr;
    PFNEGLQUERYDEVICEATTRIBEXTPROC QueryDeviceAttrib = nullptr;  // may be null
    PFNEGLGETPLATFORMDISPLAYEXTPROC GetPlatformDisplay = nullptr;
};

template <class Fn>
bool symbol(void* lib, const char* name, Fn* fn) {
    *fn = reinterpret_cast<Fn>(dlsym(lib, name));
    return *fn != nullptr;
}

Status load_egl(EglApi* egl) {
    // Kept open for the life of the process: GL drivers do not expect to be unloaded.
    static void* lib = dlopen("libEGL.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) return Status::error(ErrorKind::Unavailable, std::string("no EGL library: ") + dlerror());
    EglApi e;
    const bool core = symbol(lib, "eglGetProcAddress", &e.GetProcAddress) && symbol(lib, "eglGetError", &e.GetError) &&
                      symbol(lib, "eglInitialize", &e.Initialize) && symbol(lib, "eglTerminate", &e.Terminate) &&
                      symbol(lib, "eglBindAPI", &e.BindAPI) && symbol(lib, "eglChooseConfig", &e.ChooseConfig) &&
                      symbol(lib, "eglCreatePbufferSurface", &e.CreatePbufferSurface) &&
                      symbol(lib, "eglDestroySurface", &e.DestroySurface) &&
                      symbol(lib, "eglCreateContext", &e.CreateContext) &&
                      symbol(lib, "eglDestroyContext", &e.DestroyContext) && symbol(lib, "eglMakeCurrent", &e.MakeCurrent);
    if (!core) return Status::error(ErrorKind::Unavailable, "the EGL library lacks EGL 1.4 entry points");
    e.QueryDevices = reinterpret_cast<PFNEGLQUERYDEVICESEXTPROC>(e.GetProcAddress("eglQueryDevicesEXT"));
    e.QueryDeviceAttrib = reinterpret_cast<PFNEGLQUERYDEVICEATTRIBEXTPROC>(e.GetProcAddress("eglQueryDeviceAttribEXT"));
    e.GetPlatformDisplay = reinterpret_cast<PFNEGLGETPLATFORMDISPLAYEXTPROC>(e.GetProcAddress("eglGetPlatformDisplayEXT"));
    if (!e.QueryDevices || !e.GetPlatformDisplay)
        return Status::error(ErrorKind::Unavailable, "EGL lacks EGL_EXT_device_enumeration / EGL_EXT_platform_device");
    *egl = e;
    return Status::ok();
}

std::string egl_error(const EglApi& egl, const char* what) {
    char code[16];
    std::snprintf(code, sizeof code, "0x%04X", unsigned(egl.GetError()));
    return std::string(what) + " failed (EGL error " + code + ")";
}

// The CUDA device an EGL device is, or -1 when the driver does not say.
int cuda_device_of(const EglApi& egl, EGLDeviceEXT device) {
    EGLAttrib value = -1;
    if (egl.QueryDeviceAttrib && egl.QueryDeviceAttrib(device, EGL_CUDA_DEVICE_NV, &value)) return int(value);
    egl.GetError();  // not an NVIDIA device: clear EGL_BAD_ATTRIBUTE
    return -1;
}

}  // namespace

struct HeadlessEglContext::Impl {
    EglApi egl;
    EGLDisplay display = EGL_NO_DISPLAY;
    EGLSurface surface = EGL_NO_SURFACE;
    EGLContext context = EGL_NO_CONTEXT;
    std::string description;
    bool on_cuda = false;

    ~Impl() {
        if (display == EGL_NO_DISPLAY) return;
        egl.MakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
        if (context != EGL_NO_CONTEXT) egl.DestroyContext(display, context);
        if (surface != EGL_NO_SURFACE) egl.DestroySurface(display, surface);
        egl.Terminate(display);
    }

    // An OpenGL context on `device`: ok, or why not.
    Status open(EGLDeviceEXT device) {
        display = egl.GetPlatformDisplay(EGL_PLATFORM_DEVICE_EXT, device, nullptr);
        EGLint major = 0, minor = 0;
        if (display == EGL_NO_DISPLAY || !egl.Initialize(display, &major, &minor)) {
            display = EGL_NO_DISPLAY;
            return Status::error(ErrorKind::Unavailable, egl_error(egl, "eglInitialize"));
        }
        const EGLint config_attribs[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT,
                                         EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8, EGL_ALPHA_SIZE, 8,
                                         EGL_NONE};
        EGLConfig config = nullptr;
        EGLint configs = 0;
        if (!egl.ChooseConfig(display, config_attribs, &config, 1, &configs) || configs < 1)
            return Status::error(ErrorKind::Unavailable, "no EGL config with OpenGL and pbuffers on this device");
        const EGLint pbuffer_attribs[] = {EGL_WIDTH, 16, EGL_HEIGHT, 16, EGL_NONE};
        surface = egl.CreatePbufferSurface(display, config, pbuffer_attribs);
        if (surface == EGL_NO_SURFACE) return Status::error(ErrorKind::Unavailable, egl_error(egl, "eglCreatePbufferSurface"));
        if (!egl.BindAPI(EGL_OPENGL_API)) return Status::error(ErrorKind::Unavailable, egl_error(egl, "eglBindAPI(OpenGL)"));
        const EGLint core45[] = {EGL_CONTEXT_MAJOR_VERSION, 4, EGL_CONTEXT_MINOR_VERSION, 5,
                                 EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE};
        const EGLint core33[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 3,
                                 EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE};
        for (const EGLint* attribs : {core45, core33, static_cast<const EGLint*>(nullptr)}) {
            context = egl.CreateContext(display, config, EGL_NO_CONTEXT, attribs);
            if (context != EGL_NO_CONTEXT) break;
        }
        if (context == EGL_NO_CONTEXT) return Status::error(ErrorKind::Unavailable, egl_error(egl, "eglCreateContext"));
        if (!egl.MakeCurrent(display, surface, surface, context))
            return Status::error(ErrorKind::Unavailable, egl_error(egl, "eglMakeCurrent"));
        return Status::ok();
    }
};

HeadlessEglContext::HeadlessEglContext(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
HeadlessEglContext::~HeadlessEglContext() = default;

Status HeadlessEglContext::create(std::unique_ptr<HeadlessEglContext>* out, int cuda_device) {
    EglApi egl;
    if (Status s = load_egl(&egl); !s) return s;
    EGLint count = 0;
    if (!egl.QueryDevices(0, nullptr, &count) || count < 1)
        return Status::error(ErrorKind::Unavailable, "EGL finds no devices");
    std::vector<EGLDeviceEXT> devices(std::size_t(count), nullptr);
    egl.QueryDevices(count, devices.data(), &count);
    // The device that is `cuda_device` first: interop needs GL and CUDA on the same GPU.
    std::vector<int> order;
    for (int i = 0; i < count; ++i)
        if (cuda_device_of(egl, devices[std::size_t(i)]) == cuda_device) order.push_back(i);
    for (int i = 0; i < count; ++i)
        if (cuda_device_of(egl, devices[std::size_t(i)]) != cuda_device) order.push_back(i);
    std::string reasons;
    for (int i : order) {
        auto impl = std::make_unique<Impl>();
        impl->egl = egl;
        if (Status s = impl->open(devices[std::size_t(i)]); !s) {
            reasons += "; EGL device " + std::to_string(i) + ": " + s.message();
            continue;
        }
        GlFunctions gl;
        if (Status s = gl.load([&egl](const char* n) { return reinterpret_cast<void*>(egl.GetProcAddress(n)); }); !s) {
            reasons += "; EGL device " + std::to_string(i) + ": " + s.message();
            continue;
        }
        const int cuda = cuda_device_of(egl, devices[std::size_t(i)]);
        impl->on_cuda = cuda >= 0;
        auto text = [&gl](GLenum name) {
            const GLubyte* s = gl.GetString(name);
            return s ? std::string(reinterpret_cast<const char*>(s)) : std::string("?");
        };
        impl->description = text(GL_RENDERER) + ", OpenGL " + text(GL_VERSION) + ", EGL device " + std::to_string(i) +
                            (cuda >= 0 ? " (CUDA device " + std::to_string(cuda) + ")" : "");
        out->reset(new HeadlessEglContext(std::move(impl)));
        return Status::ok();
    }
    return Status::error(ErrorKind::Unavailable, "no EGL device gives an OpenGL context" + reasons);
}

Status HeadlessEglContext::make_current() {
    if (!impl_->egl.MakeCurrent(impl_->display, impl_->surface, impl_->surface, impl_->context))
        return Status::error(ErrorKind::Device, egl_error(impl_->egl, "eglMakeCurrent"));
    return Status::ok();
}

GlProcResolver HeadlessEglContext::resolver() const {
    const PFNEGLGETPROCADDRESSPROC get = impl_->egl.GetProcAddress;
    return [get](const char* name) { return reinterpret_cast<void*>(get(name)); };
}

const std::string& HeadlessEglContext::description() const { return impl_->description; }
bool HeadlessEglContext::on_cuda_device() const { return impl_->on_cuda; }

}  // namespace cvz
