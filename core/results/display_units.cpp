#include "results/display_units.h"

#include <cmath>

namespace milab {

QString parseUnits(const QString& text, Units* out) {
  if (text == "nats")
    *out = Units::Nats;
  else if (text == "bits")
    *out = Units::Bits;
  else
    return QStringLiteral("units: must be nats or bits, got '%1'").arg(text);
  return {};
}

double inUnits(double nats, Units units) { return units == Units::Bits ? nats / std::log(2.0) : nats; }

QString unitName(Units units) { return units == Units::Bits ? QStringLiteral("bits") : QStringLiteral("nats"); }

}  // namespace milab
