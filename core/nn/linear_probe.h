#pragma once
// Linear evaluation of a frozen representation (the DEMI paper's sec. 5.2 protocol): a multinomial logistic
// regression fitted full batch by L-BFGS on the training features, scored by accuracy on the test features.
// Features are standardised with the training set's mean and deviation first, so one setting of the (small) weight
// decay suits encoders of any scale. Torch header: torch translation units only.
#include <ATen/core/Tensor.h>

namespace milab {

struct LinearProbeOptions {
  int iterations = 200;       // L-BFGS iterations (each a full pass over the training features)
  double weightDecay = 1e-4;  // on the weights, not the biases: keeps a separable set's optimum finite
};

// Accuracy in [0, 1] on the test set of the classifier fitted on the training set. Features [N, D] of any floating
// dtype (read as float32, on their device), labels [N] int64 in [0, classes).
double linearProbeAccuracy(const at::Tensor& trainFeatures, const at::Tensor& trainLabels,
                           const at::Tensor& testFeatures, const at::Tensor& testLabels, int64_t classes,
                           const LinearProbeOptions& options = {});

}  // namespace milab
