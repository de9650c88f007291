#pragma once
// The AMMI paper's Figure 1(a): how well a Markov prior of order r can stand in for the entropy of a code.
// An encoder p(z|y) (bmmi or ammi, any order o) is partly trained on the run's task for `steps` steps and
// frozen; on one fixed batch of `fixed_batch` samples, for every r = o .. max_order:
//   - optimal: the least cross entropy any order-r prior reaches, in closed form (markov::optimalPrior);
//   - fitted:  the cross entropy AMMI's own prior FF(Theta) reaches after `fit_steps` Adam steps (the paper's
//              "minimise over theta"; its lowest value seen), skipped when fit_steps is 0;
// both against the brute-force entropy H(Z) of the batch's aggregate posterior (m <= 16) and m log 2.
// Torch-free header: the app drives the sweep through it.
#include <QList>
#include <QString>
#include <atomic>
#include <functional>

#include "engine/prior_order_sweep_options.h"  // the sweep's keys, read once
#include "engine/run_spec.h"

namespace milab {

class MethodPlugin;
class MethodRegistry;
struct Experiment;

struct PriorOrderSweepSpec {
  RunSpec encoder;  // method ammi or bmmi; its steps train the encoder
  ParamMap sweep;   // validated against priorOrderSweepSpecs()
};

// Splits a flat experiment into the encoder's run and the sweep's keys and validates both, including the
// cross-checks (method, bits <= 16, order_y <= max_order < bits, fixed_batch x 2^bits). "" or one error line.
QString priorOrderSweepFromFlat(const QVariantMap& flat, const MethodRegistry& registry, PriorOrderSweepSpec* out);
// The same from an experiment file's contents: one encoder (one method row at most, no grid axes).
QString priorOrderSweepFromExperiment(const Experiment& experiment, const MethodRegistry& registry,
                                      PriorOrderSweepSpec* out);

struct PriorOrderPoint {
  int order = 0;
  double optimal = 0;  // nats
  double fitted = 0;   // nats; NaN when not fitted
  double seconds = 0;  // time to fit this order
};

struct PriorOrderSweep {
  double bruteForceEntropy = 0;  // H(Z) of the fixed batch's aggregate posterior, nats
  double uniform = 0;            // m log 2
  double encoderSeconds = 0;
  QList<PriorOrderPoint> points;
  QString device;
  QString error;  // non-empty: the sweep failed (what it measured so far is kept)
  bool cancelled = false;
};

// The sweep's stretches of work, in order; each polls the cancel flag as it goes.
enum class PriorOrderPhase { TrainingEncoder, BruteForceEntropy, FittingOrder };

// Runs on the calling thread; `onPoint` sees each order as it ends, `onPhase` (may be empty) each stretch as it
// begins (with the order r for FittingOrder, else -1).
PriorOrderSweep runPriorOrderSweep(const PriorOrderSweepSpec& spec, const MethodPlugin& method,
                                   const std::function<void(const PriorOrderPoint&)>& onPoint,
                                   const std::atomic<bool>& cancel,
                                   const std::function<void(PriorOrderPhase, int order)>& onPhase = {});

}  // namespace milab
