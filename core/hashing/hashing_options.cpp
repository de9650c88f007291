#include "hashing/hashing_options.h"

#include "data/fashion_mnist.h"

namespace milab {

const ParamSpecs& hashingSpecs() {
  const HashingOptions d;
  static const ParamSpecs specs{
      ParamSpec::choice("corpus", {"fashion-mnist", "fortunes"}, d.corpus,
                        "what is hashed: Fashion-MNIST's images, or the fortunes corpus's texts (by topic)"),
      ParamSpec::integer("features", d.features, 8, 65536, "hashed TF-IDF columns a text (corpus fortunes)"),
      ParamSpec::integer("steps", d.steps, 1, 10000000, "AMMI training steps per code length"),
      ParamSpec::integer("batch", d.batch, 2, 65536, "items per AMMI step"),
      ParamSpec::real("lr", d.lr, 0.0, 1.0, "Adam learning rate of the encoder", true, false),
      ParamSpec::real("beta", d.beta, 0.0, 100.0, "entropy weight: the loss is H(Z|Y) - beta H+(Z)"),
      ParamSpec::integer("order_prior", d.orderPrior, 0, 12, "Markov order r of the prior q(z)"),
      ParamSpec::integer("prior_steps", d.priorSteps, 1, 100, "G: Adam steps on the prior per step"),
      ParamSpec::real("prior_lr", d.priorLr, 0.0, 1.0, "learning rate of the prior's steps", true, false),
      ParamSpec::integer("hidden", d.hidden, 1, 8192, "hidden ReLU units of the encoder MLP"),
      ParamSpec::integer("train_limit", d.trainLimit, 0, kFashionMnistTrainImages,
                         "training items used (0: all; Fashion-MNIST's first, or an even spread of the texts)"),
      ParamSpec::integer("query_limit", d.queryLimit, 0, 10000, "held-out items used as queries (0: all)"),
      ParamSpec::integer("top_k", d.topK, 1, kFashionMnistTrainImages,
                         "neighbours retrieved per query (at most the corpus's training items)"),
      ParamSpec::integer("seed", d.seed, 0, 2147483647, "seed of the encoder, the batches and the projections"),
      ParamSpec::choice("device", {"auto", "cpu", "cuda"}, d.device, "where AMMI trains"),
  };
  return specs;
}

HashingOptions HashingOptions::from(const ParamMap& params) {
  HashingOptions o;
  o.method = params.value("method").toString();
  o.corpus = params.value("corpus").toString();
  o.features = params.value("features").toInt();
  o.steps = params.value("steps").toInt();
  o.batch = params.value("batch").toInt();
  o.lr = params.value("lr").toDouble();
  o.beta = params.value("beta").toDouble();
  o.priorSteps = params.value("prior_steps").toInt();
  o.priorLr = params.value("prior_lr").toDouble();
  o.hidden = params.value("hidden").toInt();
  o.orderPrior = params.value("order_prior").toInt();
  o.trainLimit = params.value("train_limit").toInt();
  o.queryLimit = params.value("query_limit").toInt();
  o.topK = params.value("top_k").toInt();
  o.seed = params.value("seed").toInt();
  o.device = params.value("device").toString();
  return o;
}

}  // namespace milab
