#include "engine/run_diagnostics.h"

#include <algorithm>
#include <cmath>

#include "engine/size_fit.h"
#include "method/method_plugin.h"
#include "results/reading_words.h"

namespace milab {

namespace {

struct Window {
  double mean = 0, se = 0;
};

Window windowOf(const QVector<CurvePoint>& curve, int begin, int end) {
  Window w;
  int n = 0;
  for (int i = begin; i < end; ++i)
    if (std::isfinite(curve[i].estimate)) {
      w.mean += curve[i].estimate;
      ++n;
    }
  if (n < 2) return {std::nan(""), std::nan("")};
  w.mean /= n;
  double ss = 0;
  for (int i = begin; i < end; ++i)
    if (std::isfinite(curve[i].estimate)) ss += (curve[i].estimate - w.mean) * (curve[i].estimate - w.mean);
  w.se = std::sqrt(ss / (n - 1) / n);
  return w;
}

// The last fifth of the training readings against the fifth before it: rising by more than three standard errors
// of the difference and by more than 1% (+ 0.005 nats) of the reading, which a plateau's drift does not reach.
std::optional<RunFlag> stillRising(const QVector<CurvePoint>& curve) {
  constexpr int kFewest = 50;  // ten points a window at least
  const int n = curve.size();
  if (n < kFewest) return std::nullopt;
  const int fifth = n / 5;
  const Window before = windowOf(curve, n - 2 * fifth, n - fifth), last = windowOf(curve, n - fifth, n);
  const double rise = last.mean - before.mean, se = std::hypot(before.se, last.se);
  if (!std::isfinite(rise) || rise <= 3 * se || rise <= 0.01 * std::abs(last.mean) + 0.005) return std::nullopt;
  return RunFlag{"still_rising",
                 QStringLiteral("the training reading rose from %1 to %2 nats between the last two fifths of its %3 "
                                "steps (%4 standard errors): training had not converged (raise steps)")
                     .arg(before.mean, 0, 'f', 3)
                     .arg(last.mean, 0, 'f', 3)
                     .arg(curve.last().step)
                     .arg(rise / std::max(se, 1e-12), 0, 'f', 1)};
}

// The last held-out reading below the best by more than 0.02 nats + 5% of the best (or two of its standard errors
// when the run reports one): the critic fits its training part at the held-out part's expense.
std::optional<RunFlag> overfitting(const QVector<CurvePoint>& curve, double stderror) {
  int bestAt = -1, lastAt = -1, readings = 0;
  for (int i = 0; i < curve.size(); ++i) {
    if (!std::isfinite(curve[i].heldOut)) continue;
    ++readings;
    lastAt = i;
    if (bestAt < 0 || curve[i].heldOut > curve[bestAt].heldOut) bestAt = i;
  }
  if (readings < 3 || bestAt == lastAt) return std::nullopt;
  const double best = curve[bestAt].heldOut, last = curve[lastAt].heldOut;
  const double margin = std::max(0.02 + 0.05 * std::abs(best), 2 * (std::isfinite(stderror) ? stderror : 0.0));
  if (best - last <= margin) return std::nullopt;
  return RunFlag{"overfitting",
                 QStringLiteral("the held-out reading fell from its best, %1 nats after step %2, to %3 after step %4 "
                                "(more than %5): the critic overfits its training part (report best, early stopping "
                                "or fewer steps)")
                     .arg(best, 0, 'f', 3)
                     .arg(curve[bestAt].step)
                     .arg(last, 0, 'f', 3)
                     .arg(curve[lastAt].step)
                     .arg(margin, 0, 'f', 3)};
}

// The size extrapolation's F test below kInconsistentSizesP.
std::optional<RunFlag> inconsistentSizes(const RunResult& r) {
  const double p = readingValue(r.readings, "size_consistency_p"), value = readingValue(r.readings, "extrapolated");
  if (!(p < kInconsistentSizesP)) return std::nullopt;
  return RunFlag{"inconsistent_sizes",
                 QStringLiteral("the readings at N and its parts bend away from a line in 1/N beyond their noise "
                                "(p %1): the extrapolated %2 nats is not to be trusted; the bias here does not fall "
                                "as 1/N")
                     .arg(p, 0, 'g', 2)
                     .arg(value, 0, 'f', 3)};
}

}  // namespace

// Within noise: two standard errors, or 2% of the ceiling when that is more (a whole reading has no standard error).
std::optional<RunFlag> atCeiling(const RunResult& r) {
  if (!std::isfinite(r.estimate)) return std::nullopt;
  for (const Ceiling& c : r.ceilings) {
    const double noise = std::max(2 * (std::isfinite(r.stderror) ? r.stderror : 0.0), 0.02 * std::abs(c.value));
    if (r.estimate >= c.value - noise)
      return RunFlag{"at_ceiling", QStringLiteral("the estimate %1 reads at its ceiling %2 = %3 nats (within %4): the "
                                                  "true value may be higher than this estimator can read here")
                                       .arg(r.estimate, 0, 'f', 3)
                                       .arg(c.name)
                                       .arg(c.value, 0, 'f', 3)
                                       .arg(noise, 0, 'f', 3)};
  }
  return std::nullopt;
}

std::optional<LossBlowUp> lossBlowUp(const QVector<CurvePoint>& curve) {
  const auto first = std::find_if(curve.begin(), curve.end(), [](const CurvePoint& p) { return std::isfinite(p.loss); });
  if (first == curve.end()) return std::nullopt;
  const double scale = kLossBlowUp * std::max(std::abs(first->loss), 1.0);
  for (const CurvePoint& p : curve)
    if (std::isfinite(p.loss) && std::abs(p.loss) > scale) return LossBlowUp{first->step, p.step, first->loss, p.loss};
  return std::nullopt;
}

QString divergedReason(const LossBlowUp& b) {
  return QStringLiteral("the training loss reached %1 at step %2, from %3 at step %4: training diverged, and the "
                        "reading may be a collapsed network's (lower lr)")
      .arg(b.loss, 0, 'g', 4)
      .arg(b.step)
      .arg(b.firstLoss, 0, 'g', 4)
      .arg(b.firstStep);
}

QList<RunFlag> runDiagnostics(const RunSpec& spec, const MethodInfo& info, const RunResult& result,
                              const QVector<CurvePoint>& curve) {
  QList<RunFlag> flags;
  if (const auto f = atCeiling(result)) flags << *f;
  const bool trained = info.trains && result.stepsDone > 0;
  if (trained && spec.finiteSamples() && spec.earlyStopping && result.stepsDone >= spec.steps)
    flags << RunFlag{"early_stopping_not_triggered",
                     QStringLiteral("early stopping was on and never ended training: all %1 steps ran, and the "
                                    "held-out reading may still have been rising (raise steps)")
                         .arg(spec.steps)};
  if (trained && info.lowerBound) {
    if (const auto f = stillRising(curve)) flags << *f;
    if (spec.finiteSamples())
      if (const auto f = overfitting(curve, result.stderror)) flags << *f;
  }
  if (trained)
    if (const auto b = lossBlowUp(curve)) flags << RunFlag{"training_diverged", divergedReason(*b)};
  if (const auto f = inconsistentSizes(result)) flags << *f;
  return flags;
}

}  // namespace milab
