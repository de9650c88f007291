#pragma once
// What a finished run's own numbers say about how far to trust its reading, in the spirit of bmi's TrainingLog:
// each a named flag (RunFlag) with a one-line reason that carries the numbers. Silent on a run that converged and
// reads below its ceilings. Torch-free.
//   at_ceiling                    the estimate within its noise of a ceiling (log K, log N_test, a diffusion
//                                 estimator's log-SNR cap): the truth may be higher than the estimator can read
//   early_stopping_not_triggered  early stopping was on and all the steps ran: the held-out reading may still rise
//   still_rising                  a lower bound's training reading rose over the last fifth of training beyond its
//                                 noise: training had not converged
//   overfitting                   a lower bound's held-out reading fell from its best beyond its noise
//   training_diverged             the training loss rose to over a thousand times its first value (lr too high): the
//                                 reading may be a collapsed network's (one of exactly 0 with no spread fails the run:
//                                 engine/final_reading_check.h)
//   past_limit                    the estimate past its method's limit (reading_limits.h) by less than the noise margin
//                                 that lets it through: a reading past its limit is seldom right (final_reading_check)
//   inconsistent_sizes            with extrapolate, the readings at N, N/2, ... bend away from a line in 1/N beyond
//                                 their noise: the extrapolated value is not to be trusted (engine/size_fit.h)
#include <QList>
#include <QVector>
#include <optional>

#include "engine/curve_recorder.h"
#include "engine/run.h"

namespace milab {

struct MethodInfo;

// Where a training loss blew up: the first step whose loss is over kLossBlowUp times the first finite loss (at least
// 1 in magnitude), with both losses; none when it never did.
inline constexpr double kLossBlowUp = 1000;
struct LossBlowUp {
  int firstStep = 0, step = 0;
  double firstLoss = 0, loss = 0;
};
std::optional<LossBlowUp> lossBlowUp(const QVector<CurvePoint>& curve);
// The reason a diverged training's reading is not to be trusted, with the numbers.
QString divergedReason(const LossBlowUp& blowUp);

// at_ceiling's flag for `result`, or none.
std::optional<RunFlag> atCeiling(const RunResult& result);

// The flags of a finished run: `result` as it is reported, `curve` its training curve with its held-out readings.
QList<RunFlag> runDiagnostics(const RunSpec& spec, const MethodInfo& info, const RunResult& result,
                              const QVector<CurvePoint>& curve);

}  // namespace milab
