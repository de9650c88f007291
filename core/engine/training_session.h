#pragma once
// One estimator trained on one task: its device, sampler, generator and the step loop with its cancel and
// divergence checks. Everything that trains an estimator for a RunSpec goes through it (Run, for its curve; the
// prior-order sweep, for the encoder it then freezes), so the same spec always trains the same networks.
// Torch header: engine translation units only.
#include <QString>
#include <functional>
#include <memory>

#include "engine/pending_steps.h"
#include "engine/reading_stream.h"
#include "engine/run_spec.h"
#include "engine/sample_set_part.h"
#include "method/estimator.h"

namespace milab {

class SampleSet;
class SwitchableSampler;
class TaskModel;

struct TrainingOutcome {
  bool cancelled = false;  // stopped before `steps` (cancel was polled before each step)
  QString error;           // non-empty: a non-finite loss or estimate ended training, e.g. "... at step 12"
};

class TrainingSession {
 public:
  // Builds the estimator of `spec` (validated) on `task`, on `device` (resolved), with the spec's generator.
  // `task` must outlive the session; `cancelled` is what long steps poll (EstimatorContext::cancelled).
  // permuteY: a finite sample set's y rows permuted (the permutation baseline, engine/sample_set.h).
  // part: one of a finite set's disjoint parts (engine/sample_set.h), its networks from a stream of their own.
  TrainingSession(const RunSpec& spec, const MethodPlugin& method, const TaskModel& task, c10::Device device,
                  std::function<bool()> cancelled, bool permuteY = false, RowPart part = {});
  ~TrainingSession();

  Estimator& estimator() { return *estimator_; }
  // The staircase's next level: the same estimator now reads samples of another law.
  void switchTask(const TaskModel& task);

  // Steps 1..steps: `beforeStep(step)` (may be empty) runs before each and ends training (as finished) when it
  // returns false; `afterStep` sees each finite step's numbers, in order but in bulk, when the readings reach the host
  // (every 50 ms or 256 steps, before each step after a multiple of `syncEvery` (0: never), and before returning or
  // throwing), so that no step waits for the one before it to finish on the device.
  TrainingOutcome train(int steps, const std::function<bool(int)>& beforeStep,
                        const std::function<void(const StepNumbers&)>& afterStep, int syncEvery = 0);
  // One evaluation batch of fresh samples, without gradients: after training, the data stream's next samples.
  Evaluation evaluate();
  // The bound on given samples (a held-out batch of the finite set), without gradients, on the reading's own stream
  // (engine/reading_stream.h): however often a run reads, it trains the same networks.
  Evaluation evaluate(const Batch& batch);
  Evaluation evaluateWhole(const Batch& heldOut);  // the estimator's evaluateWhole, likewise
  // The finite sample set the estimator trains on (RunSpec::samples > 0), else null.
  const SampleSet* sampleSet() const { return sampleSet_.get(); }
  // Fresh joint samples from the session's generator (the sweep's fixed batch), and the generator itself.
  Batch sampleJoint(int64_t n) { return sampler_->sampleJoint(n, context_.noise); }
  at::Generator& generator() { return context_.generator; }

 private:
  // One step on a fresh batch. An oracle learns nothing: its step is one more evaluation, reported as its loss too.
  StepResult step();

  bool oracle_;
  std::unique_ptr<SampleSet> sampleSet_;
  std::unique_ptr<SwitchableSampler> sampler_;
  EstimatorContext context_;
  std::unique_ptr<ReadingStream> readings_;
  std::unique_ptr<Estimator> estimator_;
};

}  // namespace milab
