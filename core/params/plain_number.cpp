#include "params/plain_number.h"

#include <QRegularExpression>
#include <QString>
#include <cmath>

namespace milab {

std::optional<double> plainNumber(QStringView text) {
  static const QRegularExpression grammar(QStringLiteral("^-?(\\d+\\.?\\d*|\\.\\d+)([eE][-+]?\\d+)?$"));
  if (!grammar.match(text.toString()).hasMatch()) return std::nullopt;
  bool ok = false;
  const double v = text.toDouble(&ok);
  if (!ok || !std::isfinite(v)) return std::nullopt;
  return v;
}

std::optional<qint64> plainInteger(QStringView text) {
  static const QRegularExpression grammar(QStringLiteral("^-?\\d+$"));
  if (!grammar.match(text.toString()).hasMatch()) return std::nullopt;
  bool ok = false;
  const qint64 v = text.toLongLong(&ok);
  if (!ok) return std::nullopt;
  return v;
}

}  // namespace milab
