// LMI's keys (lmi_options.h). The defaults are the reference code's (ggdna/latentmi, lmi.estimate and models.AECross)
// but one: the reference's autoencoders are 1024, 512 and 256 units wide on every data set up to 2,048 columns; here
// `hidden` 256 (256, 128, 64), a sixteenth of the weights, which on a 2-core CPU trains a step in milliseconds instead
// of a tenth of a second (docs/methods.md, "LMI"). Its 300 epochs with a patience of 30 are the run's `steps` and
// early stopping, which the finite-sample protocol gives it.
#include "lmi_options.h"

#include <algorithm>

namespace milab {

int64_t LmiOptions::latentOf(int64_t columns) const { return std::min(latent.value_or(kDefaultLatent), columns); }

ParamSpecs lmiParamSpecs() {
  const LmiOptions d;
  return {
      ParamSpec::integer("batch", int(d.batch), 2, 65536, "joint samples per training step"),
      ParamSpec::real("lr", d.lr, 0.0, 1.0, "Adam learning rate (the authors' 1e-4)", true, false),
      ParamSpec::integer("hidden", int(d.hidden), 4, 4096,
                         "units of the first hidden layer of each encoder and decoder (then a half and a quarter)"),
      withoutDefault(ParamSpec::integer("latent", int(LmiOptions::kDefaultLatent), 1, 4096,
                                        "latent width of each side, at most that side's columns (unset: 8, or "
                                        "fewer on a narrower side)")),
      ParamSpec::real("cross_weight", d.crossWeight, 0.0, 1e6,
                      "weight of the cross-prediction loss (x from y's latent, y from x's)"),
      ParamSpec::real("self_weight", d.selfWeight, 0.0, 1e6, "weight of each side's own reconstruction loss"),
      ParamSpec::real("dropout", d.dropout, 0.0, 1.0, "dropout before each layer of the cross decoders", false, true),
      ParamSpec::integer("k", d.k, 1, 1000, "neighbours KSG counts in the joint space of the latents"),
      ParamSpec::integer("read_rows", int(d.readRows), 10, 1000000,
                         "rows of fresh draws whose latents KSG reads per evaluation batch (a finite set's held-out "
                         "part is read whole)"),
  };
}

LmiOptions lmiOptions(const ParamMap& params) {
  LmiOptions o;
  o.batch = params.value("batch").toInt();
  o.lr = params.value("lr").toDouble();
  o.hidden = params.value("hidden").toInt();
  if (!params.value("latent").isNull()) o.latent = params.value("latent").toInt();
  o.crossWeight = params.value("cross_weight").toDouble();
  o.selfWeight = params.value("self_weight").toDouble();
  o.dropout = params.value("dropout").toDouble();
  o.k = params.value("k").toInt();
  o.readRows = params.value("read_rows").toInt();
  return o;
}

QString lmiLatentRefusal(const LmiOptions& o, int dimX, int dimY) {
  const int widest = std::max(dimX, dimY);
  if (!o.latent || *o.latent <= widest) return {};
  return QStringLiteral("latent: must be an integer in [1, %1] on this task (x has %2 columns, y %3), got %4")
      .arg(widest)
      .arg(dimX)
      .arg(dimY)
      .arg(*o.latent);
}

}  // namespace milab
