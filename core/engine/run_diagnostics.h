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
//   inconsistent_sizes            with extrapolate, the readings at N, N/2, ... bend away from a line in 1/N beyond
//                                 their noise: the extrapolated value is not to be trusted (engine/size_fit.h)
#include <QList>
#include <QVector>

#include "engine/curve_recorder.h"
#include "engine/run.h"

namespace milab {

struct MethodInfo;

// The flags of a finished run: `result` as it is reported, `curve` its training curve with its held-out readings.
QList<RunFlag> runDiagnostics(const RunSpec& spec, const MethodInfo& info, const RunResult& result,
                              const QVector<CurvePoint>& curve);

}  // namespace milab
