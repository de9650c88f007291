#pragma once
// mmg: MI as the area between two denoising errors (MMG, "Diffusion-based mutual information estimation",
// NeurIPS 2025, arXiv 2509.20609; fengsxy/Diffusion_MI). By the I-MMSE relation (Guo, Shamai and Verdu 2005),
//   I(x;y) = 1/2 integral over log-SNR g of (mmse(noise | z_g) - mmse(noise | z_g, y)),
// with z_g the x side noised at g. One denoiser (denoiser.h) learns both errors: y is dropped on a share of the
// training rows. The integral is read on held-out rows over draws of g from a truncated logistic weighted by 1 / q(g)
// (log_snr_draws.h), in one of the reference's two forms (`form`), the other kept as a term:
// - orthogonal (the default): E |eps(z, y) - eps(z)|^2, equal to the gap of the errors for exact denoisers by the
//   orthogonality principle. Never negative, so any error of the networks lifts it; MINDE-C reads the same form.
// - difference: the two squared errors on the same z_g, subtracted (common draws: the reference draws each error's
//   noise apart). On 25 and 50 dimensions at 5,000 rows the denoiser given y does worse on held-out rows than the
//   one without, and this form reads 27-69% of the truth where the orthogonal one reads 83-103% (docs/benchmark.md).
// Readings use a moving average of the weights (`ema`, denoiser_average.h). Only x is noised (the reference does
// not symmetrise). Neither a lower nor an upper bound. With critic = oracle no network is trained: the task's exact
// Gaussian MMSEs (gaussian_mmse.h) are integrated over the same draws.
#include <memory>

#include "method/estimator.h"
#include "method/method_plugin.h"
#include "mmg_options.h"

namespace milab {

class MmgEstimator final : public Estimator {
 public:
  explicit MmgEstimator(const EstimatorContext& ctx);
  ~MmgEstimator() override;

  int64_t batchSize() const override { return options_.batch; }
  StepResult trainStep(const Batch& batch) override;
  Evaluation evaluate(const Batch& batch) override;

 private:
  struct Model;
  // Per row of x (repeated `repeats` times, a fresh g and noise each): the orthogonal integrand and the difference
  // of the two errors, each already weighted by 1 / q(g) and halved.
  struct Integrands {
    at::Tensor orthogonal, difference;
    const at::Tensor& reading(bool orthogonalForm) const { return orthogonalForm ? orthogonal : difference; }
    at::Tensor loss;  // the training loss in expectation over the y-dropout (Evaluation::loss)
  };
  // Draws from `gen`: the run's own in a training step, the rows' own in a reading (reading_draws.h).
  Integrands integrands(const at::Tensor& x, const at::Tensor& y, int64_t repeats, at::Generator& gen);
  Evaluation oracleReading(int64_t rows);

  EstimatorContext ctx_;
  MmgOptions options_;
  std::unique_ptr<Model> model_;  // null for the oracle
};

class MmgPlugin : public MethodPlugin {
 public:
  MethodInfo info() const override;
  QString validate(const ParamMap& params, const TaskInfo& task, const ParamMap& taskParams) const override;
  QList<Ceiling> ceilings(const ParamMap&) const override { return {}; }
  QList<Ceiling> ceilingsOn(const ParamMap& params, const TaskModel& task) const override;  // its log-SNR range's cap
  MemoryNeed memoryNeed(const ParamMap& params, const TaskInfo& task, const ParamMap& taskParams) const override;
  std::unique_ptr<Estimator> create(const EstimatorContext& context) const override;
};

}  // namespace milab
