#pragma once
// The "Beyond Normal" benchmark (Czyz et al., NeurIPS 2023; cbg-ethz/bmi, src/bmi/benchmark/task_list.py): its
// distributions by bmi's own task ids, with their exact mutual information. Written anew from bmi's definitions:
//   bases       1v1-normal-R (bivariate normal, correlation R), multinormal-dense-DX-DY-C (equicorrelation C),
//               multinormal-sparse-DX-DY-K-S (bmi's latent-variable model: K pairs (X_i, Y_i) sharing a latent of
//               weight S, every coordinate with unit noise, the others topped up to the same variance),
//               student-identity-DX-DY-NU (multivariate Student-t, identity dispersion, NU degrees of freedom),
//               1v1-additive-E (X ~ U(0,1), Y = X + U(-E, E)), 1v1-bimodal-R (1v1-normal-R pushed through the
//               normal CDF and the inverse CDFs of two Gaussian mixtures);
//   transforms  normal_cdf-, half_cube- (x sqrt|x|), asinh-, wiggly-, spiral- (x rotated in one plane by an angle
//               growing with |x|^2), swissroll_x- (a uniform 1-d x rolled into 2-d); each is a bijection onto its
//               image, so the MI is the base's.
// The families are general: any dimensions, correlation, dof or epsilon in an id (student-identity-4-4-5) make a
// variant with its own exact truth, and a covariance (multinormal) or dispersion (Student-t) of a user's own is
// read by parseCovariance. Eigen and Qt Core only: sampling lives in beyond_normal_sampler.h.
#include <Eigen/Core>
#include <QList>
#include <QString>
#include <QStringList>
#include <optional>

namespace milab::beyond_normal {

enum class Base { Multinormal, StudentT, AdditiveUniform };
enum class Transform { NormalCdf, HalfCube, Asinh, Wiggly, Spiral, SwissRollX, Bimodal };

struct TaskDefinition {
  QString id;     // bmi's id
  QString name;   // e.g. "Half-cube @ Multinormal 3 × 3 (2-pair)"
  Base base = Base::Multinormal;
  int dimX = 1, dimY = 1;       // of the base; swissroll_x makes x 2-dimensional (sampledDimX)
  Eigen::MatrixXd covariance;   // multinormal: covariance of (x, y); Student-t: dispersion
  // The covariance's lower Cholesky factor, kept once the task is built (BeyondNormalTaskModel) so that a batch
  // does not factor a covariance of up to 1000 x 1000 again; empty: each draw factors it (sampleTask).
  Eigen::MatrixXd covarianceFactor;
  double dof = 0;               // Student-t
  double epsilon = 0;           // additive uniform noise
  QList<Transform> transforms;  // applied in this order, the first to the base's samples

  int sampledDimX() const;
  int sampledDimY() const { return dimY; }
};

// The 40 task ids of bmi's benchmark, in its order.
const QStringList& benchmarkTaskIds();

// Reads an id (bmi's or a variant of one of its families). Returns "" and fills *out, or one line saying what is
// wrong: "task: unknown task 'x' (the nearest ids: ...)", or the field and its allowed range. The id is read into
// the typed variant the keys of task beyond-normal fill too (beyond_normal_variant.h), then built from it.
QString parseTaskId(const QString& id, TaskDefinition* out);

// The exact I(x; y) in nats: the base's, since every transform is a bijection onto its image.
double exactMutualInformation(const TaskDefinition& task);

// CLUB's reading with q(y|x) the true conditional (Cheng et al., 2020, eq. 4), for an untransformed multinormal
// task, whose p(y|x) = N(A x, S) is in CLUB's Gaussian family: E_joint log q - E_x E_y log q = tr(S^-1 Cov y) - dim y.
// It is above the MI (0.5 ln(1/(1 - r^2)) against r^2 / (1 - r^2) for one pair of correlation r), and what a
// learnt CLUB reads at best; none for any other task, whose p(y|x) is not Gaussian.
std::optional<double> clubOracleValue(const TaskDefinition& task);

// Pieces of the truths, exposed for the tests that check them against independent computations.
// Differential entropy of a standard k-variate Student-t with nu degrees of freedom, less its dispersion's
// 1/2 log det (Arellano-Valle, Contreras-Reyes & Genton 2013, eq. 7).
double studentEntropyWithoutDispersion(int k, double nu);
// I(X;Y) of X ~ U(0,1), Y = X + U(-e, e).
double additiveUniformMi(double epsilon);
// bmi's sparse ("2-pair") covariance before normalisation to correlations.
Eigen::MatrixXd sparseLatentCovariance(int dimX, int dimY, int interacting, double strength);

// A covariance written out by a user: rows separated by ';', entries by ',' or spaces ("1, 0.6; 0.6, 2"). Returns
// "" and fills *out, or one line naming the key `field` and what is wrong (shape, a cell that is not a finite
// number, asymmetry, not positive definite).
QString parseCovariance(const QString& text, int size, const QString& field, Eigen::MatrixXd* out);

// The ids nearest to `id` (edit distance), for the error of an unknown one.
QStringList nearestTaskIds(const QString& id, int count = 3);

}  // namespace milab::beyond_normal
