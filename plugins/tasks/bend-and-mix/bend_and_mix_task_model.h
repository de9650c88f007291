#pragma once
// A Bend and Mix task (bend_and_mix.h) as the lab sees it: samples, and a truth by Monte Carlo with its standard
// error (no x', no PMI or densities offered to the methods: the oracle critics are the first suite's).
#include "bend_and_mix.h"
#include "monte_carlo_truth.h"
#include "tasks/task.h"

namespace milab {

class BendAndMixTaskModel final : public TaskModel {
 public:
  explicit BendAndMixTaskModel(bend_and_mix::TaskDefinition definition);

  int dimX() const override { return definition_.mixture->dimX(); }
  int dimY() const override { return definition_.mixture->dimY(); }
  double totalMi() const override { return truth_.mean; }
  double totalMiStandardError() const override { return truth_.standardError; }
  std::unique_ptr<TaskSampler> sampler(c10::Device device) const override;

 private:
  bend_and_mix::TaskDefinition definition_;
  bend_and_mix::MonteCarloTruth truth_;
};

}  // namespace milab
