#pragma once
// CLUB-sample: the negative term over one random pairing of each x with another row's y.
#include <QObject>

#include "club/club_family.h"

namespace milab {

class ClubSamplePlugin : public QObject, public ClubPlugin {
  Q_OBJECT
  Q_PLUGIN_METADATA(IID MILAB_METHOD_PLUGIN_IID FILE "club-sample.json")
  Q_INTERFACES(milab::MethodPlugin)

 public:
  ClubSamplePlugin() : ClubPlugin("club-sample", "CLUB, sampled (upper bound)", true) {}
};

}  // namespace milab
