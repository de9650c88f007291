#pragma once
// Two augmented views x, y of one image and a subview x' of x (the DEMI paper's sec. 5.2, scaled to 28 x 28):
// random resized crop, horizontal flip, a small affine jitter and brightness/contrast noise, each image its own
// draw, all of a batch in a few tensor ops (one affine grid and one grid_sample per view). Every draw comes from
// the generator handed in, in a fixed order, so a seed gives the same views.
#include <ATen/core/Generator.h>
#include <ATen/core/Tensor.h>

#include <QString>

#include "params/param_spec.h"

namespace milab {

enum class SubviewKind { Crop, Cutout };

// The task's keys, parsed once (viewOptionsFrom); defaults are torchvision's / InfoMin's, in pixels of 28.
struct ViewOptions {
  double cropScaleMin = 0.2, cropScaleMax = 1.0;  // area fraction of the random resized crop (InfoMin: 0.2-1)
  double flip = 0.5;                              // probability of a horizontal flip
  double rotation = 10;                           // degrees, uniform in [-rotation, rotation]
  double translate = 2;                           // pixels, uniform in [-translate, translate] on each axis
  double brightness = 0.4, contrast = 0.4;  // x <- (x - mean) c + mean + b, c in 1 +- contrast, b in +- brightness
  SubviewKind subview = SubviewKind::Crop;
  double subviewScaleMin = 0.05, subviewScaleMax = 0.14;  // the paper's aggressive crop (RandomResizedCrop s)
  int subviewSize = 14;                                   // the crop's resolution before it is resized back to 28
  int cutout = 14;                                        // side of the square cutout, pixels
};

// The ParamSpecs behind ViewOptions (the task's form, flags and validation).
ParamSpecs viewOptionSpecs();
// From validated params; "" or one line naming the key (a minimum above its maximum).
QString viewOptionsFrom(const ParamMap& params, ViewOptions* out);

// One augmented view of each image: images [B, 1, S, S] in [0, 1] -> [B, 1, S, S] in [0, 1].
at::Tensor augmentView(const at::Tensor& images, const ViewOptions& options, at::Generator& gen);
// The subview x' of each view x [B, 1, S, S]: an aggressive crop resized to subviewSize and back to S, or x with
// a random square cut out. A function of x and the generator only.
at::Tensor subviewOf(const at::Tensor& x, const ViewOptions& options, at::Generator& gen);

}  // namespace milab
