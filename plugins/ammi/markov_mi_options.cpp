#include "ammi/markov_mi_options.h"

#include <algorithm>
#include <cmath>

#include "markov/enumeration.h"

namespace milab {

MarkovMiOptions MarkovMiOptions::from(const ParamMap& params, bool learnedPrior) {
  MarkovMiOptions o;
  o.learnedPrior = learnedPrior;
  o.bits = params.value("bits").toInt();
  o.orderY = params.value("order_y").toInt();
  o.orderX = params.value("order_x").toInt();
  o.selfPredicting = params.value("predictor").toString() == "encoder";
  if (learnedPrior) {
    // order_prior null (the default): max(o, min(bits - 1, 11)), the measured rule (markovMiParamSpecs).
    const QVariant r = params.value("order_prior");
    o.priorOrder = !r.isNull() ? r.toInt() : std::max(o.orderY, std::min(o.bits - 1, 11));
    o.priorSteps = params.value("prior_steps").toInt();
    o.priorLr = params.value("prior_lr").toDouble();
    o.settleSteps = params.value("settle_steps").toInt();
  }
  o.beta = params.value("beta").toDouble();
  o.lr = params.value("lr").toDouble();
  o.hidden = params.value("hidden").toInt();
  o.batch = params.value("batch").toInt();
  o.clip = params.value("clip").toDouble();
  o.evalPool = params.value("eval_pool").toInt();
  return o;
}

int64_t MarkovMiOptions::evaluationPool() const {
  const int64_t pool = evalPool;
  if (learnedPrior || pool > 0) return pool;
  // bmmi's automatic pool: up to 2048 samples while the [pool, 2^m] table stays under 2^23 entries (seconds per
  // evaluation batch at m = 16), never fewer than a training batch.
  const int64_t fits = (int64_t{1} << 23) >> bits;
  return std::min<int64_t>(2048, std::max<int64_t>(batch, fits));
}

MemoryNeed markovMiMemoryNeed(const MarkovMiOptions& o) {
  const bool learnedPrior = o.learnedPrior;
  // Fitted to peak memory measured on one step and its evaluation (docs/user-guide.md, "Memory is checked";
  // docs/speed.md, "Memory"): the order-r dynamic programming holds about 8 floats per (sample, bit, window) for
  // the evaluation pool and twice that per training sample (autograd). The MLPs' activations add about 16 bytes per
  // (batch row, hidden unit).
  const double bits = o.bits, batch = o.batch;
  const double hidden = o.hidden, pool = double(o.evaluationPool());
  const int order = learnedPrior ? o.priorOrder : o.orderX;
  const double windows = bits * std::ldexp(1.0, order), dynamic = 32 * windows * (pool + 2 * batch);
  const double networks = 16 * batch * hidden;
  MemoryNeed need{2e8 + dynamic + networks, {}, {}, {}};
  if (networks > dynamic) {
    need.key = "batch";
    need.what = QStringLiteral("the encoder's and predictor's activations (batch %1 x hidden %2)")
                    .arg(batch, 0, 'f', 0)
                    .arg(hidden, 0, 'f', 0);
    need.advice = "lower batch or hidden";
  } else {
    need.key = pool >= 2 * batch ? "eval_pool" : "batch";
    need.what = QStringLiteral(
                    "the order-%1 dynamic programming over %2 bits (2^%1 histories per bit) for %3 "
                    "evaluation and %4 training samples")
                    .arg(order)
                    .arg(bits)
                    .arg(pool, 0, 'f', 0)
                    .arg(batch, 0, 'f', 0);
    need.advice = learnedPrior ? "lower order_prior (each step down halves it), eval_pool or batch"
                               : "lower order_x (each step down halves it), eval_pool or batch";
  }
  return need;
}

ParamSpecs markovMiParamSpecs(bool learnedPrior) {
  const MarkovMiOptions d;
  ParamSpecs specs{
      // m = 8 for both: AMMI's prior needs r ~ m - 1 not to be fooled, and at m = 16 (the paper's, r = 11) a step
      // takes dozens of times as long as at m = 8, r = 7 (docs/methods.md, "The discrete methods: AMMI and BMMI";
      // docs/speed.md, "Speed").
      ParamSpec::integer("bits", d.bits, 1, learnedPrior ? 128 : markov::kMaxEnumeratedBits,
                         "code length m: z in {0,1}^m"),
      ParamSpec::integer("order_y", d.orderY, 0, 10, "Markov order o of the encoder p(z|y)"),
      ParamSpec::integer("order_x", d.orderX, 0, 10, "Markov order h >= o of the predictor q(z|x)"),
      // X = Y (the AMMI paper's unsupervised hashing, sec. 4.1): the encoder predicts its own code, so H+(Z|X) is
      // the encoder's entropy H(Z|Y), exact, and the estimate reads I(Y;Z). The hashing experiment trains so.
      ParamSpec::choice("predictor", {"learned", "encoder"}, d.selfPredicting ? "encoder" : "learned",
                        "q(z|x): an MLP of order h on x (learned), or the encoder p(z|y) itself (X = Y: hashing)"),
  };
  if (learnedPrior) {
    // A low-order prior is fooled by its encoder (docs/methods.md, "The discrete methods: AMMI and BMMI"):
    // the default takes the measured rule r = m - 1 up to m = 12, and the paper's r > 10 at m = 16.
    const ParamSpec order = withoutDefault(ParamSpec::integer(
        "order_prior", 0, 0, 12, "Markov order r >= o of the prior q(z); auto (null): max(o, min(bits - 1, 11))"));
    specs << order
          << ParamSpec::integer("prior_steps", d.priorSteps, 1, 100, "G: Adam steps on the prior per training step")
          << ParamSpec::real("prior_lr", d.priorLr, 0.0, 1.0, "learning rate of the prior's steps", true, false)
          << ParamSpec::integer("settle_steps", d.settleSteps, 0, 100000,
                                "Adam steps fitting the prior to the trained encoder before the final reading");
  }
  specs << ParamSpec::real("beta", d.beta, 0.0, 100.0, "entropy weight: the loss is H+(Z|X) - beta H(Z)")
        << ParamSpec::real("lr", d.lr, 0.0, 1.0, "Adam learning rate of the encoder and predictor", true, false)
        << ParamSpec::integer("hidden", d.hidden, 1, 4096, "hidden ReLU units of the encoder and predictor MLPs")
        << ParamSpec::integer("batch", d.batch, 2, 65536, "joint samples per step")
        << ParamSpec::real("clip", d.clip, 0.0, 1e6, "gradient norm clip of the encoder and predictor", true, false);
  if (learnedPrior)
    specs << ParamSpec::integer("eval_pool", d.evalPool, 2, 1 << 20,
                                "samples per evaluation batch (the prior settles on the first)");
  else
    specs << ParamSpec::integer("eval_pool", MarkovMiOptions::kAutomaticPool, 0, 1 << 20,
                                "samples per evaluation batch whose aggregate posterior gives the exact H(Z); 0: "
                                "min(2048, max(batch, 2^23 / 2^bits))");
  return specs;
}

QString validateMarkovMi(const QString& id, const MarkovMiOptions& options) {
  const bool learnedPrior = options.learnedPrior;
  const int m = options.bits, o = options.orderY, h = options.orderX;
  // order_y against bits first: with bits 4 and order_y 5 the fault is order_y's, not order_x's (which follows it).
  if (o > m) return QStringLiteral("order_y: must be <= bits = %1 for %2, got %3").arg(m).arg(id).arg(o);
  if (h < o) return QStringLiteral("order_x: must be >= order_y = %1 for %2, got %3").arg(o).arg(id).arg(h);
  if (h > m) return QStringLiteral("order_x: must be <= bits = %1 for %2, got %3").arg(m).arg(id).arg(h);
  if (!learnedPrior) {
    // Enumeration holds a [eval_pool, 2^m] table of log-probabilities: keep it under 2^26 entries (256 MB).
    const qint64 pool = options.evalPool, limit = markov::kMaxEnumeratedEntries >> m;
    if (pool > limit)
      return QStringLiteral("eval_pool: must be 0 (automatic) or <= 2^26 / 2^bits = %1 for %2 with bits = %3, got %4")
          .arg(limit)
          .arg(id)
          .arg(m)
          .arg(pool);
  }
  if (learnedPrior) {
    const int r = options.priorOrder;
    if (r < o) return QStringLiteral("order_prior: must be >= order_y = %1 for %2, got %3").arg(o).arg(id).arg(r);
    if (r > m) return QStringLiteral("order_prior: must be <= bits = %1 for %2, got %3").arg(m).arg(id).arg(r);
  }
  return {};
}

}  // namespace milab
