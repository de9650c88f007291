#pragma once
// demi-vision-is: the vision family's DemiIs objective (vision_plugin.h, vision_objectives.h).
#include <QObject>

#include "vision_plugin.h"

namespace milab {

class DemiVisionIsPlugin : public QObject, public VisionPlugin {
  Q_OBJECT
  Q_PLUGIN_METADATA(IID MILAB_METHOD_PLUGIN_IID FILE "demi-vision-is.json")
  Q_INTERFACES(milab::MethodPlugin)

 public:
  DemiVisionIsPlugin() : VisionPlugin(VisionObjective::DemiIs) {}
};

}  // namespace milab
