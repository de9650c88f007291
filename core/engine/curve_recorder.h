#pragma once
// A run's training curve as its worker records it and other threads read it: the points in order, how many a reader
// has taken, and the late readings (held-out, probe) put on a point after it was published. Thread-safe; torch-free.
#include <QList>
#include <QVector>
#include <limits>
#include <mutex>

#include "tasks/task.h"  // NamedValue

namespace milab {

struct CurvePoint {
  int step = 0;
  double estimate = 0;  // the bound on that step's training batch
  double loss = 0;
  double seconds = 0;  // since the run started
  // The finite-sample protocol's held-out reading of the critic after this step (every eval_every steps and at
  // the end); NaN where none was taken.
  double heldOut = std::numeric_limits<double>::quiet_NaN();
  // A learned representation's linear-probe accuracy after this step (method/representation_probe.h: every
  // probe_every steps and at the end); NaN where none was taken.
  double probe = std::numeric_limits<double>::quiet_NaN();
  // The training reading's parts when the method reports them per step (a vision objective's terms); else empty.
  QList<NamedValue> terms;
};

class CurveRecorder {
 public:
  void append(CurvePoint point);
  // A reading taken after step `step` (held-out, of the critic it left; a probe, of the encoder) put on that step's
  // point once: a step read twice, at an early stop and at the end, is the same network. A non-finite value is none.
  void putLateReading(int step, double CurvePoint::*field, double value);

  QVector<CurvePoint> takeNewPoints();  // points appended since the previous call
  QVector<CurvePoint> takeNewLate();    // points that got a late reading since the previous call
  QVector<CurvePoint> points() const;

 private:
  mutable std::mutex mutex_;
  QVector<CurvePoint> points_;
  int taken_ = 0;
  QVector<CurvePoint> lateNew_;
};

}  // namespace milab
