#include "data/idx_file.h"

#include <zlib.h>

#include <QFile>

namespace milab {

namespace {

// The whole gzip stream inflated, or why not. zlib checks the header, every block and the trailer's CRC-32 and size.
QString inflateGz(const QByteArray& gz, QByteArray* out) {
  z_stream z{};
  if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK) return QStringLiteral("cannot be inflated (zlib: out of memory)");
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(gz.constData()));
  z.avail_in = static_cast<uInt>(gz.size());
  QString err;
  int status = Z_OK;
  char chunk[1 << 16];
  while (status == Z_OK) {
    z.next_out = reinterpret_cast<Bytef*>(chunk);
    z.avail_out = sizeof chunk;
    status = inflate(&z, Z_NO_FLUSH);
    out->append(chunk, qsizetype(sizeof chunk - z.avail_out));
    if (out->size() > kMaxIdxBytes + 64) {
      err = QStringLiteral("holds more than %1 MiB uncompressed, more than any data set the lab reads")
                .arg(kMaxIdxBytes >> 20);
      break;
    }
  }
  if (err.isEmpty() && status != Z_STREAM_END) {
    if (gz.size() < 2 || quint8(gz[0]) != 0x1f || quint8(gz[1]) != 0x8b)
      err = QStringLiteral("is not gzip data (an IDX file gzipped, as the data set's package ships it)");
    else if (status == Z_BUF_ERROR)  // no more input before the stream's end
      err = QStringLiteral("is cut short (its gzip stream ends early)");
    else
      err = QStringLiteral("is corrupt gzip data (zlib: %1)").arg(z.msg ? z.msg : "data error");
  }
  inflateEnd(&z);
  return err;
}

int64_t bigEndian32(const QByteArray& b, qsizetype at) {
  return (int64_t(quint8(b[at])) << 24) | (quint8(b[at + 1]) << 16) | (quint8(b[at + 2]) << 8) | quint8(b[at + 3]);
}

}  // namespace

QString parseIdxGz(const QByteArray& gz, int dims, IdxArray* out) {
  QByteArray raw;
  if (const QString err = inflateGz(gz, &raw); !err.isEmpty()) return err;
  if (raw.size() < 4 || raw[0] != 0 || raw[1] != 0)
    return QStringLiteral("is not an IDX file (no IDX magic at its start)");
  if (quint8(raw[2]) != 0x08)
    return QStringLiteral("holds IDX values of type 0x%1, not unsigned bytes (0x08)")
        .arg(quint8(raw[2]), 2, 16, QLatin1Char('0'));
  if (raw[3] != dims) return QStringLiteral("says %1 dimensions, not %2").arg(int(quint8(raw[3]))).arg(dims);
  const qsizetype header = 4 + 4 * qsizetype(dims);
  if (raw.size() < header) return QStringLiteral("is cut short inside its header");
  std::vector<int64_t> shape;
  int64_t count = 1;
  for (int d = 0; d < dims; ++d) {
    shape.push_back(bigEndian32(raw, 4 + 4 * d));
    // Bounded at each factor: a product of four 32-bit sizes overflows 64 bits.
    if (shape.back() > kMaxIdxBytes || (count *= shape.back()) > kMaxIdxBytes)
      return QStringLiteral("claims more values than it can hold (its sizes' product is over %1 MiB)")
          .arg(kMaxIdxBytes >> 20);
  }
  if (raw.size() - header != count)
    return QStringLiteral("holds %1 bytes of values where its sizes promise %2").arg(raw.size() - header).arg(count);
  out->shape = std::move(shape);
  out->values.assign(raw.constData() + header, raw.constData() + raw.size());
  return {};
}

QString readIdxGz(const QString& path, int dims, IdxArray* out) {
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly)) return QStringLiteral("dataset: cannot open '%1' (%2)").arg(path, f.errorString());
  if (f.size() > kMaxIdxBytes)
    return QStringLiteral("dataset: '%1' is over %2 MiB, more than any data set the lab reads")
        .arg(path)
        .arg(kMaxIdxBytes >> 20);
  const QByteArray gz = f.readAll();
  if (const QString err = parseIdxGz(gz, dims, out); !err.isEmpty())
    return QStringLiteral("dataset: '%1' %2").arg(path, err);
  return {};
}

}  // namespace milab
