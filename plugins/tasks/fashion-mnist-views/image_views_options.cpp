// The image-view task's keys: their ParamSpecs and the one reader of them by key (viewOptionsFrom), both declared
// with ViewOptions in image_views.h.
#include "image_views.h"

namespace milab {

ParamSpecs viewOptionSpecs() {
  const ViewOptions d;
  return {
      ParamSpec::choice("subview", {"crop", "cut"}, d.subview == SubviewKind::Crop ? "crop" : "cut",
                        "x' from x: an aggressive random resized crop (crop) or a square cut out (cut)"),
      ParamSpec::real("crop_scale_min", d.cropScaleMin, 0.01, 1, "smallest area fraction of a view's random crop"),
      ParamSpec::real("crop_scale_max", d.cropScaleMax, 0.01, 1, "largest area fraction of a view's random crop"),
      ParamSpec::real("flip", d.flip, 0, 1, "probability of a horizontal flip"),
      ParamSpec::real("rotation", d.rotation, 0, 45, "affine jitter: largest rotation, degrees"),
      ParamSpec::real("translate", d.translate, 0, 7, "affine jitter: largest shift on each axis, pixels"),
      ParamSpec::real("brightness", d.brightness, 0, 0.9, "brightness noise: pixels times a factor in 1 +- this"),
      ParamSpec::real("contrast", d.contrast, 0, 0.9, "contrast noise: deviations from the mean times 1 +- this"),
      ParamSpec::real("subview_scale_min", d.subviewScaleMin, 0.01, 1, "smallest area fraction of the crop x'"),
      ParamSpec::real("subview_scale_max", d.subviewScaleMax, 0.01, 1, "largest area fraction of the crop x'"),
      ParamSpec::integer("subview_size", d.subviewSize, 4, 28, "resolution of the crop x' before it is resized back"),
      ParamSpec::integer("cutout", d.cutout, 1, 27, "side of the square cut out of x (subview cut), pixels"),
  };
}

QString viewOptionsFrom(const ParamMap& p, ViewOptions* out) {
  ViewOptions o;
  o.subview = p.value("subview").toString() == "cut" ? SubviewKind::Cutout : SubviewKind::Crop;
  o.cropScaleMin = p.value("crop_scale_min").toDouble();
  o.cropScaleMax = p.value("crop_scale_max").toDouble();
  o.flip = p.value("flip").toDouble();
  o.rotation = p.value("rotation").toDouble();
  o.translate = p.value("translate").toDouble();
  o.brightness = p.value("brightness").toDouble();
  o.contrast = p.value("contrast").toDouble();
  o.subviewScaleMin = p.value("subview_scale_min").toDouble();
  o.subviewScaleMax = p.value("subview_scale_max").toDouble();
  o.subviewSize = p.value("subview_size").toInt();
  o.cutout = p.value("cutout").toInt();
  if (o.cropScaleMin > o.cropScaleMax)
    return QStringLiteral("crop_scale_min: %1 is above crop_scale_max (%2)").arg(o.cropScaleMin).arg(o.cropScaleMax);
  if (o.subviewScaleMin > o.subviewScaleMax)
    return QStringLiteral("subview_scale_min: %1 is above subview_scale_max (%2)")
        .arg(o.subviewScaleMin)
        .arg(o.subviewScaleMax);
  *out = o;
  return {};
}

}  // namespace milab
