#include "bend_and_mix_task_model.h"

#include <ATen/ATen.h>
#include <ATen/CPUGeneratorImpl.h>

#include <mutex>

#include "tasks/task_sampler.h"

namespace milab {

namespace {

// Draws in float64 on the CPU, as bmi does, and hands the run float32 on its device. A CPU run draws with the run's
// own generator; on a GPU, whose generator cannot drive a CPU draw, with a CPU generator seeded once from it.
class BendAndMixSampler final : public TaskSampler {
 public:
  BendAndMixSampler(const bend_and_mix::TaskDefinition& definition, c10::Device device)
      : TaskSampler(device), definition_(definition) {}

  int dimX() const override { return definition_.mixture->dimX(); }
  int dimY() const override { return definition_.mixture->dimY(); }

  Batch sampleJoint(int64_t n, at::Generator& gen) const override {
    const Eigen::MatrixXd joint = definition_.mixture->sample(n, cpuGenerator(gen));
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

  at::Generator& cpuGenerator(at::Generator& gen) const {
    if (gen.device().is_cpu()) return gen;
    std::call_once(cpuSeeded_, [&] { cpu_ = at::make_generator<at::CPUGeneratorImpl>(gen.current_seed()); });
    return cpu_;
  }

  bend_and_mix::TaskDefinition definition_;
  mutable std::once_flag cpuSeeded_;
  mutable at::Generator cpu_;
};

}  // namespace

BendAndMixTaskModel::BendAndMixTaskModel(bend_and_mix::TaskDefinition definition)
    : definition_(std::move(definition)), truth_(bend_and_mix::cachedTruth(definition_.id, *definition_.mixture)) {}

std::unique_ptr<TaskSampler> BendAndMixTaskModel::sampler(c10::Device device) const {
  return std::make_unique<BendAndMixSampler>(definition_, device);
}

}  // namespace milab
