#pragma once
// The units this invocation prints its result lines in (--units nats|bits): one choice for the whole command,
// read by the single run's line and every grid cell's (results/display_units.h; the files stay in nats).
#include "results/display_units.h"

namespace milab {

void setPrintedUnits(Units units);
Units printedUnits();

}  // namespace milab
