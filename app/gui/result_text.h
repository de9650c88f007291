#pragma once
// The result line under the window's plot, as rich text: how a run ended, its estimate against the truth (or a
// table's permutation baseline), its ceilings, its oracle's reading, a learned representation's probe readings,
// the objective's terms, what it did in how long on which device, and its failure reason and warning in colour.
#include <QString>

#include "engine/run.h"
#include "results/display_units.h"

namespace milab {

// `oracle`: the same bound with the task's analytic critic, when it finished (else null). Amounts in `units`; the
// method's own terms as it reports them.
QString resultHtml(const RunSpec& spec, const RunResult& result, const RunResult* oracle, Units units = Units::Nats);
// The line that places one run in a set of several: "The set holds 3 runs (...); row 2, infonce K=8:".
QString setPlaceHtml(int runs, int index, const QString& label);

}  // namespace milab
