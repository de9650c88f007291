#include "engine/held_out_tracker.h"

#include <QStringList>
#include <cmath>

namespace milab {

bool HeldOutTracker::observe(int step, double value, double stderror) {
  if (!std::isfinite(value)) return true;
  const bool better = readings_ == 0 || (upperBound_ ? value < best_ : value > best_);
  ++readings_;
  lastStep_ = step;
  if (better) {
    best_ = value;
    bestStderror_ = stderror;
    bestStep_ = step;
    sinceBest_ = 0;
    return true;
  }
  if (!earlyStopping_ || ++sinceBest_ < 2) return true;
  if (stoppedAt_ == 0) stoppedAt_ = step;
  return false;
}

QString heldOutReason(const HeldOutTracker& track, bool reportBest) {
  QStringList parts;
  if (track.stoppedAt() > 0)
    parts << QStringLiteral("early stopping at step %1: two held-out readings in a row no better than the best, %2")
                 .arg(track.stoppedAt())
                 .arg(track.best(), 0, 'f', 4);
  if (reportBest && track.any())
    parts << QStringLiteral("report best: the best of %1 held-out readings, after step %2")
                 .arg(track.readings())
                 .arg(track.bestStep());
  return parts.join("; ");
}

}  // namespace milab
