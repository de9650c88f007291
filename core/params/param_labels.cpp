#include "params/param_labels.h"

#include <QHash>

namespace milab {

ParamWords wordsFor(const QString& key) {
  static const QHash<QString, ParamWords> words{
      // tasks
      {"dim", {"dimension d", "per variable"}},
      {"mi", {"total MI", "nats"}},
      {"alpha", {"alpha", ""}},  // gaussian3's split; its spec sets the label
      {"cubic", {"cubic y -> y^3", ""}},
      {"mi_schedule", {"MI staircase levels", "nats"}},
      {"steps_per_level", {"steps per level", "steps"}},
      {"level_tail", {"level tail (statistics)", "steps"}},
      {"file", {"data file", ""}},  // task data
      {"x_columns", {"columns of x", "from 0"}},
      {"y_columns", {"columns of y", "from 0"}},
      {"xp_columns", {"columns of x'", "from 0"}},
      {"header", {"header line", ""}},
      {"base", {"base distribution", ""}},  // task beyond-normal
      {"dim_x", {"dimension of x", ""}},
      {"dim_y", {"dimension of y", ""}},
      {"off_diag", {"correlation (dense)", ""}},
      {"n_interacting", {"interacting pairs", ""}},
      {"strength", {"shared latent's weight", ""}},
      {"dof", {"degrees of freedom", ""}},
      {"correlation", {"correlation (1 v 1)", ""}},
      {"epsilon", {"noise half-width", ""}},
      {"transforms", {"transform chain", ""}},
      {"sources", {"sources (fair bits)", "bits"}},  // the class channel
      {"crossover", {"channel crossover p", ""}},
      {"classes", {"the two classes", ""}},
      {"topics", {"the two topics", ""}},
      {"side", {"item side", "pixels"}},
      {"features", {"hashed TF-IDF columns", "per text"}},
      // run settings
      {"steps", {"training steps", "steps"}},
      {"seed", {"seed", ""}},
      {"device", {"device", ""}},
      {"eval_batches", {"evaluation batches", "batches"}},
      // critics and contrastive bounds
      {"K", {"contrastive set size K", "samples"}},
      {"lr", {"learning rate", ""}},
      {"hidden", {"hidden units", "units"}},
      {"embed", {"embedding width", "units"}},
      {"critic", {"critic", ""}},
      {"negatives", {"marginal pairs", ""}},     // f-DIME
      {"depth", {"coupling layers", "layers"}},  // flow-mi
      {"width", {"coupling width", "units"}},
      {"protocol", {"evaluation protocol", ""}},
      {"M", {"SIR pool size M", "samples"}},
      {"momentum", {"moving-average momentum", ""}},
      {"queue", {"MoCo queue of negatives", "keys"}},
      {"tau", {"SMILE clip tau", "nats"}},
      {"nce_weight", {"I_alpha weight alpha", ""}},
      {"batch", {"batch size", "samples"}},
      {"noise_ratio", {"noise samples per datum", ""}},
      {"noise_scale", {"noise standard deviation", ""}},
      // density models (DoE, CLUB) and nearest neighbours (KSG)
      {"family", {"density family", ""}},
      {"k", {"neighbours k", ""}},
      {"set_size", {"samples per reading", "samples"}},
      {"samples", {"finite sample set N", "samples"}},
      {"test_fraction", {"held-out share", ""}},
      {"eval_every", {"held-out reading every", "steps"}},
      {"permutations", {"permutations of the test", ""}},
      {"early_stopping", {"early stopping", ""}},
      // discrete codes (AMMI, BMMI)
      {"bits", {"code length m", "bits"}},
      {"order_y", {"encoder order o", ""}},
      {"order_x", {"predictor order h", ""}},
      {"order_prior", {"prior order r", ""}},
      {"beta", {"entropy weight beta", ""}},
      {"prior_steps", {"prior steps per step G", "steps"}},
      {"prior_lr", {"prior learning rate", ""}},
      {"settle_steps", {"prior settling steps", "steps"}},
      {"eval_pool", {"evaluation pool", "samples"}},
      {"clip", {"gradient clip", ""}},
      // the prior-order sweep and hashing
      {"max_order", {"largest prior order", ""}},
      {"fit_steps", {"prior fit steps", "steps"}},
      {"fit_lr", {"prior fit learning rate", ""}},
      {"fixed_batch", {"fixed batch", "samples"}},
      {"train_limit", {"training images", "images"}},
      {"query_limit", {"query images", "images"}},
      {"top_k", {"neighbours ranked", "images"}},
  };
  return words.value(key, ParamWords{key, {}});
}

}  // namespace milab
