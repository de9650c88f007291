// The list's calls in order; syncEvery is the gcd so that every observer's steps are among the loop's sync points.
#include "engine/run_observer.h"

#include <numeric>

namespace milab {

void RunObservers::trainingStarts(RunResult* result) {
  for (auto& o : list_) o->trainingStarts(result);
}

bool RunObservers::beforeStep(int step) {
  bool goOn = true;
  for (auto& o : list_) goOn = o->beforeStep(step) && goOn;  // each sees every step, even once one stops
  return goOn;
}

int RunObservers::syncEvery() const {
  int every = 0;
  for (const auto& o : list_) every = std::gcd(every, o->syncEvery());
  return every;
}

void RunObservers::trainingEnded(int stepsDone, RunResult* result) {
  for (auto& o : list_) o->trainingEnded(stepsDone, result);
}

void RunObservers::runCancelled(RunResult* result) {
  for (auto& o : list_) o->runCancelled(result);
}

}  // namespace milab
