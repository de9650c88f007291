#include "engine/training_session.h"

#include <ATen/ATen.h>
#include <ATen/CPUGeneratorImpl.h>
#include <ATen/detail/CUDAHooksInterface.h>
#include <c10/core/GradMode.h>

#include <QElapsedTimer>
#include <cmath>

#include "engine/sample_set.h"
#include "nn/device_route.h"
#include "random/seed_streams.h"
#include "tasks/task.h"
#include "tasks/task_sampler.h"

namespace milab {

at::Generator estimatorGenerator(int seed) { return at::make_generator<at::CPUGeneratorImpl>(estimatorSeed(seed)); }

namespace {

std::uint64_t networkSeed(int seed, RowPart part) {
  return part.whole() ? estimatorSeed(seed) : estimatorSeed(seed, rowPartNetworkStream(part.of, part.index));
}

// A CUDA run's noise generator seeded with the raw 64-bit `seed` (the CPU generator itself on the CPU, or one of its
// own seeded alike when the CPU takes the device's route).
at::Generator deviceNoiseGeneratorSeeded(c10::Device device, std::uint64_t seed, const at::Generator& cpu) {
  if (device.is_cpu()) return cpuTakesDeviceRoute() ? at::make_generator<at::CPUGeneratorImpl>(seed) : cpu;
  if (!device.is_cuda()) throw std::invalid_argument("device: only cpu and cuda are supported");
  // Through ATen's CUDA hooks, so this compiles against a CPU-only LibTorch too (there it is never reached).
  at::Generator gen = at::detail::getCUDAHooks().getDefaultCUDAGenerator(device.index()).clone();
  gen.set_current_seed(seed);
  return gen;
}

}  // namespace

at::Generator deviceNoiseGenerator(c10::Device device, int seed, const at::Generator& cpu) {
  return deviceNoiseGeneratorSeeded(device, estimatorSeed(seed), cpu);
}

TrainingSession::TrainingSession(const RunSpec& spec, const MethodPlugin& method, const TaskModel& task,
                                 c10::Device device, std::function<bool()> cancelled, bool permuteY, RowPart part)
    : oracle_(usesOracleCritic(spec.methodParams)),
      sampleSet_(spec.finiteSamples() ? std::make_unique<SampleSet>(
                                            *task.sampler(device), spec.samples, spec.testFraction, spec.seed, permuteY,
                                            columnTransformNamed(spec.transform),
                                            !permuteY && !method.info().readsHeavyTails, part)  // twin: no warning
                                      : nullptr),
      sampler_(std::make_unique<SwitchableSampler>(sampleSet_ ? sampleSet_->trainingSampler() : task.sampler(device))) {
  context_.task = sampler_.get();  // the estimator keeps reading the sampler through this, across switchTask
  context_.device = device;
  context_.generator = at::make_generator<at::CPUGeneratorImpl>(networkSeed(spec.seed, part));
  context_.noise = deviceNoiseGeneratorSeeded(device, networkSeed(spec.seed, part), context_.generator);
  context_.params = spec.methodParams;
  context_.cancelled = std::move(cancelled);
  c10::GradMode::set_enabled(true);  // worker threads start with torch's default, stated for clarity
  readings_ = std::make_unique<ReadingStream>(context_.generator, context_.noise, spec.seed);
  estimator_ = method.create(context_);
}

TrainingSession::~TrainingSession() = default;

void TrainingSession::switchTask(const TaskModel& task) { sampler_->replace(task.sampler(context_.device)); }

StepResult TrainingSession::step() {
  const Batch batch = sampler_->sampleJoint(estimator_->batchSize(), context_.noise);
  if (!oracle_) return estimator_->trainStep(batch);
  c10::NoGradGuard noGrad;
  const double v = estimator_->evaluate(batch).value;
  return {v, -v};
}

TrainingOutcome TrainingSession::train(int steps, const std::function<bool(int)>& beforeStep,
                                       const std::function<void(const StepNumbers&)>& afterStep, int syncEvery) {
  // How long readings may wait on the device: long enough that a fast GPU step loop syncs ~20 times a second, short
  // enough that a live curve and a divergence are seen at once.
  constexpr qint64 kDrainNanoseconds = 50'000'000;
  constexpr int kMaxPending = 256;
  TrainingOutcome out;
  QElapsedTimer clock;
  clock.start();
  qint64 lastDrain = 0;
  PendingSteps pending;
  auto drain = [&] {
    out.error = pending.drain(afterStep);
    lastDrain = clock.nsecsElapsed();
    return out.error.isEmpty();
  };
  try {
    for (int step = 1; step <= steps; ++step) {
      if (context_.cancelled()) {
        out.cancelled = drain();  // a divergence before the cancel is what ended the run
        return out;
      }
      if (syncEvery > 0 && step > 1 && (step - 1) % syncEvery == 0 && !drain()) return out;
      if (beforeStep && !beforeStep(step)) break;
      pending.add(step, this->step(), clock.nsecsElapsed() * 1e-9);  // the member, not the loop counter
      if ((pending.size() >= kMaxPending || clock.nsecsElapsed() - lastDrain >= kDrainNanoseconds) && !drain())
        return out;
    }
    drain();
  } catch (...) {
    // A step after a divergence may throw on its NaNs (multinomial does): the divergence is the reason to report.
    if (!drain()) return out;
    throw;
  }
  return out;
}

Evaluation TrainingSession::evaluate() {
  c10::NoGradGuard noGrad;
  return estimator_->evaluate(sampler_->sampleJoint(estimator_->evaluationBatchSize(), context_.noise));
}

Evaluation TrainingSession::evaluate(const Batch& batch) {
  c10::NoGradGuard noGrad;
  return readings_->around([&] { return estimator_->evaluate(batch); });
}

Evaluation TrainingSession::evaluateWhole(const Batch& heldOut) {
  c10::NoGradGuard noGrad;
  return readings_->around([&] { return estimator_->evaluateWhole(heldOut); });
}

}  // namespace milab
