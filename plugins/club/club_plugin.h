#pragma once
// CLUB: E_joint[log q(y|x)] - E_x E_y[log q(y|x)] over every in-batch pair.
#include <QObject>

#include "club/club_family.h"

namespace milab {

class ClubAllPairsPlugin : public QObject, public ClubPlugin {
  Q_OBJECT
  Q_PLUGIN_METADATA(IID MILAB_METHOD_PLUGIN_IID FILE "club.json")
  Q_INTERFACES(milab::MethodPlugin)

 public:
  ClubAllPairsPlugin() : ClubPlugin("club", "CLUB (upper bound)", false) {}
};

}  // namespace milab
