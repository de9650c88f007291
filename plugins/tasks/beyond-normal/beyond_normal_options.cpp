#include "beyond_normal_options.h"

namespace milab {

ParamSpecs beyondNormalKeySpecs() {
  const BeyondNormalOptions d;
  return {
      ParamSpec::choice("base",
                        {"multinormal-dense", "multinormal-sparse", "student-identity", "1v1-normal", "1v1-bimodal",
                         "1v1-additive", "multinormal", "student"},
                        d.base,
                        "the base distribution (bmi's families; multinormal and student take your `covariance`)"),
      ParamSpec::integer("dim_x", d.dimX, 1, 500, "dimension of x (multinormal and Student-t bases)"),
      ParamSpec::integer("dim_y", d.dimY, 1, 500, "dimension of y (multinormal and Student-t bases)"),
      ParamSpec::real("off_diag", d.offDiag, 0, 1,
                      "multinormal-dense: every correlation (the id grammar has no minus sign)", false, true),
      ParamSpec::integer("n_interacting", d.nInteracting, 0, 500,
                         "multinormal-sparse: pairs (x_i, y_i) that share a latent"),
      ParamSpec::real("strength", d.strength, 0, 100, "multinormal-sparse: the shared latent's weight", true),
      ParamSpec::real("dof", d.dof, 0.1, 1000, "student-identity: degrees of freedom"),
      ParamSpec::real("correlation", d.correlation, 0, 1,
                      "1v1-normal, 1v1-bimodal: the correlation (>= 0: the id grammar has no minus sign)", false, true),
      ParamSpec::real("epsilon", d.epsilon, 1e-3, 100, "1v1-additive: the half-width of the uniform noise"),
      ParamSpec::text("covariance", d.covariance,
                      "multinormal: the covariance of (x, y); student: its dispersion. (dim_x + dim_y) rows "
                      "separated by ';', entries by ',' (\"1, 0.6; 0.6, 2\"); symmetric, positive definite"),
      ParamSpec::text("transforms", d.transforms,
                      "applied in this order, comma-separated: normal_cdf, half_cube, asinh, wiggly, spiral, "
                      "swissroll_x (the MI is the base's)"),
  };
}

BeyondNormalOptions BeyondNormalOptions::from(const ParamMap& params) {
  BeyondNormalOptions o;
  o.base = params.value("base").toString();
  o.dimX = params.value("dim_x").toInt();
  o.dimY = params.value("dim_y").toInt();
  o.offDiag = params.value("off_diag").toDouble();
  o.nInteracting = params.value("n_interacting").toInt();
  o.strength = params.value("strength").toDouble();
  o.dof = params.value("dof").toDouble();
  o.correlation = params.value("correlation").toDouble();
  o.epsilon = params.value("epsilon").toDouble();
  o.covariance = params.value("covariance").toString();
  o.transforms = params.value("transforms").toString();
  return o;
}

}  // namespace milab
