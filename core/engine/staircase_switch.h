#pragma once
// The MI staircase's observer: before the first step of each level after the first, the estimator (its networks
// kept) starts reading samples of that level's law. Torch-free.
#include <functional>
#include <memory>
#include <vector>

#include "engine/run_observer.h"
#include "engine/staircase.h"

namespace milab {

class TaskModel;

class StaircaseSwitch : public RunObserver {
 public:
  // `levels`: one task per level of `schedule`, outliving the observer; `switchTo` hands the estimator a level's law
  // (TrainingSession::switchTask).
  StaircaseSwitch(MiSchedule schedule, const std::vector<std::unique_ptr<TaskModel>>& levels,
                  std::function<void(const TaskModel&)> switchTo)
      : schedule_(std::move(schedule)), levels_(levels), switchTo_(std::move(switchTo)) {}

  bool beforeStep(int step) override {
    if (step > 1 && schedule_.levelOf(step) != schedule_.levelOf(step - 1))
      switchTo_(*levels_[schedule_.levelOf(step)]);
    return true;
  }

 private:
  MiSchedule schedule_;
  const std::vector<std::unique_ptr<TaskModel>>& levels_;
  std::function<void(const TaskModel&)> switchTo_;
};

}  // namespace milab
