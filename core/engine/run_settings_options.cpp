#include "engine/run_settings_options.h"

#include "engine/run_spec.h"

namespace milab {

const ParamSpecs& runSettingSpecs() {
  static const ParamSpecs specs = {
      ParamSpec::integer("steps", RunSpec{}.steps, 1, 10000000, "training steps"),
      ParamSpec::integer("seed", RunSpec{}.seed, 0, 2147483647,
                         "seeds the task's construction, the networks and the samples"),
      ParamSpec::choice("device", {"auto", "cpu", "cuda"}, RunSpec{}.device, "auto takes CUDA when available"),
      ParamSpec::integer("eval_batches", RunSpec{}.evalBatches, 20, 100000,
                         "fresh batches the final estimate averages (its standard error comes from them)"),
      ParamSpec::integer("samples", RunSpec{}.samples, 0, 100000000,
                         "N samples drawn once per seed, standardised and split into training and held-out parts, "
                         "the estimate read on the held-out part (the field's protocol); 0: fresh batches each step"),
      ParamSpec::real("test_fraction", RunSpec{}.testFraction, 0.0, 1.0,
                      "with samples: the held-out share of the N samples", true, true),
      ParamSpec::integer("eval_every", RunSpec{}.evalEvery, 1, 10000000,
                         "with samples: steps between held-out readings"),
      ParamSpec::boolean("early_stopping", RunSpec{}.earlyStopping,
                         "with samples: stop training once two held-out readings in a row did not beat the best"),
      ParamSpec::choice("report", {"last", "best"}, RunSpec{}.reportBest ? "best" : "last",
                        "with samples: the estimate is the last held-out reading, or the best of them (bmi's; the "
                        "maximum of noisy readings leans upward)"),
      ParamSpec::choice("held_out", {"batches", "whole"}, RunSpec{}.heldOutWhole ? "whole" : "batches",
                        "with samples: the held-out part read in batches of the method's size, or whole at once "
                        "(bmi's: InfoNCE's cap becomes log N_test)"),
      ParamSpec::integer("permutations", RunSpec{}.permutations, 1, 100000,
                         "with samples: the test of independence reads the held-out part this many times with its "
                         "ys permuted (all rows for a method that trains nothing); p = (1 + #{permuted >= read}) / "
                         "(1 + permutations)"),
      ParamSpec::real("ci", RunSpec{}.ci, 0.0, 1.0,
                      "with samples: the level of the reading's confidence interval over the data (the spread "
                      "fresh tables of N rows would give, by subsampling the rows read; a trained critic's is its "
                      "held-out rows' share, the critic fixed)",
                      true, true),
      ParamSpec::boolean("extrapolate", RunSpec{}.extrapolate,
                         "with samples: the reading also extrapolated to infinite N, fitted in 1/N to the mean "
                         "readings of disjoint parts of N/2 to N/5 rows (KSG, at no cost) or of the halves and "
                         "quarters trained again (a trained critic: six more, smaller trainings), with its interval "
                         "and the flag inconsistent_sizes when the sizes bend away from the line"),
      ParamSpec::choice("transform", {"none", "asinh", "ranks", "tails"}, RunSpec{}.transform,
                        "with samples: each column mapped before standardisation (the MI is unchanged): asinh, "
                        "ranks (the normal quantile of each value's rank), which tames heavy tails, or tails (asinh "
                        "on the columns whose excess kurtosis exceeds 10, the others as drawn)"),
      // The key's default, auto, is resolved before a spec holds it (RunSpec::recipe: the recipe that filled the keys).
      ParamSpec::choice("recipe", {"auto", "none", "bmi", "lab"}, RunSpec::kRecipeKeyDefault,
                        "bmi: the Beyond-Normal benchmark's protocol fills every key left out (samples 5000, steps "
                        "10000, eval_every 250, early stopping, report best, held_out whole, joint critic 16,8, "
                        "K 256, lr 0.1); lab: bmi's at lr 0.01 with the method's transform, which reads heavy "
                        "tails (tails for infonce, nwj, mine and the diffusion estimators, asinh for the others); "
                        "auto: lab "
                        "with samples or a table, none with fresh batches"),
  };
  return specs;
}

void readRunSettings(const ParamMap& values, RunSpec* spec) {
  spec->steps = values.value("steps").toInt();
  spec->seed = values.value("seed").toInt();
  spec->device = values.value("device").toString();
  spec->evalBatches = values.value("eval_batches").toInt();
  spec->samples = values.value("samples").toInt();
  spec->testFraction = values.value("test_fraction").toDouble();
  spec->evalEvery = values.value("eval_every").toInt();
  spec->earlyStopping = values.value("early_stopping").toBool();
  spec->reportBest = values.value("report").toString() == "best";
  spec->heldOutWhole = values.value("held_out").toString() == "whole";
  spec->permutations = values.value("permutations").toInt();
  spec->ci = values.value("ci").toDouble();
  spec->extrapolate = values.value("extrapolate").toBool();
  spec->recipe = values.value("recipe").toString();
  spec->transform = values.value("transform").toString();
}

// Checks the run settings, filling the missing ones with their declared defaults.
QString applyRunSettings(const ParamMap& settings, RunSpec* spec) {
  ParamMap checked = settings;
  const QString err = validateParamMap(runSettingSpecs(), &checked, "the run");
  if (!err.isEmpty()) return err;
  readRunSettings(checked, spec);
  return {};
}

ParamMap runSettingsOf(const RunSpec& spec) {
  return {{"steps", spec.steps},
          {"seed", spec.seed},
          {"device", spec.device},
          {"eval_batches", spec.evalBatches},
          {"samples", spec.samples},
          {"test_fraction", spec.testFraction},
          {"eval_every", spec.evalEvery},
          {"early_stopping", spec.earlyStopping},
          {"report", spec.reportBest ? "best" : "last"},
          {"held_out", spec.heldOutWhole ? "whole" : "batches"},
          {"permutations", spec.permutations},
          {"ci", spec.ci},
          {"extrapolate", spec.extrapolate},
          {"transform", spec.transform},
          {"recipe", spec.recipe}};
}

}  // namespace milab
