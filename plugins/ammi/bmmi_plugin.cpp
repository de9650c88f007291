#include "ammi/bmmi_plugin.h"

namespace milab {

BmmiPlugin::BmmiPlugin()
    : MarkovMiPlugin(false, "bmmi", "BMMI (brute-force entropy)",
                     "H(Z) - H+(Z|X) with H(Z) exact over the 2^m codes of the aggregate posterior (m <= 16)") {}

}  // namespace milab

// The moc of this plugin's class, compiled with this file instead of in a file of its own (a shorter build).
#include "moc_bmmi_plugin.cpp"
