// The run's curve behind one mutex: the worker appends and puts late readings, the GUI's poll takes them.
#include "engine/curve_recorder.h"

#include <cmath>
#include <utility>

namespace milab {

void CurveRecorder::append(CurvePoint point) {
  std::lock_guard<std::mutex> lock(mutex_);
  points_.push_back(std::move(point));
}

void CurveRecorder::putLateReading(int step, double CurvePoint::*field, double value) {
  if (!std::isfinite(value)) return;
  std::lock_guard<std::mutex> lock(mutex_);
  for (int i = points_.size() - 1; i >= 0 && points_[i].step >= step; --i)
    if (points_[i].step == step && std::isnan(points_[i].*field)) {
      points_[i].*field = value;
      lateNew_ << points_[i];
    }
}

QVector<CurvePoint> CurveRecorder::takeNewPoints() {
  std::lock_guard<std::mutex> lock(mutex_);
  QVector<CurvePoint> out(points_.begin() + taken_, points_.end());
  taken_ = points_.size();
  return out;
}

QVector<CurvePoint> CurveRecorder::takeNewLate() {
  std::lock_guard<std::mutex> lock(mutex_);
  return std::exchange(lateNew_, {});
}

QVector<CurvePoint> CurveRecorder::points() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return points_;
}

}  // namespace milab
