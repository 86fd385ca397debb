#include "app/io/npy_writer.h"

#include <QDir>
#include <QSaveFile>
#include <QtEndian>

#include <algorithm>
#include <limits>
#include <vector>

namespace cvz {

namespace {

// NumPy's constants (numpy/lib/format.py): data starts on a 64-byte boundary, and the header keeps
// room for the first axis to grow to 21 digits so it can be rewritten in place.
constexpr int kArrayAlign = 64;
constexpr int kGrowthAxisMaxDigits = 21;
constexpr int kPrefixBytes = 10;  // magic (6) + version (2) + header length (2)

const char* descr(NpyDtype dtype) { return dtype == NpyDtype::U8 ? "|u1" : "<f4"; }
std::size_t element_bytes(NpyDtype dtype) { return dtype == NpyDtype::U8 ? 1 : 4; }

QString shown(const QString& path) { return "'" + QDir::toNativeSeparators(path) + "'"; }

// Writes `count` elements little-endian, in chunks so that a big array is never copied whole; f32 is
// byte-swapped only on a big-endian host.
bool write_payload(QSaveFile& file, NpyDtype dtype, const void* data, std::uint64_t count) {
    const auto* bytes = static_cast<const char*>(data);
    const std::uint64_t total = count * element_bytes(dtype);
    constexpr std::uint64_t kChunk = 1 << 20;  // a multiple of every element size
    const bool swap = dtype == NpyDtype::F32 && QSysInfo::ByteOrder == QSysInfo::BigEndian;
    std::vector<char> swapped(swap ? kChunk : 0);
    for (std::uint64_t done = 0; done < total; done += kChunk) {
        const qint64 n = qint64(std::min(kChunk, total - done));
        const char* chunk = bytes + done;
        if (swap) {
            qToLittleEndian<quint32>(chunk, n / 4, swapped.data());
            chunk = swapped.data();
        }
        if (file.write(chunk, n) != n) return false;
    }
    return true;
}

QString write_npy(const QString& path, NpyDtype dtype, const void* data, std::uint64_t rows, std::uint64_t cols) {
    if (cols != 0 && rows > std::numeric_limits<std::uint64_t>::max() / cols / element_bytes(dtype))
        return "Cannot write " + shown(path) + ": the array is too large";
    if (rows * cols > 0 && data == nullptr) return "Cannot write " + shown(path) + ": no data";

    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) return "Cannot write " + shown(path) + ": " + file.errorString();
    const QByteArray header = npy_header(dtype, rows, cols);
    if (file.write(header) != header.size() || !write_payload(file, dtype, data, rows * cols)) {
        const QString why = file.errorString();
        file.cancelWriting();
        return "Cannot write " + shown(path) + ": " + why;
    }
    if (!file.commit()) return "Cannot write " + shown(path) + ": " + file.errorString();
    return {};
}

}  // namespace

QByteArray npy_header(NpyDtype dtype, std::uint64_t rows, std::uint64_t cols) {
    // Keys in sorted order and repr() spelling, as NumPy writes them.
    QByteArray dict = QByteArray("{'descr': '") + descr(dtype) + "', 'fortran_order': False, 'shape': (" +
                      QByteArray::number(rows) + ", " + QByteArray::number(cols) + "), }";
    dict += QByteArray(kGrowthAxisMaxDigits - int(QByteArray::number(rows).size()), ' ');

    // NumPy always pads at least one space: a header that would already be aligned gets 64 more.
    const int unpadded = int(dict.size()) + 1;  // + the final '\n'
    const int pad = kArrayAlign - (kPrefixBytes + unpadded) % kArrayAlign;
    const int header_len = unpadded + pad;

    QByteArray out("\x93NUMPY\x01\x00", 8);
    out += char(header_len & 0xff);
    out += char((header_len >> 8) & 0xff);
    out += dict;
    out += QByteArray(pad, ' ');
    out += '\n';
    return out;
}

QString write_npy_u8(const QString& path, const std::uint8_t* data, std::uint64_t rows, std::uint64_t cols) {
    return write_npy(path, NpyDtype::U8, data, rows, cols);
}

QString write_npy_f32(const QString& path, const float* data, std::uint64_t rows, std::uint64_t cols) {
    return write_npy(path, NpyDtype::F32, data, rows, cols);
}

}  // namespace cvz
