#pragma once
// KSG: I(x;y) (gaussian3: I(x,x';y)) from k-NN counts on fresh samples; nothing trained.
#include <QObject>

#include "ksg/ksg_family.h"

namespace milab {

class KsgMiPlugin : public QObject, public KsgPlugin {
  Q_OBJECT
  Q_PLUGIN_METADATA(IID MILAB_METHOD_PLUGIN_IID FILE "ksg.json")
  Q_INTERFACES(milab::MethodPlugin)

 public:
  KsgMiPlugin() : KsgPlugin("ksg", "KSG (k nearest neighbours)", false) {}
};

}  // namespace milab
