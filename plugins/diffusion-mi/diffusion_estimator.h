#pragma once
// The lab's one diffusion estimator, which mmg and minde-c configure (mmg_method.h, minde_method.h). Both read MI as
// 1/2 the integral over log-SNR g of E |eps(z_g, y) - eps(z_g)|^2, the gap between one denoiser's guesses of the
// noise in z_g (x noised at g) with y and without it (I-MMSE's orthogonal form, Guo, Shamai and Verdu 2005; MINDE's
// Girsanov form is the same integrand over the VP-SDE's times). For exact denoisers it is the gap of their errors,
// and it is never negative, so any error of the network lifts it. What tells the two apart is a DiffusionRecipe:
// the noise schedule (noise_schedule.h), how y is dropped in training and how the loss is scaled, and the second
// form reported beside the reading. Readings are on held-out rows, `draws` g per row, from a moving average of the
// weights (denoiser_average.h), with draws of their own (reading_draws.h). With critic = oracle no network is
// trained: the task's exact Gaussian MMSEs (gaussian_mmse.h) are integrated over the same draws.
#include <QString>
#include <memory>

#include "denoiser.h"
#include "method/estimator.h"
#include "noise_schedule.h"

namespace milab {

struct DiffusionRecipe {
  std::shared_ptr<const NoiseSchedule> schedule;
  struct Network {
    int64_t batch = 0, hidden = 0, layers = 0;
    double lr = 0, ema = 0;
    int64_t draws = 0;  // g per held-out row in a reading
    bool oracle = false;
  } network;
  // Training: a share `dropout` of y dropped, row by row or for the whole batch at once (MINDE's one mask a
  // batch); the loss lossFactor x mean over rows of (weighLoss ? the draw's weight : 1) x |noise - eps|^2.
  double dropout = 0;
  bool dropWholeBatch = false;
  double lossFactor = 0;
  bool weighLoss = false;
  // The second form, reported beside the orthogonal one (weights as the reading's):
  // errorGap, 1/2 (|noise - eps(z)|^2 - |noise - eps(z, y)|^2), I-MMSE as written (mmg's `form difference`);
  // againstUnitGaussian, 1/2 (|eps(z, y) - e|^2 - |eps(z) - e|^2) with e = sqrt(sigmoid(-g)) z the noise a unit
  // Gaussian's denoiser would guess (MINDE's sigma variant).
  enum class SecondForm { errorGap, againstUnitGaussian } second = SecondForm::errorGap;
  bool readsSecond = false;  // the reading is the second form (mmg's `form difference`)
  // The terms' names, as runs and the window show them; the oracle's: its Monte Carlo value and the exact one.
  QString orthogonalName, secondName, oracleName, exactName;
};

// The training loss on fixed draws: lossFactor x mean over rows of (weighLoss ? the draw's weight : 1) x
// |noise - denoiser(z_g, level, y, keep)|^2 with z_g = noisedAt(x, g, noise) (log_snr_draws.h).
at::Tensor denoisingLoss(Denoiser& denoiser, const at::Tensor& x, const at::Tensor& y, const NoiseDraws& draws,
                         const at::Tensor& noise, const at::Tensor& keep, const DiffusionRecipe& recipe);

class DiffusionEstimator final : public Estimator {
 public:
  DiffusionEstimator(const EstimatorContext& ctx, DiffusionRecipe recipe);
  ~DiffusionEstimator() override;

  int64_t batchSize() const override { return recipe_.network.batch; }
  StepResult trainStep(const Batch& batch) override;
  Evaluation evaluate(const Batch& batch) override;

 private:
  struct Model;
  // Per row of x (repeated `repeats` times, a fresh g and noise each), already weighted as the reading: both forms,
  // and the training loss in expectation over the y-dropout (Evaluation::loss).
  struct Integrands {
    at::Tensor orthogonal, second, loss;
    const at::Tensor& reading(bool second) const;
  };
  // Draws from `gen`: the run's own in a training step, the rows' own in a reading (reading_draws.h).
  Integrands integrands(const at::Tensor& x, const at::Tensor& y, int64_t repeats, at::Generator& gen);
  Evaluation oracleReading(int64_t rows);

  EstimatorContext ctx_;
  DiffusionRecipe recipe_;
  std::unique_ptr<Model> model_;  // null for the oracle
};

}  // namespace milab
