// When the held-out part is read, what early stopping decides, and which reading the run reports.
#include "engine/held_out_evaluation.h"

#include "engine/run.h"

namespace milab {

HeldOutEvaluation::HeldOutEvaluation(int evalEvery, HeldOutSelection selection, bool earlyStopping,
                                     std::function<HeldOutReading()> read, std::function<void(int, double)> putOnCurve)
    : evalEvery_(evalEvery),
      tracker_(selection, earlyStopping),
      read_(std::move(read)),
      putOnCurve_(std::move(putOnCurve)) {}

bool HeldOutEvaluation::beforeStep(int step) {
  if (step == 1 || (step - 1) % evalEvery_ != 0) return true;
  const HeldOutReading r = read_();
  putOnCurve_(step - 1, r.value);
  return tracker_.observe(step - 1, r);
}

void HeldOutEvaluation::report(int stepsDone, bool trains, bool reportBest, const HeldOutReading& final,
                               RunResult* result, QList<NamedValue>* terms) {
  if (trains) putOnCurve_(stepsDone, final.value);  // the last point carries it too
  const HeldOutReading reported = trains ? this->reported(stepsDone, final, reportBest) : final;
  result->estimate = reported.value;
  // The spread is read on the final network (engine/held_out_reading.h): a best reading's network is gone, and it
  // read the same rows a few evaluations earlier.
  result->stderror = final.stderror;
  *terms = reported.terms;
  result->reason = heldOutReason(tracker_, reportBest);
  // Which held-out reading is the estimate: the plot marks it there, the best of several or the last.
  if (trains)
    result->readings << NamedValue{"reported_step", double(reportBest && tracker_.any() ? tracker_.bestStep()
                                                                                          : stepsDone)};
}

}  // namespace milab
