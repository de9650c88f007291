#pragma once
// A finite-sample run's reading extrapolated to infinite N (engine/size_fit.h), and what it costs. A method that
// trains nothing (KSG) already read its rows in disjoint parts of N/2 to N/5 for its spread, so its sizes are free;
// a trained critic is trained again on the set's 2 halves and its 4 quarters (disjoint rows, engine/sample_set's
// RowPart, each split and read as the run's protocol splits and reads N), six more trainings on smaller sets. Their
// spread, scaled to N as the subsampled one is, also holds what the critic-fixed interval leaves out: how far the
// critic itself moves with its training rows and its initialisation. Torch header: engine only.
#include <c10/core/Device.h>

#include <QString>
#include <atomic>
#include <limits>

#include "engine/held_out_reading.h"
#include "engine/size_fit.h"

namespace milab {

class MethodPlugin;
class TaskModel;
struct RunSpec;

struct SizeExtrapolation {
  SizeFit fit;
  double degreesOfFreedom = std::numeric_limits<double>::quiet_NaN();  // of the sizes' error
  // A trained critic's retrained parts: their spread scaled to N (training included); and the error the reading
  // then has, the larger of that and its critic-fixed one, with degreesOfFreedom the chosen one's.
  double partsStderror = std::numeric_limits<double>::quiet_NaN();
  double readingStderror = std::numeric_limits<double>::quiet_NaN();
  bool cancelled = false;
  QString error;  // a part that could not be trained or read: why
};

// The sizes of a reading that trains nothing: `reading` of all `rows`, with its subsampled parts (finalReading).
SizeExtrapolation extrapolateFromParts(const HeldOutReading& reading, int64_t rows);

// The sizes of a trained critic's reading: `reading` on the whole set (with its critic-fixed error and degrees of
// freedom), and the halves' and quarters' readings, each trained for at most `steps` under the spec's protocol
// (early stopping, report). The error at N is the larger of the parts' spread and the critic-fixed one: the whole
// spread holds the held-out rows' share, so a parts' spread below it (4 degrees of freedom; parts too short to
// train alike) is noise, not a narrower truth.
SizeExtrapolation extrapolateByRetraining(const RunSpec& spec, const MethodPlugin& method, const TaskModel& task,
                                          c10::Device device, const std::atomic<bool>& cancel, int steps,
                                          const HeldOutReading& reading);

}  // namespace milab
