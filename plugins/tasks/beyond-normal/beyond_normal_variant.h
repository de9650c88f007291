#pragma once
// A Beyond-Normal family's variant as typed values: what an id says (readTaskId, the id grammar) and what task
// `beyond-normal`'s keys say (the plugin fills one) are the same TaskVariant, checked by the same rules
// (checkVariant), built by one function (defineTask) and spelled by one (variantId): no id is written only to be
// parsed back, and no display name is patched by string replacement. Eigen and Qt Core only.
#include <QList>
#include <QString>
#include <QStringList>
#include <optional>

#include "beyond_normal.h"

namespace milab::beyond_normal {

enum class Family { Normal1v1, Bimodal1v1, Additive1v1, Dense, Sparse, StudentIdentity };

struct TaskVariant {
  Family family = Family::Dense;
  int dimX = 1, dimY = 1;       // dense, sparse, student-identity; the 1v1 families are 1 x 1
  double correlation = 0;       // 1v1-normal, 1v1-bimodal
  double epsilon = 0;           // 1v1-additive: the uniform noise's half-width
  double offDiag = 0;           // dense: every correlation
  int interacting = 0;          // sparse: pairs (x_i, y_i) sharing a latent
  double strength = 0;          // sparse: the latent's weight
  double dof = 0;               // student-identity
  QList<Transform> transforms;  // applied in this order, the first to the base's samples (the id writes it last)
};

// A rule a variant breaks: the field ("dof", or "spiral" for a transform) and what is wrong ("must be a number in
// [0.1, 1000], got '0'", "needs dim_x >= 2 ...").
struct VariantError {
  QString field, rule;
  bool isEmpty() const { return field.isEmpty(); }
};

// Reads an id (bmi's or a variant of one of its families) into `out`: "" or one line, "task: unknown task ...",
// "task: 'ID' has N fields ...", or "task: FIELD in 'ID' RULE" for the first rule it breaks.
QString readTaskId(const QString& id, TaskVariant* out);

// The first rule a variant breaks, its fields in the id's order (several ranges depend on the dimensions), then
// its transforms' needs; none for a variant that defineTask can build.
VariantError checkVariant(const TaskVariant& v);

// A family by its id spelling ("multinormal-dense"), a transform by its ("half_cube"); nullopt for none. The names in
// the id grammar's order, and whether a family is 1 x 1 (its dimensions are not fields).
std::optional<Family> familyNamed(const QString& spelling);
std::optional<Transform> transformNamed(const QString& name);
QStringList transformNames();
bool isOneByOne(Family f);

// bmi's id of a variant: the base's fields, the last transform written first ("spiral-normal_cdf-...").
QString variantId(const TaskVariant& v);

// The distribution of a variant that passed checkVariant: its base (covariance, dof, epsilon), transforms, display
// name ("Half-cube @ Multinormal 3 × 3 (2-pair)") and id (variantId). `ownCovariance`: the base's covariance (dense)
// or dispersion (student-identity) is a user's, which the caller puts in; the name says so.
TaskDefinition defineTask(const TaskVariant& v, bool ownCovariance = false);

// The shortest decimal that reads back as `v` (ids and names write their numbers so).
QString shortestNumber(double v);

}  // namespace milab::beyond_normal
