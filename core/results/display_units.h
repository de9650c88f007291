#pragma once
// The units of the human-readable lines (a run's result line, a grid's cell lines): nats, the lab's, or bits for
// those who think in them. Only what is printed for a reader changes; every file (summary.json, grid.csv, the
// history) stays in nats. Torch-free.
#include <QString>

namespace milab {

enum class Units { Nats, Bits };

// "nats" or "bits"; otherwise the error line naming the key ("units: must be nats or bits, got 'x'").
QString parseUnits(const QString& text, Units* out);
// A value in nats, in `units`.
double inUnits(double nats, Units units);
QString unitName(Units units);  // "nats", "bits"

}  // namespace milab
