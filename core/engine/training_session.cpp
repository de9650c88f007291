#include "engine/training_session.h"

#include <ATen/ATen.h>
#include <ATen/CPUGeneratorImpl.h>
#include <ATen/detail/CUDAHooksInterface.h>
#include <c10/core/GradMode.h>

#include <cmath>

#include "tasks/gaussian_model.h"
#include "tasks/task_sampler.h"

namespace milab {

at::Generator estimatorGenerator(int seed) {
  return at::make_generator<at::CPUGeneratorImpl>(static_cast<uint64_t>(seed) * 7919u + 17u);
}

at::Generator deviceNoiseGenerator(c10::Device device, int seed, const at::Generator& cpu) {
  if (device.is_cpu()) return cpu;
  if (!device.is_cuda()) throw std::invalid_argument("device: only cpu and cuda are supported");
  // Through ATen's CUDA hooks, so this compiles against a CPU-only LibTorch too (there it is never reached).
  at::Generator gen = at::detail::getCUDAHooks().getDefaultCUDAGenerator(device.index()).clone();
  gen.set_current_seed(static_cast<uint64_t>(seed) * 7919u + 17u);
  return gen;
}

TrainingSession::TrainingSession(const RunSpec& spec, const MethodPlugin& method, const GaussianModel& task,
                                 c10::Device device, std::function<bool()> cancelled)
    : oracle_(usesOracleCritic(spec.methodParams)),
      sampler_(std::make_unique<TaskSampler>(task, device)) {
  context_.task = sampler_.get();  // the estimator keeps reading the sampler through this, across switchTask
  context_.device = device;
  context_.generator = estimatorGenerator(spec.seed);
  context_.noise = deviceNoiseGenerator(device, spec.seed, context_.generator);
  context_.params = spec.methodParams;
  context_.cancelled = std::move(cancelled);
  c10::GradMode::set_enabled(true);  // worker threads start with torch's default, stated for clarity
  estimator_ = method.create(context_);
}

TrainingSession::~TrainingSession() = default;

void TrainingSession::switchTask(const GaussianModel& task) { *sampler_ = TaskSampler(task, context_.device); }

StepResult TrainingSession::step() {
  const Batch batch = sampler_->sampleJoint(estimator_->batchSize(), context_.noise);
  if (!oracle_) return estimator_->trainStep(batch);
  c10::NoGradGuard noGrad;
  const double v = estimator_->evaluate(batch).value;
  return {v, -v};
}

TrainingOutcome TrainingSession::train(int steps, const std::function<void(int)>& beforeStep,
                                       const std::function<void(int, const StepResult&)>& afterStep) {
  TrainingOutcome out;
  for (int step = 1; step <= steps; ++step) {
    if (context_.cancelled()) {
      out.cancelled = true;
      return out;
    }
    if (beforeStep) beforeStep(step);
    const StepResult r = this->step();  // the member, not the loop counter
    if (!std::isfinite(r.loss) || !std::isfinite(r.estimate)) {
      out.error = QStringLiteral("training diverged: non-finite %1 at step %2")
                      .arg(std::isfinite(r.loss) ? "estimate" : "loss")
                      .arg(step);
      return out;
    }
    if (afterStep) afterStep(step, r);
  }
  return out;
}

Evaluation TrainingSession::evaluate() {
  c10::NoGradGuard noGrad;
  return estimator_->evaluate(sampler_->sampleJoint(estimator_->evaluationBatchSize(), context_.noise));
}

}  // namespace milab
