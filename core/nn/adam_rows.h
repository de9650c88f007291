#pragma once
// Adam's update over flat float arrays in one pass: FlatAdam's step on a CPU. It makes the arithmetic of the five
// ATen operations FlatAdam otherwise makes (torch::optim::Adam's, LibTorch 1.13), rounding for rounding: ATen's
// kernels compute m b1 + (1 - b1) g and v b2 + (1 - b2) g g with a fused multiply-add each (its vector add with alpha
// is one; GCC contracts its addcmul into one), so this file is built without contraction (-ffp-contract=off) and
// writes those two out. One pass instead of five, no temporaries: a fraction of ATen's time, with AVX-512 or AVX2
// (target_clones.h; docs/speed.md, "Speed"). Torch-free.
#include <cstdint>

namespace milab {

// The step's constants, each the float ATen makes of the double it is handed.
struct AdamRowsStep {
  float beta1, oneMinusBeta1, beta2, oneMinusBeta2, sqrtBiasCorrection2, eps, negativeStepSize;
};

void adamRows(float* values, const float* grads, float* expAvg, float* expAvgSq, int64_t n, const AdamRowsStep& s);

// Whether the CPU has FMA instructions (x86-64-v3): without them the loop's fused multiply-adds would be calls to
// fmaf, slower than ATen's operations.
bool adamRowsHaveFma();

// Whether adamRows gives ATen's bits on this machine and LibTorch: checked once per process on a probe (FlatAdam
// takes ATen's operations where not). Defined with FlatAdam (nn/flat_adam.cpp), which has ATen.
bool adamRowsReproduceAten();

}  // namespace milab
