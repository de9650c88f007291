#pragma once
// A run's curve as the one blob the run history stores per run (a 100,000-step run is one value written and read
// in one go, not 100,000 rows). Two formats, named by the curves table's `format` column:
//   1 (schema 1): four little-endian float64 per point: step, estimate, loss, seconds.
//   2 (schema 2): every column curve.csv has: the term names once, then per point step, estimate, loss,
//     seconds, the held-out reading, the probe accuracy and one value per term (NaN where the point has none),
//     all float64, so a reopened run draws what its live run drew (held-out circles, the probe's axis, terms).
#include <QByteArray>
#include <QVector>

#include "engine/run.h"

namespace milab {

constexpr int kCurveBlobFormat = 2;  // what packCurveBlob writes

QByteArray packCurveBlob(const QVector<CurvePoint>& curve);
// The points of a blob of `format` (1 or 2); a cut blob gives the whole points before the cut.
QVector<CurvePoint> unpackCurveBlob(const QByteArray& bytes, int format);

}  // namespace milab
