#pragma once
// The interface every method plugin implements. A plugin is stateless and const: it declares what it needs
// and creates one Estimator per run. This header is torch-free so Qt code (registry, GUI, moc) can include it.
#include <QList>
#include <QString>
#include <QtPlugin>
#include <memory>

#include "method/memory_need.h"
#include "method/reading_limits.h"
#include "method/shared_method_options.h"  // usesOracleCritic, K and batch of any method
#include "params/param_spec.h"
#include "tasks/task.h"

namespace milab {

class Estimator;
struct EstimatorContext;

// What a method's value estimates; the run compares it with the matching exact value of the task.
enum class Target {
  TotalMi,        // I(x,x';y) on a task with a subview, else I(x;y): a lower bound unless said otherwise
  ConditionalMi,  // I(x;y|x'): a lower bound (needs a subview)
  LogNormaliser,  // log of a learned density model's total mass; 0 when the model is normalised
};

struct MethodInfo {
  QString id;  // stable key: CLI --method, experiment files, results
  QString displayName;
  QString family;             // e.g. "contrastive", "decomposed"
  QString summary;            // one sentence for tooltips and `milab-cli methods --long`
  ParamSpecs params;          // drive the form, the experiment keys, the CLI flags and validation
  bool needsSubview = false;  // needs x' and the true p(y | x') sampler (TaskCapabilities::subview)
  // Reads x' as columns beside x and y, and nothing of its law (KSG's conditional): a task with x', a finite set
  // drawn from one, or a table with its x' columns (xp_columns) all serve.
  bool readsSubviewRows = false;
  // critic = oracle reads the task's exact log p(y) as well as its PMI (DoE, CLUB: TaskCapabilities::densities).
  bool oracleNeedsDensities = false;
  Target target = Target::TotalMi;
  bool lowerBound = true;  // its value never exceeds the target in expectation (checked by the conformance suite)
  // Its value is at least the target in expectation when its model is right (CLUB; checked with the oracle).
  bool upperBound = false;
  // False for an estimator with nothing to train (KSG): the run skips the training loop and its steps, and
  // its reading is the evaluation on eval_batches independent sample sets, shown as a point with an error bar.
  bool trains = true;
  // True for an estimator that computes on the CPU whatever the run asks for (KSG's k-NN counts): its runs sample on
  // the CPU too and report "cpu" as their device.
  bool cpuOnly = false;
  // Reads image views with a convolutional encoder (TaskCapabilities::images) and nothing else; every other method
  // reads vectors and is refused on an image task.
  bool readsImages = false;
  // Reads token sequences with a sequence encoder (TaskCapabilities::tokens) and nothing else; every other method is
  // refused on a task of tokens, whose ids are not numbers on a scale.
  bool readsTokens = false;
  // Its estimator is a MarkovEncoder (method/markov_encoder.h): the prior-order sweep can read its codes.
  bool markovEncoder = false;
  // Its estimator reads any number of rows at once (Estimator::evaluateWhole): the finite-sample protocol's
  // held_out = whole, bmi's reading of the whole held-out half, is offered to it.
  bool readsWholeHeldOut = false;
  // Keeps its own optimiser and networks under a recipe although it reads the whole held-out part: bmi's critic keys
  // (K, lr, critic, layers, momentum) are a critic's, and LMI's autoencoders train at their authors' rate instead.
  bool keepsOwnTraining = false;
  // Not a lower bound, but a held-out loss that says which model is better (Evaluation::loss: the diffusion
  // estimators' denoising loss, the negative log-likelihood of DoE's and CLUB's densities): early stopping and
  // report = best select by that loss instead of the reading.
  bool selectsByHeldOutLoss = false;
  // The column transform the lab's recipe gives its finite sets: asinh on every column, as the critics' recipe was
  // first measured; "tails", asinh on the heavy-tailed columns only, for a method that asinh costs on light tails
  // (the diffusion estimators at 10,000 samples; infonce, nwj and mine on the suite at 5,000: docs/benchmark.md).
  QString labRecipeTransform = QStringLiteral("asinh");
  // Its defaults were measured to read heavy-tailed tables: the Beyond-Normal suite's Student-t tables at 5,000 rows
  // within bmi's factor 1.5 of the truth (docs/benchmark.md, "Heavy tails at the lab's defaults"). A finite-set run of
  // any other method on a table with heavy-tailed columns says so in its reason.
  bool readsHeavyTails = false;
  // Its reading of mismatched pairs is not below its reading of pairs, so a dependent table's reading can fall on
  // either side of its permuted readings: the diffusion estimators' score gap, which a conditional score fed the
  // wrong y widens (mmg reads about twice its paired reading on permuted ys: docs/user-guide.md, "A test of
  // independence"). Its test of independence is two-sided (engine/independence_test.h).
  bool testsBothSides = false;
};

// How the finite-sample protocol tells a better held-out reading: higher for a lower bound, by a lower held-out loss
// for selectsByHeldOutLoss, lower for an upper bound without one, and not at all for a method that is none of these.
// CLUB is an upper bound only while q(y|x) is close to p(y|x), and a q narrower than p (one fitted to the training
// rows) reads higher, not lower: its better q is the one with the higher held-out likelihood, not the lower reading.
enum class HeldOutSelection { HighestReading, LowestReading, LowestLoss, None };
inline HeldOutSelection heldOutSelection(const MethodInfo& info) {
  if (info.lowerBound) return HeldOutSelection::HighestReading;
  if (info.selectsByHeldOutLoss) return HeldOutSelection::LowestLoss;
  return info.upperBound ? HeldOutSelection::LowestReading : HeldOutSelection::None;
}

// A finite sample set's shape (the run's `samples`), as validation knows it before a row is drawn.
struct SampleSetShape {
  qint64 rows = 0;
  int dimX = 0, dimY = 0;
  bool subview = false;  // x' columns beside x
};

// A horizontal reference line a bound can never exceed, e.g. {"log K", 4.85}.
using Ceiling = NamedValue;
// A part of a bound that is a sum, e.g. {"I_CNCE(x;y|x')", 2.95}.
using Term = NamedValue;

class MethodPlugin {
 public:
  virtual ~MethodPlugin() = default;
  virtual MethodInfo info() const = 0;
  // Cross-field checks beyond each ParamSpec's own range (e.g. "K even", KSG's samples against the task's dim).
  // `params` and `taskParams` are already range-checked, defaults filled.
  virtual QString validate(const ParamMap& params, const TaskInfo& task, const ParamMap& taskParams) const {
    Q_UNUSED(params);
    Q_UNUSED(task);
    Q_UNUSED(taskParams);
    return {};
  }
  // The memory a run with these (validated) settings will take at its peak (method/memory_need.h); validation
  // refuses what the machine cannot hold. The default covers the score-matrix critics: with K it holds a few K x K
  // matrices (or an oracle's K x K pairs), otherwise nothing large.
  virtual MemoryNeed memoryNeed(const ParamMap& params, const TaskInfo& task, const ParamMap& taskParams) const {
    return scoreMatrixNeed(params, task, taskParams);
  }
  // A method that trains nothing (info().trains false) reads a finite sample set's rows all at once: its checks of
  // its settings against that set (KSG: more rows than its k, and the memory of them all), or "".
  virtual QString validateWholeSet(const ParamMap& params, const SampleSetShape& set) const {
    Q_UNUSED(params);
    Q_UNUSED(set);
    return {};
  }
  virtual QList<Ceiling> ceilings(const ParamMap& params) const = 0;
  // The ceilings of a run on `task`: ceilings(params), and those the task's size sets (the diffusion estimators'
  // log-SNR range caps what each x direction can add). What the run reports and draws.
  virtual QList<Ceiling> ceilingsOn(const ParamMap& params, const TaskModel& task) const {
    Q_UNUSED(task);
    return ceilings(params);
  }
  // A warning about a finished reading that looks right but is not to be trusted, saying what to change (AMMI:
  // a prior its encoder fooled), or "". `terms` are the evaluation's, averaged.
  virtual QString warning(const ParamMap& params, const QList<Term>& terms) const {
    Q_UNUSED(params);
    Q_UNUSED(terms);
    return {};
  }
  virtual std::unique_ptr<Estimator> create(const EstimatorContext& context) const = 0;
  // Joint samples one training step (and one evaluation batch) reads, from validated params: what a finite sample
  // set's training and held-out parts must each hold. The default reads K, else batch; 1 when the method has neither.
  virtual qint64 samplesPerBatch(const ParamMap& params) const {
    const SharedMethodOptions shared = SharedMethodOptions::from(params);
    return shared.K.value_or(shared.batch.value_or(1));
  }
  // What a finished reading on this task can be (reading_limits.h); outside it the run fails as diverged.
  virtual ReadingLimits readingLimits(const ParamMap& params, const TaskModel& task) const {
    return defaultReadingLimits(info(), ceilings(params), task);
  }
};

}  // namespace milab

// Bump the version when the interface changes: the registry refuses plugins built against another one.
#define MILAB_METHOD_PLUGIN_IID "org.milab.MethodPlugin/10"
Q_DECLARE_INTERFACE(milab::MethodPlugin, MILAB_METHOD_PLUGIN_IID)
