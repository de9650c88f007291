#pragma once
// A curve's per-step term columns (a vision objective's parts, say): their names in the order they first appear,
// and a point's (or a run result's) value of one, NaN where it has none. curve.csv (results/run_files) and the
// history's curve blob (results/curve_blob) lay the columns out alike through these.
#include <QStringList>
#include <QVector>
#include <limits>

#include "engine/run.h"

namespace milab {

inline QStringList curveTermNames(const QVector<CurvePoint>& curve) {
  QStringList names;
  for (const CurvePoint& p : curve)
    for (const NamedValue& t : p.terms)
      if (!names.contains(t.name)) names << t.name;
  return names;
}

// The value of the term `name` among `terms` (a curve point's, a run result's), NaN where there is none.
inline double termValue(const QList<NamedValue>& terms, const QString& name) {
  for (const NamedValue& t : terms)
    if (t.name == name) return t.value;
  return std::numeric_limits<double>::quiet_NaN();
}

inline double termValue(const CurvePoint& point, const QString& name) { return termValue(point.terms, name); }

}  // namespace milab
