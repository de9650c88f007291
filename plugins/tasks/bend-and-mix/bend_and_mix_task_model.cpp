#include "bend_and_mix_task_model.h"

#include <ATen/ATen.h>

#include "tasks/cpu_draw_generator.h"
#include "tasks/task_sampler.h"

namespace milab {

namespace {

// Draws in float64 on the CPU, as bmi does, and hands the run float32 on its device, with the generator
// tasks/cpu_draw_generator.h gives.
class BendAndMixSampler final : public TaskSampler {
 public:
  BendAndMixSampler(const bend_and_mix::TaskDefinition& definition, c10::Device device)
      : TaskSampler(device), definition_(definition) {}

  int dimX() const override { return definition_.mixture->dimX(); }
  int dimY() const override { return definition_.mixture->dimY(); }

  Batch sampleJoint(int64_t n, at::Generator& gen) const override {
    const Eigen::MatrixXd joint = definition_.mixture->sample(n, cpu_.of(gen));
    const auto options = at::TensorOptions().dtype(at::kFloat).device(device());
    return {tensorOf(bend_and_mix::bendX(definition_, joint.leftCols(dimX()))).to(options), {},
            tensorOf(joint.rightCols(dimY())).to(options)};
  }

 private:
  // Eigen keeps columns contiguously: read as [cols, rows], then transposed and copied.
  static at::Tensor tensorOf(const Eigen::MatrixXd& m) {
    return at::from_blob(const_cast<double*>(m.data()), {m.cols(), m.rows()}, at::TensorOptions().dtype(at::kDouble))
        .t()
        .clone();
  }

  bend_and_mix::TaskDefinition definition_;
  CpuDrawGenerator cpu_;
};

}  // namespace

BendAndMixTaskModel::BendAndMixTaskModel(bend_and_mix::TaskDefinition definition)
    : definition_(std::move(definition)), truth_(bend_and_mix::cachedTruth(definition_.id, *definition_.mixture)) {}

std::unique_ptr<TaskSampler> BendAndMixTaskModel::sampler(c10::Device device) const {
  return std::make_unique<BendAndMixSampler>(definition_, device);
}

}  // namespace milab
