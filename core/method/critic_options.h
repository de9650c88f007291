#pragma once
// Parameters every critic-based contrastive method declares (the DEMI paper's synthetic settings as defaults), and
// the typed options they are read into (CriticOptions::from: the one reader of them by key). Torch-free.
#include "method/method_plugin.h"
#include "params/param_spec.h"

namespace milab {

// K (contrastive set size), lr (Adam), hidden (units of the one hidden ReLU layer), embed (output size),
// critic (learned, or oracle: the task's analytic PMI, the best the bound can do at this K).
ParamSpecs criticParamSpecs(int minK);

// The score-matrix methods' (InfoNCE, NWJ, MINE, JS, SMILE, local-NCE; TUBA and interpolated, whose estimator adds
// a learned baseline) critic settings: criticParamSpecs with a
// third critic, joint (one MLP on [x, y] over all pairs: bmi's and f-DIME's, nn/joint_critic.h), and `layers`, its
// hidden widths (bmi's 16,8). learned stays the default: the DEMI paper's separable f(x) . g(y).
ParamSpecs scoreMatrixCriticSpecs(int minK);
// "" or one line naming `layers` and what it takes: one to kMaxCriticLayers integer widths in [1, kMaxLayerWidth].
// (A ParamSpec checks each number's range; whether each is whole, and how many, is checked here.)
QString checkCriticLayers(const ParamMap& params);
inline constexpr int kMaxCriticLayers = 8, kMaxLayerWidth = 4096;

// Those settings as typed fields, read from a validated ParamMap in one place. A family with further keys (smile's
// tau, interpolated's nce_weight, DEMI's protocol) reads those in its own options file.
struct CriticOptions {
  int K = 128;
  double lr = 5e-4;
  int hidden = 100, embed = 100;
  bool oracle = false;  // critic = oracle: the task's analytic PMI, nothing trained
  bool joint = false;   // critic = joint: one MLP on [x, y] of `layers` hidden widths, over all pairs
  QList<int> layers{16, 8};  // the joint critic's hidden widths (bmi's)
  static CriticOptions from(const ParamMap& params);
};

// The MethodInfo of a critic-based method: its identity and criticParamSpecs(minK); add extras to .params.
MethodInfo criticMethodInfo(const QString& id, const QString& displayName, const QString& family,
                            const QString& summary, int minK = 2);
// The same with scoreMatrixCriticSpecs (the methods whose estimator is ScoreMatrixEstimator).
MethodInfo scoreMatrixMethodInfo(const QString& id, const QString& displayName, const QString& family,
                                 const QString& summary, int minK = 2);

}  // namespace milab
