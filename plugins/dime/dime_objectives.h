#pragma once
// f-DIME's objectives (Letizia, Novello, Tonello, "Mutual information estimation via f-divergence and data
// derangements", NeurIPS 2024, eqs. 8-13 and their code's loss functions): a discriminator output T (any real) is
// trained on joint pairs and on marginal pairs (x_i with another row's y) to minimise
//   E_joint[phiJoint(T)] + E_marginal[phiMarginal(T)],
// whose optimum makes R = p(x,y) / p(x)p(y) a function of T; the MI reading is E_joint[log R(T)].
//   KL-DIME:  D = softplus(T) > 0 is R itself:            phiJoint = -log D,       phiMarginal = D,        log R = log
//   D GAN-DIME: D = sigmoid(T), marginals labelled 1:       phiJoint = softplus(T),  phiMarginal = softplus(-T),
//             D* = q / (p + q), so R = (1 - D) / D:                                                         log R = -T
//   HD-DIME:  D = softplus(T) > 0, squared Hellinger:      phiJoint = D,            phiMarginal = 1 / D,
//             D* = sqrt(q / p), so R = 1 / D^2:                                                             log R = -2
//             log D
// Written in T so that the sigmoid's and softplus's logarithms stay finite where D is tiny.
#include <ATen/ATen.h>

#include <QString>

#include "f_divergence.h"

namespace milab {

at::Tensor dimePhiJoint(FDivergence d, const at::Tensor& t);
at::Tensor dimePhiMarginal(FDivergence d, const at::Tensor& t);
at::Tensor dimeLogRatio(FDivergence d, const at::Tensor& t);  // log R(T), elementwise
// The objective to minimise: E_joint[phiJoint(T)] + E_marginal[phiMarginal(T)], from T on the joint pairs [B] and
// on the marginal pairs: [B] (one other row's y per x), or [B, B] (every pair, the joint ones on the diagonal,
// which the marginal mean leaves out).
at::Tensor dimeLoss(FDivergence d, const at::Tensor& joint, const at::Tensor& marginal);
// The T whose log R is `logRatio` (the oracle critic: the task's PMI): R(T) inverted.
at::Tensor dimeCriticOfLogRatio(FDivergence d, const at::Tensor& logRatio);

}  // namespace milab
