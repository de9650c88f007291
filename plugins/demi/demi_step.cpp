// The DEMI family's training steps (I_NCE(x';y) + a conditional objective, DEMI paper eq. 2, 6, 9, 10, or I_CNCE
// alone) with their backward pass written out.
//
// Why: autograd's own work (a graph node per operation, saved tensors, gradients accumulated into zeroed buffers)
// costs about as much as the arithmetic of these small steps, and the conditional negatives' [B, C, H] activation
// was handled in shapes BLAS does badly (a bmm with one column, slower than an elementwise product and sum over
// [64, 63, 100]: docs/speed.md, "Speed"; and its backward two more). Here the step makes no graph, takes one pass
// of f over the stacked inputs [x', 0] and [x', x], scores the negatives with their softmax and backward in one
// fused pass a few rows at a time (candidate_cnce_pass), and writes each gradient straight into the optimiser's
// flat buffer. The arithmetic is autograd's up to the order of float additions, so the step is autograd's to
// rounding, not to the bit: test_step_loop compares one step's gradients and many steps' readings for each
// objective, test_statistical the trained readings at MI 5, 10, 20.
#include "demi_step.h"

#include <ATen/ATen.h>
#include <c10/core/GradMode.h>

#include "candidate_cnce_pass.h"
#include "nn/mlp_backward.h"
#include "nn/separable_critic.h"
#include "written_out_objectives.h"

namespace milab {

DemiStep trainDemi(SeparableCritic& critic, const at::Tensor& xp, const at::Tensor& x, const at::Tensor& y,
                   DemiConditional conditional, const at::Tensor& negatives) {
  c10::NoGradGuard noGraph;
  Mlp& f = critic.xNetwork();
  Mlp& g = critic.yNetwork();
  const int64_t b = xp.size(0);
  // f over [x', 0] (rows 0..B-1) and [x', x] (rows B..2B-1) in one pass.
  const at::Tensor fInput = at::cat({at::cat({xp, at::zeros_like(x)}, 1), at::cat({xp, x}, 1)}, 0);
  const MlpPass fPass = mlpForward(f, fInput), gy = mlpForward(g, y);
  const at::Tensor fSubview = fPass.output.narrow(0, 0, b), fBoth = fPass.output.narrow(0, b, b), gY = gy.output;
  at::Tensor gradF = at::empty_like(fPass.output);
  at::Tensor gradFSubview = gradF.narrow(0, 0, b), gradFBoth = gradF.narrow(0, b, b);

  // I_NCE(x';y) over the in-batch psi.
  DemiStep step;
  const at::Tensor psi = fSubview.mm(gY.t());
  const ScoredObjective unconditional = nceWithGradient(psi, NceTarget::diagonal);
  step.unconditional = unconditional.value;
  at::mm_out(gradFSubview, unconditional.gradient, gY);
  at::Tensor gradG = unconditional.gradient.t().mm(fSubview);

  // The conditional objective: its gradient into f([x', x]) and g(y), and for candidates into g's layers directly.
  CandidateCncePass candidatesPass;
  if (conditional == DemiConditional::cnceNegatives) {
    candidatesPass = candidateCnce(g, fBoth, gY, negatives, gradFBoth, gradG);
    step.conditional = candidatesPass.value;
  } else {
    const at::Tensor phi = fBoth.mm(gY.t());
    // I_BO (eq. 10) is the in-batch InfoNCE of psi + phi, psi detached.
    const bool boosted = conditional == DemiConditional::boosted;
    const ScoredObjective o =
        boosted ? nceWithGradient(psi + phi, NceTarget::diagonal) : importanceSampledWithGradient(psi, phi);
    step.conditional = o.value;
    step.importanceSampled = boosted ? importanceSampledWithGradient(psi, phi, false).value : o.value;
    at::mm_out(gradFBoth, o.gradient, gY);
    gradG.addmm_(o.gradient.t(), fBoth);
  }

  mlpBackward(f, fPass, gradF);
  mlpBackward(g, gy, gradG);
  if (conditional == DemiConditional::cnceNegatives) addNegativesGradients(g, fBoth, candidatesPass);
  critic.stepOnWrittenGradients();
  return step;
}

at::Tensor trainCnce(SeparableCritic& critic, const at::Tensor& xp, const at::Tensor& x, const at::Tensor& y,
                     const at::Tensor& negatives) {
  c10::NoGradGuard noGraph;
  Mlp& f = critic.xNetwork();
  Mlp& g = critic.yNetwork();
  const MlpPass fPass = mlpForward(f, at::cat({xp, x}, 1)), gy = mlpForward(g, y);
  at::Tensor gradF = at::empty_like(fPass.output), gradG = at::zeros_like(gy.output);
  const CandidateCncePass pass = candidateCnce(g, fPass.output, gy.output, negatives, gradF, gradG);
  mlpBackward(f, fPass, gradF);
  mlpBackward(g, gy, gradG);
  addNegativesGradients(g, fPass.output, pass);
  critic.stepOnWrittenGradients();
  return pass.value;
}

}  // namespace milab
