#include "tasks/task_sampler.h"

#include <ATen/ATen.h>

#include <stdexcept>
#include <string>

namespace milab {

namespace {
[[noreturn]] void lacks(const char* capability) {
  throw std::logic_error(std::string("this task offers no ") + capability +
                         " (validateRunSpec should have refused the method)");
}
}  // namespace

at::Tensor klDivergence(const DiagonalGaussian& p, const DiagonalGaussian& q) {
  return 0.5 * (q.logVar - p.logVar + (p.logVar.exp() + (p.mean - q.mean).pow(2)) * (-q.logVar).exp() - 1.0).sum(-1);
}

at::Tensor TaskSampler::sampleYGivenXp(const at::Tensor&, int64_t, at::Generator&) const { lacks("subview x'"); }
DiagonalGaussian TaskSampler::yGivenXp(const at::Tensor&) const { lacks("subview x'"); }
at::Tensor TaskSampler::pmi(const at::Tensor&, const at::Tensor&, const at::Tensor&) const { lacks("exact PMI"); }
at::Tensor TaskSampler::subviewPmi(const at::Tensor&, const at::Tensor&) const { lacks("exact PMI"); }
at::Tensor TaskSampler::logMarginalY(const at::Tensor&) const { lacks("exact density log p(y)"); }
Batch TaskSampler::sampleLabelledJoint(int64_t, at::Generator&, at::Tensor*) const { lacks("labelled images"); }

SwitchableSampler::SwitchableSampler(std::unique_ptr<TaskSampler> inner)
    : TaskSampler(inner->device()), inner_(std::move(inner)) {}

}  // namespace milab
