#include "engine/size_extrapolation.h"

#include <cmath>
#include <exception>
#include <vector>

#include "engine/held_out_evaluation.h"
#include "engine/run_spec.h"
#include "engine/sample_set.h"
#include "engine/subsample_spread.h"
#include "engine/training_session.h"
#include "method/method_plugin.h"

namespace milab {

namespace {

// The parts the trained critic is trained again on: halves and quarters.
constexpr int kRetrainedSplits[] = {2, 4};

// One part trained and read as the run is: held-out readings every eval_every steps, early stopping and report as
// the spec asks. NaN when training fails, the reading is not finite (`error` says which) or the run's cancel came.
double partReadingRetrained(const RunSpec& spec, const MethodPlugin& method, const TaskModel& task, c10::Device device,
                            const std::atomic<bool>& cancel, int steps, RowPart part, QString* error) {
  TrainingSession session(
      spec, method, task, device, [&cancel] { return cancel.load(); }, false, part);
  HeldOutEvaluation readings(
      spec.evalEvery, heldOutSelection(method.info()), spec.earlyStopping,
      [&] { return heldOutReading(session, *session.sampleSet(), spec.heldOutWhole, cancel); }, [](int, double) {});
  int lastStep = 0;
  const TrainingOutcome t = session.train(
      steps, [&](int s) { return readings.beforeStep(s); }, [&](const StepNumbers& n) { lastStep = n.step; },
      spec.evalEvery);
  if (!t.error.isEmpty()) {
    *error = QStringLiteral("part %1 of %2: %3").arg(part.index + 1).arg(part.of).arg(t.error);
    return std::nan("");
  }
  if (t.cancelled || cancel.load()) return std::nan("");
  const HeldOutReading last = heldOutReading(session, *session.sampleSet(), spec.heldOutWhole, cancel);
  if (!std::isfinite(last.value)) {
    *error = QStringLiteral("part %1 of %2: its reading is not finite").arg(part.index + 1).arg(part.of);
    return std::nan("");
  }
  return readings.reported(lastStep, last, spec.reportBest).value;
}

}  // namespace

SizeExtrapolation extrapolateFromParts(const HeldOutReading& reading, int64_t rows) {
  SizeExtrapolation e;
  std::vector<SizeMean> sizes{{rows, reading.value}};
  sizes.insert(sizes.end(), reading.partMeans.begin(), reading.partMeans.end());
  e.degreesOfFreedom = reading.degreesOfFreedom;
  e.fit = fitInverseSize(sizes, reading.stderror, reading.degreesOfFreedom);
  if (!std::isfinite(e.fit.value))
    e.error = QStringLiteral("too few rows for parts of %1 or more at two sizes").arg(kFewestPartRows);
  return e;
}

SizeExtrapolation extrapolateByRetraining(const RunSpec& spec, const MethodPlugin& method, const TaskModel& task,
                                          c10::Device device, const std::atomic<bool>& cancel, int steps,
                                          const HeldOutReading& reading) {
  SizeExtrapolation e;
  std::vector<std::vector<double>> values;
  std::vector<int64_t> partRows;
  std::vector<SizeMean> sizes{{spec.samples, reading.value}};
  for (int of : kRetrainedSplits) {
    values.emplace_back();
    partRows.push_back(spec.samples / of);
    double mean = 0;
    for (int index = 0; index < of; ++index) {
      QString error;
      double v = std::nan("");
      try {
        v = partReadingRetrained(spec, method, task, device, cancel, steps, RowPart{of, index}, &error);
      } catch (const EstimatorCancelled&) {
      } catch (const std::exception& ex) {
        error = QStringLiteral("part %1 of %2: %3").arg(index + 1).arg(of).arg(ex.what());
      }
      if (cancel.load()) {
        e.cancelled = true;
        return e;
      }
      if (!error.isEmpty() || !std::isfinite(v)) {
        e.error = error.isEmpty() ? QStringLiteral("a part's reading is not finite") : error;
        return e;
      }
      values.back().push_back(v);
      mean += v / double(of);
    }
    sizes.push_back({spec.samples / of, mean});
  }
  const double variance = subsampledVariance(values, partRows, spec.samples, &e.degreesOfFreedom);
  e.partsStderror = std::sqrt(variance);
  e.readingStderror = e.partsStderror;
  if (!(e.partsStderror >= reading.stderror) && reading.stderror > 0) {
    e.readingStderror = reading.stderror;
    e.degreesOfFreedom = reading.degreesOfFreedom;
  }
  e.fit = fitInverseSize(sizes, e.readingStderror, e.degreesOfFreedom);
  return e;
}

}  // namespace milab
