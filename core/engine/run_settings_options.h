#pragma once
// The run settings (steps, seed, device, evaluation and the finite-sample protocol): their ParamSpecs, and the one
// place that reads them from a ParamMap by key into a RunSpec's typed fields, and writes them back.
#include "params/param_spec.h"

namespace milab {

struct RunSpec;

// steps, seed, device, eval_batches, the finite-sample protocol's samples, test_fraction, eval_every,
// early_stopping, report, held_out, transform, and recipe (engine/recipe_options.h).
const ParamSpecs& runSettingSpecs();

// The run settings of a spec as a map (the settings form's values), and back: "" or the error naming the field.
ParamMap runSettingsOf(const RunSpec& spec);
QString applyRunSettings(const ParamMap& settings, RunSpec* spec);
// The settings' fields as they are, unchecked (the form copies them; validateRunSpec names a bad one).
void readRunSettings(const ParamMap& values, RunSpec* spec);

}  // namespace milab
