#include "method/critic_options.h"

#include <cmath>

namespace milab {

ParamSpecs criticParamSpecs(int minK) {
  const CriticOptions d;
  return {
      ParamSpec::integer("K", d.K, minK, 65536, "contrastive set size: the positive plus K-1 negatives"),
      ParamSpec::real("lr", d.lr, 0.0, 1.0, "Adam learning rate", true, false),
      ParamSpec::integer("hidden", d.hidden, 1, 4096, "hidden ReLU units of each critic MLP"),
      ParamSpec::integer("embed", d.embed, 1, 4096, "output size of each critic MLP (the dot-product space)"),
      ParamSpec::choice("critic", {"learned", "oracle"}, d.oracle ? "oracle" : "learned",
                        "learned: train the MLP critic; oracle: the task's analytic PMI, nothing trained"),
  };
}

ParamSpecs scoreMatrixCriticSpecs(int minK) {
  ParamSpecs specs = criticParamSpecs(minK);
  for (ParamSpec& s : specs)
    if (s.name == "critic") {
      s.choices = {"learned", "joint", "oracle"};
      s.help =
          "learned: f(x) . g(y), two MLPs of hidden and embed units (the DEMI paper's); joint: one MLP on [x, y] "
          "scored over all pairs (bmi's and f-DIME's; its widths are layers); oracle: the task's analytic PMI, nothing "
          "trained";
    }
  ParamSpec layers =
      ParamSpec::numberList("layers", 1, kMaxLayerWidth,
                            "the joint critic's hidden ReLU widths, e.g. 16,8 (bmi's); read with critic = joint");
  QStringList widths;
  for (int w : CriticOptions{}.layers) widths << QString::number(w);
  layers.defaultValue = widths.join(',');
  specs << layers;
  return specs;
}

QString checkCriticLayers(const ParamMap& params) {
  if (!params.contains("layers")) return {};
  const QString text = params.value("layers").toString();
  const QList<double> widths = numberListValues(text);
  bool whole = !widths.isEmpty() && widths.size() <= kMaxCriticLayers;
  for (double w : widths) whole = whole && w == std::floor(w) && w >= 1 && w <= kMaxLayerWidth;
  if (whole) return {};
  return QStringLiteral("layers: must be 1 to %1 hidden widths, whole numbers in [1, %2] (e.g. 16,8), got '%3'")
      .arg(kMaxCriticLayers)
      .arg(kMaxLayerWidth)
      .arg(text);
}

CriticOptions CriticOptions::from(const ParamMap& params) {
  CriticOptions o;
  o.K = params.value("K").toInt();
  o.lr = params.value("lr").toDouble();
  o.hidden = params.value("hidden").toInt();
  o.embed = params.value("embed").toInt();
  o.oracle = usesOracleCritic(params);
  o.joint = params.value("critic").toString() == "joint";
  o.layers.clear();  // a method without the key (criticParamSpecs alone) has no joint critic
  for (double w : numberListValues(params.value("layers"))) o.layers << int(w);
  return o;
}

MethodInfo criticMethodInfo(const QString& id, const QString& displayName, const QString& family,
                            const QString& summary, int minK) {
  MethodInfo i;
  i.id = id;
  i.displayName = displayName;
  i.family = family;
  i.summary = summary;
  i.params = criticParamSpecs(minK);
  return i;
}

MethodInfo scoreMatrixMethodInfo(const QString& id, const QString& displayName, const QString& family,
                                 const QString& summary, int minK) {
  MethodInfo i = criticMethodInfo(id, displayName, family, summary, minK);
  i.params = scoreMatrixCriticSpecs(minK);
  i.readsWholeHeldOut = true;  // a score matrix of any size: bmi's reading of the whole held-out half
  return i;
}

}  // namespace milab
