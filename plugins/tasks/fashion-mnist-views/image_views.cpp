#include "image_views.h"

#include <ATen/ATen.h>

#include <cmath>

namespace milab {

namespace {

constexpr double kPi = 3.14159265358979323846;

// Per row of `u` (uniforms in [0, 1)), a crop of area `scale` in [lo, hi] and aspect ratio in [3/4, 4/3]
// (log-uniform, as torchvision's RandomResizedCrop), as half-sizes in normalised coordinates: [B] each. A side
// longer than the image is cut to it (torchvision retries instead; at these scales that is rare and keeps the area
// within the range's top).
std::pair<at::Tensor, at::Tensor> cropHalfSizes(const at::Tensor& uScale, const at::Tensor& uRatio, double lo,
                                                double hi) {
  const at::Tensor scale = lo + (hi - lo) * uScale;
  const at::Tensor ratio = at::exp(std::log(3.0 / 4.0) + (std::log(4.0 / 3.0) - std::log(3.0 / 4.0)) * uRatio);
  return {at::sqrt(scale * ratio).clamp_max(1.0), at::sqrt(scale / ratio).clamp_max(1.0)};
}

// The [B, 2, 3] affine map from output to input coordinates (affine_grid's theta): scale to the crop, rotate by
// `angle`, flip x where `flip` is -1, centre at (cx, cy).
at::Tensor cropTheta(const at::Tensor& w, const at::Tensor& h, const at::Tensor& angle, const at::Tensor& flip,
                     const at::Tensor& cx, const at::Tensor& cy) {
  const at::Tensor c = at::cos(angle), s = at::sin(angle);
  const at::Tensor row0 = at::stack({w * c * flip, -w * s, cx}, 1);
  const at::Tensor row1 = at::stack({h * s * flip, h * c, cy}, 1);
  return at::stack({row0, row1}, 1);
}

at::Tensor sampleWith(const at::Tensor& images, const at::Tensor& theta, int64_t size) {
  const at::Tensor grid = at::affine_grid_generator(theta, {images.size(0), images.size(1), size, size}, false);
  return at::grid_sampler(images, grid, /*bilinear*/ 0, /*zeros*/ 0, false);
}

}  // namespace

at::Tensor augmentView(const at::Tensor& images, const ViewOptions& o, at::Generator& gen) {
  const int64_t b = images.size(0), side = images.size(-1);
  // One draw of every uniform the batch needs, in a fixed column order: the same seed, the same views.
  const at::Tensor u = at::rand({b, 10}, gen, images.options());
  const auto [w, h] = cropHalfSizes(u.select(1, 0), u.select(1, 1), o.cropScaleMin, o.cropScaleMax);
  const double shift = 2.0 * o.translate / double(side);  // pixels -> normalised coordinates
  const at::Tensor cx = (1 - w) * (2 * u.select(1, 2) - 1) + shift * (2 * u.select(1, 6) - 1);
  const at::Tensor cy = (1 - h) * (2 * u.select(1, 3) - 1) + shift * (2 * u.select(1, 7) - 1);
  const at::Tensor flip = 1 - 2 * (u.select(1, 4) < o.flip).to(images.scalar_type());
  const at::Tensor angle = (2 * u.select(1, 5) - 1) * (o.rotation * kPi / 180.0);
  at::Tensor v = sampleWith(images, cropTheta(w, h, angle, flip, cx, cy), side);
  // Brightness, then contrast about each image's mean (torchvision's ColorJitter order for these two).
  const at::Tensor gain = (1 + o.brightness * (2 * u.select(1, 8) - 1)).view({b, 1, 1, 1});
  const at::Tensor stretch = (1 + o.contrast * (2 * u.select(1, 9) - 1)).view({b, 1, 1, 1});
  v = (v * gain).clamp(0, 1);
  const at::Tensor mean = v.mean({1, 2, 3}, true);
  return ((v - mean) * stretch + mean).clamp(0, 1);
}

at::Tensor subviewOf(const at::Tensor& x, const ViewOptions& o, at::Generator& gen) {
  const int64_t b = x.size(0), side = x.size(-1);
  if (o.subview == SubviewKind::Crop) {
    const at::Tensor u = at::rand({b, 4}, gen, x.options());
    const auto [w, h] = cropHalfSizes(u.select(1, 0), u.select(1, 1), o.subviewScaleMin, o.subviewScaleMax);
    const at::Tensor cx = (1 - w) * (2 * u.select(1, 2) - 1), cy = (1 - h) * (2 * u.select(1, 3) - 1);
    const at::Tensor none = at::zeros({b}, x.options()), one = at::ones({b}, x.options());
    const at::Tensor crop = sampleWith(x, cropTheta(w, h, none, one, cx, cy), o.subviewSize);
    return at::upsample_bilinear2d(crop, {side, side}, false);
  }
  // Cutout: a square of side `cutout` whose top-left corner is uniform over the positions that keep its centre in
  // the image (as DeVries & Taylor's; it may hang over an edge).
  const at::Tensor corner = at::floor(at::rand({b, 2}, gen, x.options()) * side - o.cutout / 2.0);
  const at::Tensor pixels = at::arange(side, x.options());
  const auto inside = [&](int axis) {
    const at::Tensor start = corner.select(1, axis).view({b, 1});
    return (pixels.view({1, side}) >= start) & (pixels.view({1, side}) < start + o.cutout);
  };
  const at::Tensor mask = inside(1).view({b, 1, side, 1}) & inside(0).view({b, 1, 1, side});
  return x.masked_fill(mask, 0);
}

}  // namespace milab
