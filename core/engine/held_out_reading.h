#pragma once
// A trained estimator's reading on a finite sample set (engine/sample_set.h): the bound on its held-out part in
// batches of the method's evaluation size, with the standard error over the batches, or on every row for an
// estimator that trains nothing. Torch-free (the session and the set are declared, not included).
#include <QList>
#include <atomic>
#include <limits>
#include <vector>

#include "engine/size_fit.h"
#include "tasks/task.h"

namespace milab {

struct Batch;
struct CurvePoint;
class HeldOutTracker;
class SampleSet;
class TrainingSession;

struct HeldOutReading {
  double value = 0, stderror = 0;
  QList<NamedValue> terms;
  double loss = std::numeric_limits<double>::quiet_NaN();  // Evaluation::loss, the mean over the batches
  // The degrees of freedom of stderror when it is a spread over disjoint parts (batches; finalReading's
  // subsampling); NaN otherwise.
  double degreesOfFreedom = std::numeric_limits<double>::quiet_NaN();
  std::vector<SizeMean> partMeans;  // the subsampled parts' mean readings by size (finalReading)
};

// The mean of `v` and its standard error (0 for one value).
void meanAndStderr(const std::vector<double>& v, double* mean, double* se);

// The mean of the estimates of the last (up to) `count` points of a curve and its standard error; nothing is written
// for an empty curve. A cancelled run's estimate.
void tailMean(const QVector<CurvePoint>& points, int count, double* mean, double* se);

// The terms' means over `count` batches, one batch's terms at a time: adds each of `terms` divided by `count` to
// the sum at its place in `means` (named after the first batch's).
void addToTermMeans(const QList<NamedValue>& terms, double count, QList<NamedValue>* means);

// The bound on every full held-out batch of the method's evaluation size (the whole held-out part when it is
// smaller): their mean, its standard error over the batches, and the terms' means. NaN when a batch is not finite.
// whole (held_out = whole): the bound on the whole held-out part at once (Estimator::evaluateWhole), no error.
HeldOutReading heldOutReading(TrainingSession& session, const SampleSet& set, bool whole,
                              const std::atomic<bool>& cancel);
// The same reading of any part (the held-out part with its ys permuted: engine/independence_test), batch i being its
// rows i * size to (i + 1) * size - 1.
HeldOutReading partReading(TrainingSession& session, const Batch& part, bool whole, const std::atomic<bool>& cancel);

// A finite set's final reading: the held-out part for a trained estimator, with the held-out rows' share of its
// spread over fresh tables (the critic fixed); every row for one that trains nothing, with its whole spread. Both
// by subsampling the rows read (engine/subsample_spread.h, seeded by `seed`), or, for held-out batches, over the
// batches (disjoint parts already); stderror 0 where it cannot be had.
HeldOutReading finalReading(TrainingSession& session, bool trains, bool whole, int seed,
                            const std::atomic<bool>& cancel);

// What a trained run reports after its final reading: `final` joins the readings `track` saw unless its step was
// read already (the same network: reading it again, another permutation, is not a new chance); with report = best,
// the best of them all (its value, error and terms), otherwise `final`.
HeldOutReading reportedReading(HeldOutTracker* track, int step, const HeldOutReading& final, bool reportBest);

}  // namespace milab
