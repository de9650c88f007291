#pragma once
// bmi's second suite (Czyż et al., "On the properties and estimation of pointwise mutual information profiles";
// cbg-ethz/bmi workflows/benchmark/v2/config.py): 26 tasks, 13 of them the first suite's (plugins/tasks/beyond-normal)
// and 13 "Bend and Mix" tasks, mixtures of Gaussians (gaussian_mixture.h) whose x may be bent by a diffeomorphism.
// Written anew from bmi's src/bmi/benchmark/tasks/mixtures.py, by its ids:
//   1v1-X-R                    two bivariate normals of correlation R and -R, half each (an X);
//   1v1-AI                     six narrow normals drawing the letters A and I;
//   2v1-waves-N-A-F            N normals on a line, x bent by x0 += A sin(F x1), then scaled;
//   2v1-galaxy-S-D             two unit balls D apart in 3-d, x (2-d) spiralled by angle S |x|^2;
//   DXv1-concentric_gaussians-N  N isotropic normals of standard deviation i = 1..N in x, y = i (plus 0.01 noise);
//   mult-sparse-w-inliers-DX-DY-K-S-F  bmi's sparse normal (multinormal-sparse-DX-DY-K-S) with a share F of its rows
//                              replaced by independent draws from its marginals.
// A bend is a diffeomorphism of x alone, so it cancels in the pointwise MI (its Jacobian is in p(x, y) and in p(x)):
// the truth is the unbent mixture's, by Monte Carlo over the mixture's exact log densities. Eigen and Qt Core only.
#include <Eigen/Core>
#include <QString>
#include <QStringList>
#include <memory>
#include <optional>

#include "gaussian_mixture.h"

namespace milab::bend_and_mix {

enum class Bend { None, Waves, Galaxy };

struct TaskDefinition {
  QString id;    // bmi's id
  QString name;  // e.g. "Galaxy 2 × 1"
  std::shared_ptr<const GaussianMixture> mixture;
  Bend bend = Bend::None;
  double waveAmplitude = 0, waveFrequency = 0;  // waves
  double spiralSpeed = 0;                       // galaxy
};

// The 13 tasks of this family, in the order of bmi's second suite.
const QStringList& bendAndMixTaskIds();
// The 26 ids of bmi's second suite, in its order; the 13 not of this family are the first suite's.
const QStringList& secondSuiteTaskIds();

// Reads an id of this family (bmi's, or a variant: 3v1-concentric_gaussians-7). Returns "" and fills *out; "task:
// unknown task 'ID'" for an id of no family here; or one line naming the field and its allowed range.
QString parseTaskId(const QString& id, TaskDefinition* out);

// x's rows [n, dimX] bent as the task bends them (a copy; the rows themselves for Bend::None).
Eigen::MatrixXd bendX(const TaskDefinition& task, const Eigen::MatrixXd& x);

}  // namespace milab::bend_and_mix
