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

#include "engine/sample_set_part.h"
#include "tasks/task_sampler.h"

namespace milab {

// Rows start .. start + length - 1 of every tensor of `b` (views; an undefined x' stays undefined).
Batch sliceRows(const Batch& b, int64_t start, int64_t length);

// The `samples` joint rows of a finite set, before standardisation: drawn from `law` by a generator seeded by `seed`
// alone (SampleSet's draw, and what `milab-cli sample` writes).
Batch drawSampleRows(const TaskSampler& law, int64_t samples, int seed);

// A map applied to every column before standardisation (RunSpec::transform). Each is invertible per column, and
// MI is unchanged by invertible maps of x and of y, so the truth stays; what changes is how far a heavy tail
// reaches: asinh grows like a logarithm, ranks replace each value by the standard normal quantile of its rank
// (a Gaussian copula: every column N(0, 1) whatever its law; ties broken at random, which loses nothing).
// HeavyTailAsinh ("tails") takes asinh only where a column's tails are heavy (heavyTailedColumns) and leaves the
// others as drawn, so a table without heavy tails reads as it would with none.
enum class ColumnTransform { None, Asinh, Ranks, HeavyTailAsinh };
ColumnTransform columnTransformNamed(const QString& name);  // "none", "asinh", "ranks", "tails"
at::Tensor transformedColumns(const at::Tensor& t, ColumnTransform transform);

// A column's tails are heavy when its excess kurtosis over all rows (population moments) exceeds 10. Why 10: a
// Gaussian column's reads 0 +- 0.1 at 2,500 rows; the Beyond-Normal suite's heaviest light-tailed columns (half_cube,
// 2.9) read at most 4.4 at 5,000 rows; Student-t of 4 degrees or fewer has no fourth moment, so its sample kurtosis
// grows with N (dof 3: 6.7-788 per column at 5,000 rows, seeds 1-3; dof 1-2: 40 and above). One bool per column.
at::Tensor heavyTailedColumns(const at::Tensor& t);

class SampleSet {
 public:
  // Draws `samples` rows from `law` (on its device) and splits off round(samples * testFraction) held-out rows.
  // permuteY: y's rows permuted once (seeded) before the split, so that x and y are independent: the permutation
  // baseline, what an estimator reads on data with no dependence left, its honest zero.
  // countHeavyTails: count the heavy-tailed columns of the rows as drawn (heavyTails()) whatever the transform; the
  // "tails" transform counts them anyway. Off by default: it reads every value once more, in double.
  // A law that draws its held-out rows apart (TaskSampler::drawsHeldOutApart: real items in finite pools) keeps them
  // apart: y's permutation and a part's rows are chosen within the training rows and within the held-out rows.
  SampleSet(const TaskSampler& law, int64_t samples, double testFraction, int seed, bool permuteY = false,
            ColumnTransform transform = ColumnTransform::None, bool countHeavyTails = false, RowPart part = {});

  int64_t trainingRows() const { return train_.x.size(0); }
  int64_t heldOutRows() const { return heldOut_.x.size(0); }
  const Batch& training() const { return train_; }
  const Batch& heldOut() const { return heldOut_; }
  // Which columns the transform mapped, when it chose them ("tails"): e.g. "transform tails: asinh on x's 4 of 4
  // columns, y's 2 of 2 (excess kurtosis above 10)"; empty for the other transforms.
  const QString& transformNote() const { return transformNote_; }
  // The heavy-tailed columns of the rows as drawn, when they were counted and there is at least one: e.g. "x's 4 of
  // 4 columns, y's 2 of 2"; empty otherwise.
  const QString& heavyTails() const { return heavyTails_; }
  // Every row, training and held-out (what an estimator with nothing to train reads: KSG).
  Batch all() const;
  // A TaskSampler whose joint samples are distinct rows of the training part: what the estimator trains on. It
  // offers no capability (a finite set has no p(y|x'), PMI or density).
  std::unique_ptr<TaskSampler> trainingSampler() const;

 private:
  Batch train_, heldOut_;
  QString transformNote_, heavyTails_;
};

}  // namespace milab
