#include "beyond_normal_task_model.h"

#include <ATen/ATen.h>
#include <ATen/CPUGeneratorImpl.h>

#include <mutex>

#include "beyond_normal_sampler.h"
#include "tasks/task_sampler.h"

namespace milab {

namespace {

// Draws in float64 on the CPU, as bmi does, and hands the run float32 on its device. A CPU run draws with the run's
// own generator; on a GPU, whose generator cannot drive a CPU draw, with a CPU generator seeded once from it.
class BeyondNormalSampler final : public TaskSampler {
 public:
  BeyondNormalSampler(const beyond_normal::TaskDefinition& definition, c10::Device device)
      : TaskSampler(device), definition_(definition) {}

  int dimX() const override { return definition_.sampledDimX(); }
  int dimY() const override { return definition_.sampledDimY(); }

  Batch sampleJoint(int64_t n, at::Generator& gen) const override {
    const beyond_normal::Samples s = beyond_normal::sampleTask(definition_, n, cpuGenerator(gen));
    const auto options = at::TensorOptions().dtype(at::kFloat).device(device());
    return {s.x.to(options), {}, s.y.to(options)};
  }

 private:
  at::Generator& cpuGenerator(at::Generator& gen) const {
    if (gen.device().is_cpu()) return gen;
    std::call_once(cpuSeeded_, [&] { cpu_ = at::make_generator<at::CPUGeneratorImpl>(gen.current_seed()); });
    return cpu_;
  }

  beyond_normal::TaskDefinition definition_;
  mutable std::once_flag cpuSeeded_;
  mutable at::Generator cpu_;
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
