#pragma once
// mmg: MI as the area between two denoising errors (MMG, "Diffusion-based mutual information estimation",
// NeurIPS 2025, arXiv 2509.20609; fengsxy/Diffusion_MI). By the I-MMSE relation (Guo, Shamai and Verdu 2005),
//   I(x;y) = 1/2 integral over log-SNR g of (mmse(noise | z_g) - mmse(noise | z_g, y)),
// with z_g the x side noised at g. The lab's diffusion estimator (diffusion_estimator.h) with mmg's recipe: g drawn
// from a truncated logistic, each weighted by 1 / q(g) (log_snr_draws.h), also in training; y dropped row by row
// (`dropout`). The reading is one of the reference's two forms (`form`), the other kept as a term:
// - orthogonal (the default): E |eps(z, y) - eps(z)|^2, equal to the gap of the errors for exact denoisers by the
//   orthogonality principle. Never negative; MINDE-C reads the same form.
// - difference: the two squared errors on the same z_g, subtracted (common draws: the reference draws each error's
//   noise apart). On 25 and 50 dimensions at 5,000 rows the denoiser given y does worse on held-out rows than the
//   one without, and this form reads far below the truth where the orthogonal one does not (docs/benchmark.md).
// Only x is noised (the reference does not symmetrise). Neither a lower nor an upper bound.
#include "diffusion_estimator.h"
#include "method/method_plugin.h"
#include "mmg_options.h"

namespace milab {

DiffusionRecipe mmgRecipe(const MmgOptions& options);

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
