#pragma once
// IDX files (the MNIST family's format), gzipped as Debian's dataset packages ship them: a big-endian magic
// 0x00 0x00 0x08 NDIM, NDIM 32-bit sizes, then the unsigned bytes. Read whole and checked before anything uses them:
// gzip itself (its header, every block, the CRC and length at its end: zlib), the magic and the number of dimensions,
// the sizes against the bytes that follow, and a bound on the size, so that a cut, corrupt or lying file is one line
// naming it, never an abort (issue 80's probe: 9 of 11 corrupt kinds ended in SIGABRT).
#include <QByteArray>
#include <QString>
#include <cstdint>
#include <vector>

namespace milab {

struct IdxArray {
  std::vector<int64_t> shape;
  std::vector<uint8_t> values;  // row-major, as many as the shape's product
};

// The largest array read, uncompressed: Fashion-MNIST's largest file is 47 MB.
inline constexpr int64_t kMaxIdxBytes = int64_t(1) << 28;

// Parses the gzipped bytes of an IDX file of `dims` dimensions. "" or what is wrong, without the file's name (e.g.
// "is not gzip data", "is cut short (its gzip stream ends early)", "says 3 dimensions, not 1").
QString parseIdxGz(const QByteArray& gz, int dims, IdxArray* out);
// The file at `path`: "" or "dataset: '<path>' <what is wrong>".
QString readIdxGz(const QString& path, int dims, IdxArray* out);

}  // namespace milab
