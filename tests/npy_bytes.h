#pragma once
// Hand-built .npy files for the loader tests: magic, version, header length, the header dict padded
// so that the data starts at a multiple of 64 bytes, then the data exactly as given.
#include <QByteArray>

namespace cvz::test {

inline QByteArray npy_bytes(const QByteArray& dict, const QByteArray& data, int version = 1) {
    QByteArray header = dict;
    const int pre = version == 1 ? 10 : 12;
    while ((pre + header.size() + 1) % 64) header += ' ';
    header += '\n';
    QByteArray out("\x93NUMPY", 6);
    out += char(version);
    out += char(0);
    const quint32 len = quint32(header.size());
    out += char(len & 0xFF);
    out += char((len >> 8) & 0xFF);
    if (version != 1) {
        out += char((len >> 16) & 0xFF);
        out += char((len >> 24) & 0xFF);
    }
    return out + header + data;
}

}  // namespace cvz::test
