// mmg's recipe and plugin (mmg_method.h says what it estimates and how).
#include "mmg_method.h"

#include <memory>

#include "log_snr_draws.h"
#include "diffusion_method.h"
#include "reading_cap.h"

namespace milab {

DiffusionRecipe mmgRecipe(const MmgOptions& o) {
  DiffusionRecipe r;
  r.schedule = std::make_shared<LogisticLogSnr>(o.range);
  r.network = {o.batch, o.hidden, o.layers, o.lr, o.ema, o.draws, o.oracle};
  r.dropout = o.dropout;
  r.lossFactor = 0.5;  // 1/2 the integral of the error over g, as the reading
  r.weighLoss = true;  // by 1 / q(g): uniform in g, as the reading is
  r.second = DiffusionRecipe::SecondForm::errorGap;
  r.readsSecond = !o.orthogonal;
  r.orthogonalName = QStringLiteral("I-MMSE, orthogonal form (never negative)");
  r.secondName = QStringLiteral("I-MMSE, difference of the errors");
  r.oracleName = QStringLiteral("I-MMSE of the exact MMSEs (Monte Carlo)");
  r.exactName = QStringLiteral("the same integral over the g range, exactly");
  return r;
}

MethodInfo MmgPlugin::info() const {
  return diffusionMethodInfo(
      "mmg", "MMG (diffusion I-MMSE)",
      "one denoiser of x noised at log-SNR g, trained with y dropped on a share of the rows; reads 1/2 the integral "
      "over g of the squared gap between its guesses with and without y (I-MMSE's orthogonal form; form difference: of "
      "the gap between its errors), on held-out rows. Neither bound",
      mmgParamSpecs());
}

QList<Ceiling> MmgPlugin::ceilingsOn(const ParamMap& params, const TaskModel& task) const {
  return readingCapOn(mmgOptions(params).range.capPerDirection(), task, readingLimits(params, task).high);
}

QString MmgPlugin::validate(const ParamMap& params, const TaskInfo& task, const ParamMap&) const {
  return diffusionOracleRefusal(mmgOptions(params).oracle, "mmg", "exact Gaussian MMSEs", task);
}

MemoryNeed MmgPlugin::memoryNeed(const ParamMap& params, const TaskInfo&, const ParamMap&) const {
  const MmgOptions o = mmgOptions(params);
  return diffusionMemoryNeed(o.batch, o.draws, double(o.hidden), o.layers, "denoiser");
}

std::unique_ptr<Estimator> MmgPlugin::create(const EstimatorContext& context) const {
  return std::make_unique<DiffusionEstimator>(context, mmgRecipe(mmgOptions(context.params)));
}

}  // namespace milab
