#pragma once
// infonce-text: the sequence family's Nce objective (sequence_plugin.h, sequence_options.h).
#include <QObject>

#include "sequence_plugin.h"

namespace milab {

class InfoNceTextPlugin : public QObject, public SequencePlugin {
  Q_OBJECT
  Q_PLUGIN_METADATA(IID MILAB_METHOD_PLUGIN_IID FILE "infonce-text.json")
  Q_INTERFACES(milab::MethodPlugin)

 public:
  InfoNceTextPlugin() : SequencePlugin(SequenceObjective::Nce) {}
};

}  // namespace milab
