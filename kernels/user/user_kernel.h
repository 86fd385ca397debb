#pragma once
// A kernel the user wrote (issue 27): the contract between the user-kernel layer (kernels/user/, Qt-free,
// family-free) and its callers (each family's binding in kernels/<family>/, app/, the CLI, the editor).
// The user's CUDA C is compiled twice from the same text: by NVRTC for the GPU (user_gpu.h) and by the
// host compiler, with compiler instrumentation, for the emulator (user_emulated.h). Both run it
// isolated from the caller's process, so that a fault in it never takes the app or the CLI down.
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "../core/dim3.h"
#include "../core/status.h"

namespace cvz::user {

// The user's file: what they typed and the name messages use for it ("kernel.cu", or a path).
struct SourceFile {
    std::string name;
    std::string text;
};

// A compiler message mapped onto the user's file. format() writes it as compilers do:
// "NAME:LINE:COL: error: MESSAGE" (COL left out when unknown).
struct Diagnostic {
    std::string file;
    unsigned line = 0;    // 1-based; 0: not tied to a line
    unsigned column = 0;  // 1-based; 0: unknown
    bool error = true;    // false: a warning
    std::string message;
};
std::string format(const Diagnostic& d);

// What a kernel's parameter is, as far as the families' call forms care. Pointer const-ness, restrict
// and names are free; a parameter of another type is Other and fits no form.
enum class ParamKind : std::uint8_t { BytePtr, FloatPtr, Int, Other };

struct KernelParam {
    std::string type;  // as written, normalised: "const unsigned char*", "float*", "int"
    std::string name;
    ParamKind kind = ParamKind::Other;
};

// One __global__ function of the file.
struct KernelSignature {
    std::string name;
    unsigned line = 0;  // of its name
    std::vector<KernelParam> params;
    std::string text() const;  // "name(unsigned char* x, unsigned char* out, int n)"
};

// A call form a family accepts: its parameter kinds in order, and how the lecture writes it (for
// messages listing the accepted forms). Families list theirs in kernels/<family>/.
struct CallForm {
    std::string id;        // "gray-1d", "gray-2d", "matmul", "conv": stable, used in saved settings
    std::string written;   // "(unsigned char* x, unsigned char* out, int n)"
    std::vector<ParamKind> params;
};
bool fits(const KernelSignature& s, const CallForm& form);

// One argument of a launch, in parameter order: a buffer (the caller's memory, read back after the
// run when writable) or an int.
struct UserArg {
    enum class Kind : std::uint8_t { Buffer, Int } kind = Kind::Int;
    std::string name;                // the parameter's name, for messages ("out")
    void* data = nullptr;            // Buffer: host memory of `bytes` bytes
    std::size_t bytes = 0;
    std::size_t element_bytes = 1;   // 1 for u8, 4 for float: offsets in messages are in elements
    bool writable = false;           // the kernel's output: copied back, and its writers recorded
    int value = 0;                   // Int

    static UserArg buffer(std::string name, void* data, std::size_t bytes, std::size_t element_bytes, bool writable) {
        UserArg a;
        a.kind = Kind::Buffer;
        a.name = std::move(name);
        a.data = data;
        a.bytes = bytes;
        a.element_bytes = element_bytes;
        a.writable = writable;
        return a;
    }
    static UserArg integer(std::string name, int value) {
        UserArg a;
        a.name = std::move(name);
        a.value = value;
        return a;
    }
};

struct UserLaunch {
    Dim3 grid, block;
    std::vector<UserArg> args;
};

// Who wrote an element of a writable buffer: the linear block id and the linear thread id within the
// block of the last store that covered it (~0u: nothing wrote it).
struct Writer {
    std::uint64_t block = ~std::uint64_t(0);
    std::uint32_t thread = ~0u;
    bool wrote() const { return thread != ~0u; }
};

// How a user kernel's run ended, when not normally. The message is the user's, ready to show:
//   Bounds     "line 3: thread (12, 0, 0)/(255, 0, 0) writes out[1572867], 3 past the end of out (1572864 elements)"
//   Invalid    "line 5: thread (0, 0, 0)/(3, 0, 0) made an invalid memory access (address 0x0, in no buffer)"
//   TimeLimit  "the time limit of 30 s was reached: the kernel was stopped (an endless loop?)"
//   Barrier    "line 9: __syncthreads() was reached by 96 of the 128 threads of block (2, 0, 0); threads 96..127 never reached it"
//   Crashed    anything else that ended the isolated process, said as plainly as possible
//   Device     the GPU reported an error (ErrorKind::Device)
//   Cancelled  the caller cancelled it
enum class Fault : std::uint8_t { None, Bounds, Invalid, TimeLimit, Barrier, Crashed, Device, Cancelled };

}  // namespace cvz::user
