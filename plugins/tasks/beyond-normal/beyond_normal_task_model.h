#pragma once
// A Beyond-Normal distribution (beyond_normal.h) as the lab sees a task: its exact I(x;y) and its samples, nothing
// more (no x', no closed-form PMI or densities: the methods that need them are refused on it).
#include "beyond_normal.h"
#include "tasks/task.h"

namespace milab {

class BeyondNormalTaskModel final : public TaskModel {
 public:
  explicit BeyondNormalTaskModel(beyond_normal::TaskDefinition definition);

  int dimX() const override { return definition_.sampledDimX(); }
  int dimY() const override { return definition_.sampledDimY(); }
  double totalMi() const override { return truth_; }
  // kClubOracleValue for an untransformed multinormal task (beyond_normal::clubOracleValue); nothing else.
  std::optional<double> knownValue(const QString& name) const override;
  std::unique_ptr<TaskSampler> sampler(c10::Device device) const override;

 private:
  beyond_normal::TaskDefinition definition_;
  double truth_;
};

}  // namespace milab
