#include "dime_options.h"

#include <QStringList>
#include <stdexcept>

namespace milab {

namespace {
const QStringList kCritics{"concatenated", "separable", "oracle"};
const QStringList kNegatives{"derangement", "permutation", "all-pairs"};

// The place of a choice key's value in its list. Validated parameters always have one; anything else is a caller's
// mistake, refused rather than read as the first choice.
int choiceIndex(const QStringList& choices, const char* key, const ParamMap& params) {
  const int i = int(choices.indexOf(params.value(key).toString()));
  if (i < 0)
    throw std::invalid_argument(QStringLiteral("%1: '%2' is not one of %3 (validate the parameters first)")
                                    .arg(key, params.value(key).toString(), choices.join('|'))
                                    .toStdString());
  return i;
}
}  // namespace

ParamSpecs dimeParamSpecs() {
  const DimeOptions d;
  return {
      ParamSpec::integer("batch", int(d.batch), 2, 65536, "joint samples per training step and per evaluation batch"),
      ParamSpec::real("lr", d.lr, 0.0, 1.0, "Adam learning rate (the paper's 0.002)", true, false),
      ParamSpec::integer("hidden", int(d.hidden), 2, 4096,
                         "hidden ReLU units: the concatenated critic's first layer (its second has half), or each "
                         "MLP of the separable critic"),
      ParamSpec::integer("embed", int(d.embed), 1, 4096, "output size of each MLP of the separable critic"),
      ParamSpec::choice("critic", kCritics, kCritics[int(d.critic)],
                        "concatenated: one MLP on [x, y] (the paper's deranged architecture); separable: f(x).g(y); "
                        "oracle: the task's exact PMI as log R, nothing trained"),
      ParamSpec::choice("negatives", kNegatives, kNegatives[int(d.negatives)],
                        "the marginal pairs: derangement (each x with another row's y, never its own), permutation "
                        "(a random permutation: 1/batch of them are joint pairs, which caps R near the batch size), "
                        "or all-pairs (every off-diagonal pair of the batch)"),
  };
}

DimeOptions dimeOptions(FDivergence divergence, const ParamMap& params) {
  DimeOptions o;
  o.divergence = divergence;
  o.batch = params.value("batch").toInt();
  o.lr = params.value("lr").toDouble();
  o.hidden = params.value("hidden").toInt();
  o.embed = params.value("embed").toInt();
  o.critic = static_cast<DimeOptions::Critic>(choiceIndex(kCritics, "critic", params));
  o.negatives = static_cast<DimeOptions::Negatives>(choiceIndex(kNegatives, "negatives", params));
  return o;
}

}  // namespace milab
