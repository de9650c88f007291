#pragma once
// infomin-multi: the vision family's NceMulti objective (vision_plugin.h, vision_objectives.h).
#include <QObject>

#include "vision_plugin.h"

namespace milab {

class InfoMinMultiPlugin : public QObject, public VisionPlugin {
  Q_OBJECT
  Q_PLUGIN_METADATA(IID MILAB_METHOD_PLUGIN_IID FILE "infomin-multi.json")
  Q_INTERFACES(milab::MethodPlugin)

 public:
  InfoMinMultiPlugin() : VisionPlugin(VisionObjective::NceMulti) {}
};

}  // namespace milab
