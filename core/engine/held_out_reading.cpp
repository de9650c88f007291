#include "engine/held_out_reading.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "engine/curve_recorder.h"
#include "engine/held_out_tracker.h"
#include "engine/sample_set.h"
#include "engine/subsample_spread.h"
#include "engine/training_session.h"

namespace milab {

void meanAndStderr(const std::vector<double>& v, double* mean, double* se) {
  double s = 0;
  for (double x : v) s += x;
  *mean = s / v.size();
  double ss = 0;
  for (double x : v) ss += (x - *mean) * (x - *mean);
  *se = v.size() > 1 ? std::sqrt(ss / (v.size() - 1) / v.size()) : 0.0;
}

void tailMean(const QVector<CurvePoint>& points, int count, double* mean, double* se) {
  std::vector<double> tail;
  for (int i = std::max<int>(0, points.size() - count); i < points.size(); ++i) tail.push_back(points[i].estimate);
  if (!tail.empty()) meanAndStderr(tail, mean, se);
}

void addToTermMeans(const QList<NamedValue>& terms, double count, QList<NamedValue>* means) {
  for (int t = 0; t < terms.size(); ++t) {
    if (means->size() <= t) *means << NamedValue{terms[t].name, 0.0};
    (*means)[t].value += terms[t].value / count;
  }
}

HeldOutReading heldOutReading(TrainingSession& session, const SampleSet& set, bool whole,
                              const std::atomic<bool>& cancel) {
  return partReading(session, set.heldOut(), whole, cancel);
}

HeldOutReading partReading(TrainingSession& session, const Batch& part, bool whole, const std::atomic<bool>& cancel) {
  if (whole) {
    const Evaluation e = session.evaluateWhole(part);
    if (!std::isfinite(e.value)) return {std::numeric_limits<double>::quiet_NaN(), 0, {}};
    return {e.value, 0.0, e.terms, e.loss};
  }
  const int64_t rows = part.x.size(0);
  const int64_t size = std::min<int64_t>(session.estimator().evaluationBatchSize(), rows);
  const int64_t batches = rows / size;
  std::vector<double> values;
  HeldOutReading r;
  double lossSum = 0;
  for (int64_t i = 0; i < batches && !cancel.load(); ++i) {
    const Evaluation e = session.evaluate(sliceRows(part, i * size, size));
    if (!std::isfinite(e.value)) return {std::numeric_limits<double>::quiet_NaN(), 0, {}};
    values.push_back(e.value);
    addToTermMeans(e.terms, double(batches), &r.terms);
    lossSum += e.loss;  // NaN throughout for a method without a held-out loss
  }
  if (values.empty()) return {std::numeric_limits<double>::quiet_NaN(), 0, {}};
  meanAndStderr(values, &r.value, &r.stderror);
  if (values.size() >= 2) r.degreesOfFreedom = double(values.size() - 1);  // the batches are disjoint parts
  r.loss = lossSum / double(values.size());
  return r;
}

HeldOutReading finalReading(TrainingSession& session, bool trains, bool whole, int seed,
                            const std::atomic<bool>& cancel) {
  // Read in batches, the held-out part is already read in disjoint parts of one size: their spread is the
  // subsampled one at k = batches (a part of the subsampling's sizes would read only its full batches).
  if (trains && !whole) return partReading(session, session.sampleSet()->heldOut(), false, cancel);
  HeldOutReading r;
  Batch rows;
  PartReader read;
  if (trains) {
    rows = session.sampleSet()->heldOut();
    read = [&](const Batch& part) { return partReading(session, part, whole, cancel).value; };
    r = partReading(session, rows, whole, cancel);
  } else {
    rows = session.sampleSet()->all();
    read = [&](const Batch& part) { return session.evaluate(part).value; };
    const Evaluation e = session.evaluate(rows);
    r = {e.value, 0.0, e.terms, e.loss};
  }
  if (!std::isfinite(r.value)) return r;
  const SubsampledSpread spread = subsampledStandardError(rows, seed, read, cancel);
  if (std::isfinite(spread.standardError)) {  // else a trained reading keeps its batches' error, KSG's stays 0
    r.stderror = spread.standardError;
    r.degreesOfFreedom = spread.degreesOfFreedom;
  }
  r.partMeans = spread.partMeans;
  return r;
}

HeldOutReading reportedReading(HeldOutTracker* track, int step, const HeldOutReading& final, bool reportBest) {
  if (track->lastStep() != step) track->observe(step, final);
  if (!reportBest || !track->any()) return final;
  return track->bestReading();
}

}  // namespace milab
