#pragma once
// One run's state: networks, optimisers, and the run's generator. Lives on the worker thread.
// Torch header: include it only from torch translation units, before any Qt widget header.
#include <ATen/core/Generator.h>
#include <c10/core/Device.h>

#include <QList>
#include <QString>
#include <exception>
#include <functional>
#include <limits>

#include "method/method_plugin.h"
#include "method/step_reading.h"
#include "params/param_spec.h"
#include "tasks/task_sampler.h"

namespace milab {

// Left on the run's device: the engine reads many steps' results at once (StepReading says why).
struct StepResult {
  StepReading estimate;  // the bound on this training batch (nats)
  StepReading loss;      // what the optimiser minimised
  // The parts of `estimate` when it is a sum that the curve shows one by one (a vision objective's terms), named as
  // the evaluation's terms are; empty for most methods.
  struct NamedReading {
    QString name;
    StepReading reading;
  };
  std::vector<NamedReading> terms;
};

struct Evaluation {
  double value = 0;   // the bound on this batch (nats)
  QList<Term> terms;  // its parts, when the bound is a sum
  // What training minimises, on this batch, for a method that selects by it (MethodInfo::selectsByHeldOutLoss);
  // NaN for every other.
  double loss = std::numeric_limits<double>::quiet_NaN();
};

// The run's own generator, seeded apart from the task's construction so that changing a method never changes
// the task. Everything that trains an estimator for a spec seeds it here, so the same spec gives the same networks.
at::Generator estimatorGenerator(int seed);
// The generator a run draws its samples with on `device` (EstimatorContext::noise): `cpu` itself on the CPU.
at::Generator deviceNoiseGenerator(c10::Device device, int seed, const at::Generator& cpu);

struct EstimatorContext {
  const TaskSampler* task = nullptr;
  c10::Device device = c10::Device(c10::kCPU);
  at::Generator generator;  // the run's own: networks' init, negatives, everything random on the CPU
  // What samples are drawn with, on the run's device (TaskSampler draws where its generator lives): `generator`
  // itself on the CPU, so a CPU run's numbers are exactly what they always were; on a GPU one of that device, seeded
  // from the run's seed, so noise is made there instead of drawn on the CPU and copied over each step.
  at::Generator noise;
  ParamMap params;          // validated, defaults filled
  // True once the run was asked to stop: a step or an evaluation that can take longer than ~100 ms polls it
  // and throws EstimatorCancelled, which ends the run as cancelled (not failed). Never null inside a run.
  std::function<bool()> cancelled = [] { return false; };
};

// Thrown from inside a long step or evaluation when ctx.cancelled() turned true.
struct EstimatorCancelled : std::exception {
  const char* what() const noexcept override { return "cancelled"; }
};

class Estimator {
 public:
  virtual ~Estimator() = default;
  // Joint samples the engine draws per step and per evaluation batch.
  virtual int64_t batchSize() const = 0;
  // Joint samples per evaluation batch, when a method's final reading needs more than a training batch.
  virtual int64_t evaluationBatchSize() const { return batchSize(); }
  // One optimisation step on a fresh joint batch (never called for an oracle: see usesOracleCritic).
  virtual StepResult trainStep(const Batch& batch) = 0;
  // The bound on a fresh batch, without gradients.
  virtual Evaluation evaluate(const Batch& batch) = 0;
  // The bound on a whole held-out part at once (held_out = whole, MethodInfo::readsWholeHeldOut): evaluate() on it,
  // unless the bound reads it as bmi does (NWJ and DV on every off-diagonal pair in blocks, MINE on one permutation).
  virtual Evaluation evaluateWhole(const Batch& heldOut) { return evaluate(heldOut); }
};

}  // namespace milab
