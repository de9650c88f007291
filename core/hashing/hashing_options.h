#pragma once
// The hashing experiment's settings: their ParamSpecs and the typed fields they are read into in one place
// (HashingOptions::from). The training keys it passes on to the method keep their names (hashing_experiment.cpp).
// Torch-free.
#include "params/param_spec.h"

namespace milab {

// corpus, features, steps, batch, lr, beta, order_prior, prior_steps, prior_lr, hidden, train_limit, query_limit,
// top_k, seed, device. The code lengths are a separate list (`bits`), and `method` names the estimator that learns
// the codes.
const ParamSpecs& hashingSpecs();

struct HashingOptions {
  QString method;  // the estimator that learns the codes
  // What is hashed: Fashion-MNIST's images (labels: their classes), or the texts of Debian's fortunes corpus as
  // `features` hashed TF-IDF columns (labels: their topics), AMMI's Table 1 on a corpus that can be had offline.
  QString corpus = "fashion-mnist";
  int features = 2048;
  int steps = 2000, orderPrior = 3;
  // Passed on to the method under their own keys (hashing_experiment.cpp); the experiment's defaults, not the
  // method's.
  int batch = 128, priorSteps = 4, hidden = 256;
  double lr = 0.001, beta = 2.0, priorLr = 0.01;
  int trainLimit = 0, queryLimit = 0;  // 0: every item
  int topK = 100, seed = 1;
  QString device = "auto";
  static HashingOptions from(const ParamMap& params);
  // What is hashed, in words: "Fashion-MNIST images" or "fortunes texts".
  QString corpusWords() const { return corpus == "fortunes" ? "fortunes texts" : "Fashion-MNIST images"; }
};

}  // namespace milab
