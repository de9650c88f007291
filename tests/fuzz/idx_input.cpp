#include "idx_input.h"

#include "data/idx_file.h"

namespace milab {

QString checkIdxBytes(const QByteArray& gz, int dims) {
  IdxArray array;
  const QString err = parseIdxGz(gz, dims, &array);
  if (!err.isEmpty()) {
    for (const QChar c : err)
      if (c.category() == QChar::Other_Control) return QStringLiteral("an error with a control character: ") + err;
    return {};
  }
  if (int(array.shape.size()) != dims)
    return QStringLiteral("an array of %1 dimensions read as %2").arg(array.shape.size()).arg(dims);
  int64_t count = 1;
  for (const int64_t s : array.shape) count *= s;
  if (count != int64_t(array.values.size()) || count > kMaxIdxBytes)
    return QStringLiteral("an array of %1 values for a shape of %2").arg(array.values.size()).arg(count);
  return {};
}

}  // namespace milab
