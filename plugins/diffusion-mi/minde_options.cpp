// minde-c's keys (minde_options.h). The defaults are the reference code's for Beyond-Normal
// (MustaphaBounoua/minde, src/scripts/run_minde.py and job.sh: lr 2e-3 and batch 256 above 5 dimensions,
// importance sampling of t and an exponential moving average of decay 0.999 on, beta in [0.1, 20], 10 Monte Carlo
// passes over the held-out rows, a width of 64, 128 or 256 units for up to 10, 50 or more columns of x and y).
// lr 2e-3 at 5 dimensions and below too, where the reference takes 1e-3 with batch 128, as for mmg. Its 300-500
// epochs over 100,000 rows (about 195,000 steps) are the run's `steps`, which the user sets for this machine, and
// the moving average is scaled to them: the reference's 0.999 spans 1,000 steps, 0.5% of its run, and a run here
// is 2,000 to 20,000 steps, so 0.99 (a span of 100): closer to the truth than 0.999, closer to 0 on nearly
// independent data than the trained weights, whose noise lifts a reading that is never negative (docs/methods.md,
// "The diffusion estimators' defaults").
#include "minde_options.h"

namespace milab {

int64_t MindeOptions::hiddenFor(int64_t columns) const {
  if (hidden > 0) return hidden;
  return columns <= 10 ? 64 : columns <= 50 ? 128 : 256;
}

ParamSpecs mindeParamSpecs() {
  const MindeOptions d;
  return {
      ParamSpec::integer("batch", int(d.batch), 2, 65536, "joint samples per training step and per evaluation batch"),
      ParamSpec::real("lr", d.lr, 0.0, 1.0, "Adam learning rate", true, false),
      ParamSpec::integer("hidden", int(d.hidden), 0, 4096,
                         "units of each hidden SiLU layer of the score network (0: 64, 128 or 256 for up to 10, 50 "
                         "or more columns of x and y, as MINDE sizes it)"),
      ParamSpec::integer("layers", int(d.layers), 1, 16, "hidden layers of the score network"),
      ParamSpec::real("ema", d.ema, 0.0, 1.0,
                      "decay of the moving average of the weights the readings use (0: the trained weights)", false,
                      true),
      ParamSpec::real("beta_min", d.schedule.betaMin, 0.0, 100.0, "the VP-SDE's beta at t = 0", true),
      ParamSpec::real("beta_max", d.schedule.betaMax, 0.0, 100.0, "the VP-SDE's beta at t = 1 (above beta_min)", true),
      ParamSpec::integer("draws", int(d.draws), 1, 1000, "times t drawn per held-out row in a reading"),
      ParamSpec::choice("critic", {"learned", "oracle"}, d.oracle ? "oracle" : "learned",
                        "oracle: no network; the exact noise predictions of a task with a Gaussian x side, "
                        "integrated over the same draws"),
  };
}

MindeOptions mindeOptions(const ParamMap& params) {
  MindeOptions o;
  o.batch = params.value("batch").toInt();
  o.lr = params.value("lr").toDouble();
  o.hidden = params.value("hidden").toInt();
  o.layers = params.value("layers").toInt();
  o.ema = params.value("ema").toDouble();
  o.schedule.betaMin = params.value("beta_min").toDouble();
  o.schedule.betaMax = params.value("beta_max").toDouble();
  o.draws = params.value("draws").toInt();
  o.oracle = params.value("critic").toString() == "oracle";
  return o;
}

}  // namespace milab
