#pragma once
// demi-vision: the vision family's DemiBo objective (vision_plugin.h, vision_objectives.h).
#include <QObject>

#include "vision_plugin.h"

namespace milab {

class DemiVisionPlugin : public QObject, public VisionPlugin {
  Q_OBJECT
  Q_PLUGIN_METADATA(IID MILAB_METHOD_PLUGIN_IID FILE "demi-vision.json")
  Q_INTERFACES(milab::MethodPlugin)

 public:
  DemiVisionPlugin() : VisionPlugin(VisionObjective::DemiBo) {}
};

}  // namespace milab
