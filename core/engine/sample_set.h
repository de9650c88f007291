#pragma once
// The field's finite-sample protocol (Czyz et al. 2023, bmi's neural estimators): N joint samples drawn once per
// seed, each variable standardised over all N (as bmi does, before the split), then split into a training part and
// a held-out part. Training draws minibatches of distinct rows from the training part only; the held-out part is
// read in consecutive batches, never trained on. The draw uses a generator of its own seeded by the run's seed
// alone, so every method given the same task, N and seed reads the same samples. Torch header: engine only.
#include <ATen/core/Generator.h>
#include <ATen/core/Tensor.h>

#include <QString>
#include <memory>

#include "tasks/task_sampler.h"

namespace milab {

// The `samples` joint rows of a finite set, before standardisation: drawn from `law` by a generator seeded by `seed`
// alone (SampleSet's draw, and what `milab-cli sample` writes).
Batch drawSampleRows(const TaskSampler& law, int64_t samples, int seed);

// A map applied to every column before standardisation (RunSpec::transform). Each is invertible per column, and
// MI is unchanged by invertible maps of x and of y, so the truth stays; what changes is how far a heavy tail
// reaches: asinh grows like a logarithm, ranks replace each value by the standard normal quantile of its rank
// (a Gaussian copula: every column N(0, 1) whatever its law; ties broken at random, which loses nothing).
enum class ColumnTransform { None, Asinh, Ranks };
ColumnTransform columnTransformNamed(const QString& name);  // "none", "asinh", "ranks"
at::Tensor transformedColumns(const at::Tensor& t, ColumnTransform transform);

class SampleSet {
 public:
  // Draws `samples` rows from `law` (on its device) and splits off round(samples * testFraction) held-out rows.
  // permuteY: y's rows permuted once (seeded) before the split, so that x and y are independent: the permutation
  // baseline, what an estimator reads on data with no dependence left, its honest zero.
  SampleSet(const TaskSampler& law, int64_t samples, double testFraction, int seed, bool permuteY = false,
            ColumnTransform transform = ColumnTransform::None);

  int64_t trainingRows() const { return train_.x.size(0); }
  int64_t heldOutRows() const { return heldOut_.x.size(0); }
  const Batch& training() const { return train_; }
  const Batch& heldOut() const { return heldOut_; }
  // Every row, training and held-out (what an estimator with nothing to train reads: KSG).
  Batch all() const;
  // Held-out batch i of `size` rows (rows i*size .. (i+1)*size - 1); there are heldOutRows() / size of them.
  Batch heldOutBatch(int64_t i, int64_t size) const;
  // A TaskSampler whose joint samples are distinct rows of the training part: what the estimator trains on. It
  // offers no capability (a finite set has no p(y|x'), PMI or density).
  std::unique_ptr<TaskSampler> trainingSampler() const;

 private:
  Batch train_, heldOut_;
};

}  // namespace milab
