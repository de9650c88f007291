#include "data_table.h"

#include <zip.h>

#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <cmath>
#include <cstring>

namespace milab {

namespace {

// The file's own control characters (a stray carriage return, a NUL, an escape; a Unicode line break) shown as
// \xNN or \uNNNN: an error that quotes a cell, a header or a member's name stays one line and cannot drive the
// terminal. The data-file fuzzer found a cell with carriage returns inside that split the message.
QString printable(const QString& text) {
  QString out;
  out.reserve(text.size());
  for (const QChar c : text) {
    const QChar::Category category = c.category();
    if (category == QChar::Other_Control || category == QChar::Separator_Line ||
        category == QChar::Separator_Paragraph)
      out += c.unicode() <= 0xff ? QStringLiteral("\\x%1").arg(c.unicode(), 2, 16, QLatin1Char('0'))
                                 : QStringLiteral("\\u%1").arg(c.unicode(), 4, 16, QLatin1Char('0'));
    else
      out += c;
  }
  return out;
}

QString fileError(const QString& path, const QString& what) {
  return printable(QStringLiteral("file: '%1' %2").arg(path, what));
}

// Written as a decimal number, whether or not a double holds it: 1e400 is a number too large, not a word, so a
// first line of such cells is data (refused by its value), never taken for a header (issue 80).
bool writtenAsNumber(const QString& cell) {
  static const QRegularExpression decimal(QStringLiteral("^[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?$"));
  return decimal.match(cell.trimmed()).hasMatch();
}

// A number the lab can compute with, or why not ("" when fine).
QString readCell(const QString& cell, double* out) {
  bool ok = false;
  double v = cell.trimmed().toDouble(&ok);
  if (!ok && writtenAsNumber(cell)) {
    // Out of a double's range: Qt gives an infinity for too large, refused below as beyond the lab's range (it was
    // written finite), and 0 for too small, which is what it reads as.
    v = std::isinf(v) ? std::copysign(2 * kMaxDataMagnitude, v) : 0.0;
    ok = true;
  }
  if (!ok) return QStringLiteral("'%1' is not a number").arg(cell.trimmed().left(40));
  if (const QString why = dataValueProblem(v); !why.isEmpty())
    return QStringLiteral("'%1' %2").arg(cell.trimmed().left(40), why);
  *out = v;
  return {};
}

QStringList splitCells(const QString& line) {
  if (line.contains(',')) return line.split(',');
  if (line.contains(';')) return line.split(';');
  if (line.contains('\t')) return line.split('\t');
  static const QRegularExpression spaces("\\s+");
  return line.trimmed().split(spaces);
}

QString readCsv(const QString& path, const QByteArray& bytes, HeaderMode header, DataTable* out) {
  const QList<QByteArray> lines = bytes.split('\n');
  int64_t expected = -1, expectedLine = 0;
  bool first = true;
  for (int i = 0; i < lines.size(); ++i) {
    const QString line = QString::fromUtf8(lines[i]).trimmed();
    if (line.isEmpty() || line.startsWith('#')) continue;
    const QStringList cells = splitCells(line);
    if (first) {
      first = false;
      // A header has a cell that is no number at all; "inf" or "nan" are numbers, refused below as data.
      bool textCell = false;
      for (const QString& c : cells) {
        bool number = false;
        c.trimmed().toDouble(&number);
        textCell = textCell || !(number || writtenAsNumber(c));
      }
      if (header == HeaderMode::Yes || (header == HeaderMode::Auto && textCell)) {
        for (const QString& c : cells) out->header << c.trimmed();
        expected = cells.size();
        expectedLine = i + 1;
        continue;
      }
    }
    if (expected < 0) {
      expected = cells.size();
      expectedLine = i + 1;
    }
    if (cells.size() != expected)
      return fileError(path, QStringLiteral("line %1 has %2 cells, line %3 has %4")
                                 .arg(i + 1)
                                 .arg(cells.size())
                                 .arg(expectedLine)
                                 .arg(expected));
    for (int c = 0; c < cells.size(); ++c) {
      double v = 0;
      if (const QString why = readCell(cells[c], &v); !why.isEmpty())
        return fileError(path, QStringLiteral("line %1, column %2: %3").arg(i + 1).arg(c + 1).arg(why));
      out->values << v;
    }
    ++out->rows;
  }
  out->columns = std::max<int64_t>(expected, 0);
  return {};
}

// NumPy's .npy format, version 1-3: magic, version, header length, a Python dict literal, the raw array.
// One cell of an .npy array as a double: `kind` f, i or u and `size` bytes (the header's dtype, checked before),
// little-endian as the machine.
template <class T>
double cellAs(const char* p) {
  T x;
  std::memcpy(&x, p, sizeof x);
  return double(x);
}

double npyCell(const char* p, char kind, int size) {
  if (kind == 'f') return size == 4 ? cellAs<float>(p) : cellAs<double>(p);
  if (kind == 'i')
    return size == 1   ? cellAs<int8_t>(p)
           : size == 2 ? cellAs<int16_t>(p)
           : size == 4 ? cellAs<int32_t>(p)
                       : cellAs<int64_t>(p);
  return size == 1   ? cellAs<uint8_t>(p)
         : size == 2 ? cellAs<uint16_t>(p)
         : size == 4 ? cellAs<uint32_t>(p)
                     : cellAs<uint64_t>(p);
}

QString readNpy(const QString& path, const QByteArray& bytes, DataTable* out) {
  const auto bad = [&](const QString& why) { return fileError(path, QStringLiteral("is not a NumPy array: ") + why); };
  if (bytes.size() < 10 || !bytes.startsWith("\x93NUMPY")) return bad("no \\x93NUMPY magic");
  const int major = static_cast<unsigned char>(bytes[6]);
  const int lengthBytes = major == 1 ? 2 : 4;
  if (bytes.size() < 8 + lengthBytes) return bad("truncated header");
  qint64 headerLength = 0;
  for (int i = 0; i < lengthBytes; ++i) headerLength |= qint64(static_cast<unsigned char>(bytes[8 + i])) << (8 * i);
  const qint64 dataStart = 8 + lengthBytes + headerLength;
  if (dataStart > bytes.size()) return bad("truncated header");
  // One line, whatever the header holds: its own newline and any inside it become spaces in a message.
  const QString dict = QString::fromLatin1(bytes.mid(8 + lengthBytes, headerLength)).simplified();
  static const QRegularExpression descrRe("'descr'\\s*:\\s*'([<>|=])([fiub])(\\d+)'");
  static const QRegularExpression fortranRe("'fortran_order'\\s*:\\s*(True|False)");
  static const QRegularExpression shapeRe("'shape'\\s*:\\s*\\(([^)]*)\\)");
  const auto descr = descrRe.match(dict), fortran = fortranRe.match(dict), shape = shapeRe.match(dict);
  if (!descr.hasMatch() || !fortran.hasMatch() || !shape.hasMatch()) return bad("unreadable header " + dict.left(200));
  if (descr.captured(1) == ">") return bad("big-endian data");
  const QChar kind = descr.captured(2)[0];
  const int size = descr.captured(3).toInt();
  const bool known = (kind == 'f' && (size == 4 || size == 8)) ||
                     ((kind == 'i' || kind == 'u') && (size == 1 || size == 2 || size == 4 || size == 8));
  if (!known) return bad(QStringLiteral("dtype %1%2 (floats and integers only)").arg(kind).arg(size));
  QList<qint64> dims;
  for (const QString& d : shape.captured(1).split(',', Qt::SkipEmptyParts)) {
    bool ok = false;
    dims << d.trimmed().toLongLong(&ok);
    if (!ok || dims.last() < 0) return bad(QStringLiteral("shape entry '%1' is not a size").arg(d.trimmed().left(40)));
  }
  if (dims.isEmpty() || dims.size() > 2) return bad(QStringLiteral("%1 dimensions (1 or 2 expected)").arg(dims.size()));
  out->rows = dims[0];
  out->columns = dims.size() == 2 ? dims[1] : 1;
  // Compared by division: rows x columns x size can pass 2^63 for a shape like (2^61, 8), and wrap.
  const qint64 cells = (bytes.size() - dataStart) / size;
  if (out->columns > 0 && out->rows > cells / out->columns) return bad("fewer bytes than its shape needs");
  const bool columnMajor = fortran.captured(1) == "True";
  out->values.resize(out->rows * out->columns);
  const char* data = bytes.constData() + dataStart;
  for (int64_t i = 0; i < out->rows * out->columns; ++i) {
    const double v = npyCell(data + i * size, kind.toLatin1(), size);
    const int64_t row = columnMajor ? i % out->rows : i / out->columns;
    const int64_t column = columnMajor ? i / out->rows : i % out->columns;
    if (const QString why = dataValueProblem(v); !why.isEmpty())
      return fileError(path, QStringLiteral("row %1, column %2: %3 %4").arg(row + 1).arg(column + 1).arg(v).arg(why));
    out->values[row * out->columns + column] = v;
  }
  return {};
}

// The first member of an .npz archive that is an .npy file.
QString readNpz(const QString& path, DataTable* out) {
  int error = 0;
  zip_t* archive = zip_open(QFile::encodeName(path).constData(), ZIP_RDONLY, &error);
  if (!archive) return fileError(path, "is not a readable .npz (zip) archive");
  QString err = fileError(path, "holds no .npy array");
  const zip_int64_t entries = zip_get_num_entries(archive, 0);
  for (zip_int64_t i = 0; i < entries; ++i) {
    const char* name = zip_get_name(archive, i, 0);
    zip_stat_t stat;
    if (!name || !QString::fromUtf8(name).endsWith(".npy") || zip_stat_index(archive, i, 0, &stat) != 0) continue;
    if (stat.size > quint64(kMaxDataFileBytes)) {
      err = fileError(path, QStringLiteral("holds %1, over the 1 GiB limit once unpacked").arg(name));
      break;
    }
    QByteArray bytes(qsizetype(stat.size), Qt::Uninitialized);
    zip_file_t* member = zip_fopen_index(archive, i, 0);
    // libzip checks the member's CRC once it reads past the end: the second read must find the end, not an error.
    char past = 0;
    const bool read = member && zip_fread(member, bytes.data(), stat.size) == zip_int64_t(stat.size) &&
                      zip_fread(member, &past, 1) == 0;
    if (member) zip_fclose(member);
    err = read ? readNpy(path + ":" + name, bytes, out)
               : fileError(path, QStringLiteral("cannot unpack %1 (damaged: its checksum or size is wrong)").arg(name));
    break;
  }
  zip_close(archive);
  return err;
}

}  // namespace

QString readDataTable(const QString& path, HeaderMode header, DataTable* out) {
  *out = DataTable();
  const QFileInfo info(path);
  if (!info.isFile()) return fileError(path, "is not a file that exists");
  if (info.size() > kMaxDataFileBytes)
    return fileError(path, QStringLiteral("is %1 MiB, over the 1024 MiB limit").arg(info.size() >> 20));
  QString err;
  const QString suffix = info.suffix().toLower();
  if (suffix == "npz") {
    err = readNpz(path, out);
  } else {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
      return fileError(path, QStringLiteral("cannot be read (%1)").arg(file.errorString()));
    const QByteArray bytes = file.readAll();
    err = suffix == "npy" ? readNpy(path, bytes, out) : readCsv(path, bytes, header, out);
  }
  if (!err.isEmpty()) return err;
  if (out->rows < 2)
    return fileError(
        path, QStringLiteral("has %1 data row%2; at least 2 are needed").arg(out->rows).arg(out->rows == 1 ? "" : "s"));
  return {};
}

}  // namespace milab
