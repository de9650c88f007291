#pragma once
// Torch's side of a task: joint batches, and what the task offers beyond them (TaskCapabilities), each drawn with the
// generator the caller hands it, on the sampler's device. A capability the task lacks throws: validateRunSpec keeps
// such a method from ever running on it, so reaching one is a bug, not a user's error.
#include <ATen/core/Generator.h>
#include <ATen/core/Tensor.h>
#include <c10/core/Device.h>

#include <QStringList>
#include <memory>

namespace milab {

// A diagonal Gaussian law per row: mean and log-variance, [B, d].
struct DiagonalGaussian {
  at::Tensor mean, logVar;
};

// KL(p || q) between diagonal Gaussians, summed over the last axis.
at::Tensor klDivergence(const DiagonalGaussian& p, const DiagonalGaussian& q);

// Capability images: the labelled images behind an image task's views, un-augmented, for evaluation only (a
// linear probe of a learned encoder); training never reads the labels.
struct LabelledImages {
  at::Tensor trainImages, testImages;  // [N, 1, S, S] float32 in [0, 1], on the sampler's device
  at::Tensor trainLabels, testLabels;  // [N] int64
  int64_t classes = 0;
  QStringList classNames;  // label -> name, for pictures ("" where the data set names none)
};

struct Batch {
  at::Tensor x;   // [B, dimX]
  at::Tensor xp;  // [B, dimX] x' (undefined when the task has no subview)
  at::Tensor y;   // [B, dimY]
};

class TaskSampler {
 public:
  explicit TaskSampler(c10::Device device) : device_(device) {}
  virtual ~TaskSampler() = default;

  virtual int dimX() const = 0;
  virtual int dimY() const = 0;
  virtual bool hasSubview() const { return false; }
  // Columns of what an x-side critic reads: x, or [x, x'] with a subview.
  int criticInputDim() const { return (hasSubview() ? 2 : 1) * dimX(); }
  c10::Device device() const { return device_; }

  virtual Batch sampleJoint(int64_t n, at::Generator& gen) const = 0;
  // A finite set's rows (engine/sample_set.h): `trainRows` training rows, then `heldOutRows` held-out rows. By
  // default one joint draw of both. A task that draws real items from finite pools (the class channel) draws the
  // held-out rows from items the training rows never use, and says so (drawsHeldOutApart): a finite set then keeps
  // the two parts apart wherever it reorders rows.
  virtual Batch sampleTable(int64_t trainRows, int64_t heldOutRows, at::Generator& gen) const {
    return sampleJoint(trainRows + heldOutRows, gen);
  }
  virtual bool drawsHeldOutApart() const { return false; }
  // n samples of y ~ p(y) alone. By default the y of a joint draw; a task that can draw y without x (and x') says
  // so, and a method that needs only marginal y's (demi-sir's pool) draws a third of the normals.
  virtual at::Tensor sampleMarginalY(int64_t n, at::Generator& gen) const { return sampleJoint(n, gen).y; }

  // Capability subview: perRow samples of y ~ p(y | x'_b) for every row b of xp, [B, perRow, dimY]; and the true
  // p(y | x') in float64.
  virtual at::Tensor sampleYGivenXp(const at::Tensor& xp, int64_t perRow, at::Generator& gen) const;
  virtual DiagonalGaussian yGivenXp(const at::Tensor& xp) const;

  // Capability pmi: analytic critics, in float64, broadcasting over all but the last (dimension) axis, summed over
  // it: pmi = log p(y | x, x') - log p(y) (without a subview log p(y | x) - log p(y)), the optimal InfoNCE critic;
  // subviewPmi = log p(y | x') - log p(y). E.g. x [B,1,d], y [1,C,d] gives the [B,C] score matrix. `xp` is ignored
  // (may be undefined) without a subview; y is given as observed.
  virtual at::Tensor pmi(const at::Tensor& x, const at::Tensor& xp, const at::Tensor& y) const;
  virtual at::Tensor subviewPmi(const at::Tensor& xp, const at::Tensor& y) const;
  // Capability densities: log p(y) of y as observed, in float64, summed over the last axis. With pmi it gives every
  // exact density the DoE and CLUB oracles need: log p(y | x) = log p(y) + pmi.
  virtual at::Tensor logMarginalY(const at::Tensor& y) const;
  // Capability images: the labelled images behind the views (null for a task of vectors), and a joint batch with
  // the labels of the images its views came from in *labels ([n] int64): a supervised reference's training data.
  virtual const LabelledImages* labelledImages() const { return nullptr; }
  // Capability gaussianXSide: the eigenvalues of the critic input's covariance and of its covariance given y,
  // float64 [criticInputDim()] each; undefined tensors for a task without the capability.
  struct GaussianXSide {
    at::Tensor marginal, givenY;
  };
  virtual GaussianXSide gaussianXSide() const { return {}; }
  virtual Batch sampleLabelledJoint(int64_t n, at::Generator& gen, at::Tensor* labels) const;

 private:
  c10::Device device_;
};

// Forwards to a sampler that can be replaced: the staircase swaps the law under an estimator that keeps a pointer to
// its sampler (EstimatorContext::task) for the whole run.
class SwitchableSampler final : public TaskSampler {
 public:
  explicit SwitchableSampler(std::unique_ptr<TaskSampler> inner);
  void replace(std::unique_ptr<TaskSampler> inner) { inner_ = std::move(inner); }

  int dimX() const override { return inner_->dimX(); }
  int dimY() const override { return inner_->dimY(); }
  bool hasSubview() const override { return inner_->hasSubview(); }
  Batch sampleJoint(int64_t n, at::Generator& gen) const override { return inner_->sampleJoint(n, gen); }
  Batch sampleTable(int64_t trainRows, int64_t heldOutRows, at::Generator& gen) const override {
    return inner_->sampleTable(trainRows, heldOutRows, gen);
  }
  bool drawsHeldOutApart() const override { return inner_->drawsHeldOutApart(); }
  at::Tensor sampleMarginalY(int64_t n, at::Generator& gen) const override { return inner_->sampleMarginalY(n, gen); }
  at::Tensor sampleYGivenXp(const at::Tensor& xp, int64_t perRow, at::Generator& gen) const override {
    return inner_->sampleYGivenXp(xp, perRow, gen);
  }
  DiagonalGaussian yGivenXp(const at::Tensor& xp) const override { return inner_->yGivenXp(xp); }
  at::Tensor pmi(const at::Tensor& x, const at::Tensor& xp, const at::Tensor& y) const override {
    return inner_->pmi(x, xp, y);
  }
  at::Tensor subviewPmi(const at::Tensor& xp, const at::Tensor& y) const override { return inner_->subviewPmi(xp, y); }
  at::Tensor logMarginalY(const at::Tensor& y) const override { return inner_->logMarginalY(y); }
  const LabelledImages* labelledImages() const override { return inner_->labelledImages(); }
  GaussianXSide gaussianXSide() const override { return inner_->gaussianXSide(); }
  Batch sampleLabelledJoint(int64_t n, at::Generator& gen, at::Tensor* labels) const override {
    return inner_->sampleLabelledJoint(n, gen, labels);
  }

 private:
  std::unique_ptr<TaskSampler> inner_;
};

}  // namespace milab
