#include "engine/held_out_tracker.h"

#include <QStringList>
#include <cmath>

namespace milab {

bool HeldOutTracker::better(const HeldOutReading& r) const {
  if (readings_ == 0) return true;
  switch (selection_) {
    case HeldOutSelection::LowestReading:
      return r.value < best_.value;
    case HeldOutSelection::LowestLoss:
      return r.loss < best_.loss;
    default:
      return r.value > best_.value;
  }
}

bool HeldOutTracker::observe(int step, const HeldOutReading& reading) {
  if (!std::isfinite(reading.value) || (selectsByLoss() && !std::isfinite(reading.loss))) return true;
  const bool isBetter = better(reading);
  ++readings_;
  lastStep_ = step;
  if (isBetter) {
    best_ = reading;
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
  if (track.stoppedAt() > 0 && track.selectsByLoss())
    parts << QStringLiteral(
                 "early stopping at step %1: two held-out losses in a row no lower than the lowest, %2 "
                 "(its reading %3)")
                 .arg(track.stoppedAt())
                 .arg(track.bestReading().loss, 0, 'g', 5)
                 .arg(track.best(), 0, 'f', 4);
  else if (track.stoppedAt() > 0)
    parts << QStringLiteral("early stopping at step %1: two held-out readings in a row no better than the best, %2")
                 .arg(track.stoppedAt())
                 .arg(track.best(), 0, 'f', 4);
  if (reportBest && track.any())
    parts << (track.selectsByLoss()
                  ? QStringLiteral("report best: the reading at the lowest of %1 held-out losses, after step %2")
                  : QStringLiteral("report best: the best of %1 held-out readings, after step %2"))
                 .arg(track.readings())
                 .arg(track.bestStep());
  return parts.join("; ");
}

}  // namespace milab
