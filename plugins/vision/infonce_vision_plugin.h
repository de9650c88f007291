#pragma once
// infonce-vision: the vision family's Nce objective (vision_plugin.h, vision_objectives.h).
#include <QObject>

#include "vision_plugin.h"

namespace milab {

class InfoNceVisionPlugin : public QObject, public VisionPlugin {
  Q_OBJECT
  Q_PLUGIN_METADATA(IID MILAB_METHOD_PLUGIN_IID FILE "infonce-vision.json")
  Q_INTERFACES(milab::MethodPlugin)

 public:
  InfoNceVisionPlugin() : VisionPlugin(VisionObjective::Nce) {}
};

}  // namespace milab
