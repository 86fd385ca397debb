// Fuzz target: load_image, the app's own loading path, on a real file. The first input byte picks the
// file's suffix (Qt takes it as a format hint, so a decoder also gets bytes that do not look like its
// format); the rest is the file. Any file must give an 8-bit RGB image within the limits or a
// message naming the file. The pixel limit is lowered to 2^22 so that the fuzzer spends its time on
// parsing rather than on legitimately decoding gigabyte images; the checks are the same code.
#include <QCoreApplication>
#include <QDir>
#include <QFile>

#include <array>
#include <cstdlib>
#include <iterator>
#include <string>
#include <utility>

#include <unistd.h>

#include "app/io/image_loader.h"
#include "fuzz_check.h"

using namespace cvz;

namespace {

// Index 0: no suffix (the format is sniffed from the bytes alone).
const char* const kSuffixes[] = {"",    "png", "jpg", "bmp", "gif",  "ppm", "pgm", "pbm",  "xbm",
                                 "xpm", "ico", "cur", "tga", "tiff", "webp", "wbmp", "icns", "mng"};
constexpr std::size_t kSuffixCount = std::size(kSuffixes);

constexpr ImageLimits fuzz_limits() {
    ImageLimits l;
    l.max_pixels = qint64(1) << 22;  // 2048 x 2048
    return l;
}

// Image plugins are found through the application's paths. Never deleted: at exit, Qt's own globals
// may be gone before a static QCoreApplication would be destroyed.
QCoreApplication* g_app = nullptr;
QString g_dir;  // made with mkdtemp, on /dev/shm when there is one (no disk I/O per input)
std::string g_dir_native;

// Plain POSIX, no Qt: runs at exit, when Qt may be half torn down.
void remove_dir() {
    for (const char* name : kSuffixes) {
        const std::string file = g_dir_native + (*name ? std::string("/input.") + name : std::string("/input"));
        ::unlink(file.c_str());
    }
    ::rmdir(g_dir_native.c_str());
}

// libFuzzer learns only from coverage of instrumented code, and Qt's decoders are not instrumented:
// two inputs that reach different decoders, or end differently, look the same to it, and it would
// discard all but one. So each (suffix, outcome, format, size class) runs a function of its own,
// which it does see, and inputs that reach new decoders or outcomes are kept in the corpus.
template <int N>
[[gnu::noinline]] void mark() {
    static volatile int hits = 0;
    hits = hits + 1;
}
using Mark = void (*)();
template <int... I>
constexpr std::array<Mark, sizeof...(I)> make_marks(std::integer_sequence<int, I...>) {
    return {&mark<I>...};
}
constexpr auto kMarks = make_marks(std::make_integer_sequence<int, 1024>{});

int outcome_of(const LoadedImage& img) {
    if (img.ok()) return 0;
    static const char* const kProblems[] = {"empty", "declares", "not an image", "damaged", "truncated or corrupt",
                                            "could not be read", "not enough memory"};
    for (int i = 0; i < int(std::size(kProblems)); ++i)
        if (img.error.contains(QLatin1String(kProblems[i]))) return 1 + i;
    return 8;
}

int format_of(const LoadedImage& img) {
    for (std::size_t i = 1; i < kSuffixCount; ++i)
        if (img.format == QLatin1String(kSuffixes[i])) return int(i);
    if (img.format == QLatin1String("jpeg")) return 2;
    return img.format.isEmpty() ? 0 : 18;
}

int size_class(int side) { return side <= 1 ? 0 : side <= 16 ? 1 : side <= 256 ? 2 : 3; }

void note(std::size_t suffix, const LoadedImage& img) {
    const int outcome = outcome_of(img);
    int key = int(suffix) * 9 + outcome;  // < 162
    if (outcome == 0) key = 162 + format_of(img) * 16 + size_class(img.rgb.width()) * 4 + size_class(img.rgb.height());
    kMarks[std::size_t(key) % kMarks.size()]();
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) {
    g_app = new QCoreApplication(*argc, *argv);
    for (const char* base : {"/dev/shm", "/tmp"}) {
        std::string pattern = std::string(base) + "/cudaviz-fuzz-XXXXXX";
        if (::mkdtemp(pattern.data())) {
            g_dir_native = pattern;
            break;
        }
    }
    FUZZ_CHECK(!g_dir_native.empty());
    g_dir = QString::fromStdString(g_dir_native);
    std::atexit(remove_dir);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    const std::size_t suffix_index = data[0] % kSuffixCount;
    const char* suffix = kSuffixes[suffix_index];
    const QString path = g_dir + (*suffix ? QStringLiteral("/input.") + QLatin1String(suffix) : QStringLiteral("/input"));
    {
        QFile file(path);
        FUZZ_CHECK(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
        FUZZ_CHECK(file.write(reinterpret_cast<const char*>(data + 1), qint64(size - 1)) == qint64(size - 1));
    }

    constexpr ImageLimits limits = fuzz_limits();
    const LoadedImage loaded = load_image(path, limits);
    if (loaded.ok()) {
        FUZZ_CHECK(!loaded.rgb.isNull());
        FUZZ_CHECK(loaded.rgb.format() == QImage::Format_RGB888);
        FUZZ_CHECK(loaded.rgb.width() >= 1 && loaded.rgb.height() >= 1);
        FUZZ_CHECK(qint64(loaded.rgb.width()) * loaded.rgb.height() <= limits.max_pixels);
        FUZZ_CHECK(!loaded.format.isEmpty());
    } else {
        FUZZ_CHECK(loaded.rgb.isNull());
        FUZZ_CHECK(loaded.error.startsWith(QStringLiteral("Cannot load '") + QDir::toNativeSeparators(path) + "': "));
    }
    note(suffix_index, loaded);
    QFile::remove(path);  // the next input may pick another suffix
    return 0;
}
