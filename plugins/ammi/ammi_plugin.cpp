#include "ammi/ammi_plugin.h"

namespace milab {

AmmiPlugin::AmmiPlugin()
    : MarkovMiPlugin(true, "ammi", "AMMI (adversarial prior)",
                     "H+(Z) - H+(Z|X) for Markov-order binary codes of y; H+(Z) against a learned order-r prior") {}

}  // namespace milab

// The moc of this plugin's class, compiled with this file instead of in a file of its own (a shorter build).
#include "moc_ammi_plugin.cpp"
