#pragma once
// The settings of ammi and bmmi: their ParamSpecs, the typed options read from a validated ParamMap in one place
// (MarkovMiOptions::from, in the manner of LibTorch's options structs: the only reader of the family's ParamMap by
// key), the cross-field checks, and the peak memory a run with them takes.
#include <QString>
#include <cstdint>

#include "method/memory_need.h"
#include "params/param_spec.h"

namespace milab {

// bits, order_y, order_x, predictor, [order_prior, prior_steps, prior_lr, settle_steps,] beta, lr, hidden, batch,
// clip, eval_pool.
ParamSpecs markovMiParamSpecs(bool learnedPrior);

struct MarkovMiOptions {
  bool learnedPrior = true;  // ammi (a learned prior of order r) or bmmi (the exact entropy by enumeration)
  int bits = 8, orderY = 0, orderX = 0;
  bool selfPredicting = false;  // predictor = encoder: X = Y, no predictor network
  int priorOrder = 0;           // r: order_prior, or when null max(o, min(bits - 1, 11)); ammi only
  int priorSteps = 4, settleSteps = 300;  // ammi only, like priorLr
  double priorLr = 0.01;
  double beta = 2, lr = 0.01, clip = 10;
  int hidden = 100, batch = 128;
  int evalPool = 512;                       // as given; evaluationPool() resolves bmmi's automatic 0, its default
  static constexpr int kAutomaticPool = 0;  // bmmi: min(2048, max(batch, 2^23 / 2^bits))

  static MarkovMiOptions from(const ParamMap& params, bool learnedPrior);
  // Samples per evaluation batch: eval_pool, or bmmi's automatic pool when it is 0.
  int64_t evaluationPool() const;
};

// The peak memory of a run with these settings, and the setting that drives it (method/memory_need.h).
MemoryNeed markovMiMemoryNeed(const MarkovMiOptions& options);
// h >= o, r >= o, orders <= m; bmmi: m <= 16. "" or the error line naming the field.
QString validateMarkovMi(const QString& id, const MarkovMiOptions& options);

}  // namespace milab
