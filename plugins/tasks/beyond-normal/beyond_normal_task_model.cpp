#include "beyond_normal_task_model.h"

#include <ATen/ATen.h>

#include "beyond_normal_sampler.h"
#include "tasks/cpu_draw_generator.h"
#include "tasks/task_sampler.h"

namespace milab {

namespace {

// Draws in float64 on the CPU, as bmi does, and hands the run float32 on its device, with the generator
// tasks/cpu_draw_generator.h gives.
class BeyondNormalSampler final : public TaskSampler {
 public:
  BeyondNormalSampler(const beyond_normal::TaskDefinition& definition, c10::Device device)
      : TaskSampler(device), definition_(definition) {}

  int dimX() const override { return definition_.sampledDimX(); }
  int dimY() const override { return definition_.sampledDimY(); }

  Batch sampleJoint(int64_t n, at::Generator& gen) const override {
    const beyond_normal::Samples s = beyond_normal::sampleTask(definition_, n, cpu_.of(gen));
    const auto options = at::TensorOptions().dtype(at::kFloat).device(device());
    return {s.x.to(options), {}, s.y.to(options)};
  }

 private:

  beyond_normal::TaskDefinition definition_;
  CpuDrawGenerator cpu_;
};

}  // namespace

BeyondNormalTaskModel::BeyondNormalTaskModel(beyond_normal::TaskDefinition definition)
    : definition_(std::move(definition)), truth_(beyond_normal::exactMutualInformation(definition_)) {
  if (definition_.base != beyond_normal::Base::AdditiveUniform)
    definition_.covarianceFactor = beyond_normal::lowerCholesky(definition_.covariance);
}

std::optional<double> BeyondNormalTaskModel::knownValue(const QString& name) const {
  return name == kClubOracleValue ? beyond_normal::clubOracleValue(definition_) : std::nullopt;
}

std::unique_ptr<TaskSampler> BeyondNormalTaskModel::sampler(c10::Device device) const {
  return std::make_unique<BeyondNormalSampler>(definition_, device);
}

}  // namespace milab
