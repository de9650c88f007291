#include "ammi/ammi_plugin.h"

namespace milab {

AmmiPlugin::AmmiPlugin()
    : MarkovMiPlugin(true, "ammi", "AMMI (adversarial prior)",
                     "H+(Z) - H+(Z|X) for Markov-order binary codes of y; H+(Z) against a learned order-r prior") {}

}  // namespace milab
