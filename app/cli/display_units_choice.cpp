#include "cli/display_units_choice.h"

#include <atomic>

namespace milab {

namespace {

std::atomic<Units> chosen{Units::Nats};  // set once before any line is printed; read from the printing thread

}  // namespace

void setPrintedUnits(Units units) { chosen.store(units); }

Units printedUnits() { return chosen.load(); }

}  // namespace milab
