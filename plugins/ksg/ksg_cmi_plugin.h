#pragma once
// KSG-CMI: I(x;y|x') by the Frenzel-Pompe conditional KSG; nothing trained.
#include <QObject>

#include "ksg/ksg_family.h"

namespace milab {

class KsgCmiPlugin : public QObject, public KsgPlugin {
  Q_OBJECT
  Q_PLUGIN_METADATA(IID MILAB_METHOD_PLUGIN_IID FILE "ksg-cmi.json")
  Q_INTERFACES(milab::MethodPlugin)

 public:
  KsgCmiPlugin() : KsgPlugin("ksg-cmi", "KSG conditional (Frenzel-Pompe)", true) {}
};

}  // namespace milab
