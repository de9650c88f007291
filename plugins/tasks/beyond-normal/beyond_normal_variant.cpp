// The id grammar both ways, the ranges of a variant's fields, and the distribution a variant makes.
#include "beyond_normal_variant.h"

#include <QLocale>
#include <QStringList>
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

namespace milab::beyond_normal {

namespace {

constexpr int kMaxDim = 500;  // per side: a covariance of 1000 x 1000 is still read in milliseconds

struct Prefix {
  const char* text;
  Transform transform;
  const char* name;
};
// bmi writes a transform before its base's id: spiral-normal_cdf-X is spiral(normal_cdf(X)).
const Prefix kPrefixes[] = {{"normal_cdf", Transform::NormalCdf, "Normal CDF"},
                            {"half_cube", Transform::HalfCube, "Half-cube"},
                            {"asinh", Transform::Asinh, "Asinh"},
                            {"wiggly", Transform::Wiggly, "Wiggly"},
                            {"spiral", Transform::Spiral, "Spiral"},
                            {"swissroll_x", Transform::SwissRollX, "Swiss roll"}};

const Prefix& prefixOf(Transform t) {
  return *std::find_if(std::begin(kPrefixes), std::end(kPrefixes), [t](const Prefix& p) { return p.transform == t; });
}

// A family's spelling in an id and the fields after it, in order.
struct FamilySpelling {
  Family family;
  const char* text;
  QStringList fields;
};
const FamilySpelling kFamilies[] = {
    {Family::Normal1v1, "1v1-normal", {"correlation"}},
    {Family::Bimodal1v1, "1v1-bimodal", {"correlation"}},
    {Family::Additive1v1, "1v1-additive", {"epsilon"}},
    {Family::Dense, "multinormal-dense", {"dim_x", "dim_y", "off_diag"}},
    {Family::Sparse, "multinormal-sparse", {"dim_x", "dim_y", "n_interacting", "strength"}},
    {Family::StudentIdentity, "student-identity", {"dim_x", "dim_y", "dof"}},
};

const FamilySpelling& spellingOf(Family f) {
  return *std::find_if(std::begin(kFamilies), std::end(kFamilies),
                       [f](const FamilySpelling& s) { return s.family == f; });
}

struct FieldRange {
  double low, high;
  bool integer;
};

// Where a field of `v` may lie; several bounds depend on its dimensions, read before them.
FieldRange rangeOf(const QString& field, const TaskVariant& v) {
  if (field == "dim_x" || field == "dim_y") return {1, kMaxDim, true};
  if (field == "correlation") return {-0.999, 0.999, false};
  if (field == "epsilon" || field == "strength") return {1e-3, 100, false};
  if (field == "dof") return {0.1, 1000, false};
  if (field == "n_interacting") return {0, double(std::min(v.dimX, v.dimY)), true};
  // off_diag: (1 - c) I + c J is positive definite for -1/(n-1) < c < 1.
  return {-1.0 / (v.dimX + v.dimY - 1) + 1e-3, 0.999, false};
}

double* fieldOf(const QString& field, TaskVariant* v) {
  if (field == "correlation") return &v->correlation;
  if (field == "epsilon") return &v->epsilon;
  if (field == "off_diag") return &v->offDiag;
  if (field == "strength") return &v->strength;
  return &v->dof;
}

double valueOf(const QString& field, const TaskVariant& v) {
  if (field == "dim_x") return v.dimX;
  if (field == "dim_y") return v.dimY;
  if (field == "n_interacting") return v.interacting;
  if (field == "correlation") return v.correlation;
  if (field == "epsilon") return v.epsilon;
  if (field == "off_diag") return v.offDiag;
  if (field == "strength") return v.strength;
  return v.dof;
}

void setField(const QString& field, double value, TaskVariant* v) {
  if (field == "dim_x")
    v->dimX = int(value);
  else if (field == "dim_y")
    v->dimY = int(value);
  else if (field == "n_interacting")
    v->interacting = int(value);
  else
    *fieldOf(field, v) = value;
}

// "" or the rule `value` (written `text`; NaN: not a number) breaks.
QString outOfRange(const FieldRange& r, double value, const QString& text) {
  const bool inRange =
      std::isfinite(value) && value >= r.low && value <= r.high && (!r.integer || value == std::floor(value));
  if (inRange) return {};
  return QStringLiteral("must be %1 in [%2, %3], got '%4'")
      .arg(r.integer ? "an integer" : "a number", shortestNumber(r.low), shortestNumber(r.high), text);
}

// "" or what a transform at `index` of `v`'s chain needs that it lacks.
QString transformNeed(const TaskVariant& v, int index) {
  const Transform t = v.transforms[index];
  if (t == Transform::Spiral && (v.dimX < 2 || v.dimY < 3))
    return QStringLiteral(
               "needs dim_x >= 2 and dim_y >= 3 (a rotation of y in its second and third coordinates), got %1 × %2")
        .arg(v.dimX)
        .arg(v.dimY);
  // Swiss roll rolls a 1-d x in [0, 1]: the additive family's x, or what a normal CDF made.
  const bool unitInterval =
      index == 0 ? v.family == Family::Additive1v1 : v.transforms[index - 1] == Transform::NormalCdf;
  if (t == Transform::SwissRollX && (v.dimX != 1 || !unitInterval))
    return QStringLiteral("needs a 1-dimensional x in [0, 1] (write it on normal_cdf-...)");
  return {};
}

// The base's fields of an id after its family's spelling: "" or the error line.
QString readFields(const QString& id, const FamilySpelling& family, const QStringList& texts, TaskVariant* v) {
  if (texts.size() != family.fields.size())
    return QStringLiteral("task: '%1' has %2 fields after '%3-', expected %4")
        .arg(id)
        .arg(texts.size())
        .arg(family.text)
        .arg(family.fields.size());
  for (int i = 0; i < texts.size(); ++i) {
    bool ok = false;
    double value = texts[i].toDouble(&ok);
    if (!ok) value = std::numeric_limits<double>::quiet_NaN();
    if (const QString rule = outOfRange(rangeOf(family.fields[i], *v), value, texts[i]); !rule.isEmpty())
      return QStringLiteral("task: %1 in '%2' %3").arg(family.fields[i], id, rule);
    setField(family.fields[i], value, v);
  }
  return {};
}

QString baseName(const TaskVariant& v, bool ownCovariance) {
  switch (v.family) {
    case Family::Normal1v1:
      return "Bivariate normal 1 × 1";
    case Family::Bimodal1v1:
      return "Bimodal 1 × 1";
    case Family::Additive1v1:
      return QStringLiteral("Uniform 1 × 1 (additive noise=%1)").arg(shortestNumber(v.epsilon));
    case Family::Dense:
      return QStringLiteral("Multinormal %1 × %2 (%3)")
          .arg(v.dimX)
          .arg(v.dimY)
          .arg(ownCovariance ? "your covariance" : "dense");
    case Family::Sparse:
      return QStringLiteral("Multinormal %1 × %2 (%3)")
          .arg(v.dimX)
          .arg(v.dimY)
          .arg(v.interacting == 2 ? "2-pair" : "sparse");
    case Family::StudentIdentity:
      return QStringLiteral("Student-t %1 × %2 (%3dof=%4)")
          .arg(v.dimX)
          .arg(v.dimY)
          .arg(ownCovariance ? "your dispersion, " : "", shortestNumber(v.dof));
  }
  return {};
}

Eigen::MatrixXd correlationOf(const Eigen::MatrixXd& covariance) {
  const Eigen::VectorXd inverseSd = covariance.diagonal().cwiseSqrt().cwiseInverse();
  return inverseSd.asDiagonal() * covariance * inverseSd.asDiagonal();
}

}  // namespace

QString shortestNumber(double v) { return QString::number(v, 'g', QLocale::FloatingPointShortest); }

std::optional<Family> familyNamed(const QString& spelling) {
  for (const FamilySpelling& f : kFamilies)
    if (spelling == QLatin1String(f.text)) return f.family;
  return std::nullopt;
}

std::optional<Transform> transformNamed(const QString& name) {
  for (const Prefix& p : kPrefixes)
    if (name == QLatin1String(p.text)) return p.transform;
  return std::nullopt;
}

QStringList transformNames() {
  QStringList names;
  for (const Prefix& p : kPrefixes) names << p.text;
  return names;
}

bool isOneByOne(Family f) { return f == Family::Normal1v1 || f == Family::Bimodal1v1 || f == Family::Additive1v1; }

QString readTaskId(const QString& id, TaskVariant* out) {
  TaskVariant v;
  QString rest = id;
  QList<Transform> outermostFirst;
  for (bool found = true; found;) {
    found = false;
    for (const Prefix& p : kPrefixes)
      if (rest.startsWith(QLatin1String(p.text) + '-')) {
        outermostFirst << p.transform;
        rest = rest.mid(int(std::strlen(p.text)) + 1);
        found = true;
      }
  }
  const FamilySpelling* family = nullptr;
  for (const FamilySpelling& f : kFamilies)
    if (rest == QLatin1String(f.text) || rest.startsWith(QLatin1String(f.text) + '-')) family = &f;
  if (!family)
    return QStringLiteral("task: unknown task '%1' (the nearest ids: %2; milab-cli tasks lists them all)")
        .arg(id, nearestTaskIds(id).join(", "));
  v.family = family->family;
  const int length = int(std::strlen(family->text));
  const QStringList texts = rest.size() > length ? rest.mid(length + 1).split('-') : QStringList();
  if (const QString err = readFields(id, *family, texts, &v); !err.isEmpty()) return err;
  std::reverse(outermostFirst.begin(), outermostFirst.end());
  v.transforms = outermostFirst;
  for (int i = 0; i < v.transforms.size(); ++i)
    if (const QString need = transformNeed(v, i); !need.isEmpty())
      return QStringLiteral("task: %1 in '%2' %3").arg(prefixOf(v.transforms[i]).text, id, need);
  *out = v;
  return {};
}

VariantError checkVariant(const TaskVariant& v) {
  for (const QString& field : spellingOf(v.family).fields) {
    const double value = valueOf(field, v);
    if (const QString rule = outOfRange(rangeOf(field, v), value, shortestNumber(value)); !rule.isEmpty())
      return {field, rule};
  }
  for (int i = 0; i < v.transforms.size(); ++i)
    if (const QString need = transformNeed(v, i); !need.isEmpty())
      return {"transforms", QStringLiteral("%1 %2").arg(prefixOf(v.transforms[i]).text, need)};
  return {};
}

QString variantId(const TaskVariant& v) {
  QStringList parts{spellingOf(v.family).text};
  for (const QString& field : spellingOf(v.family).fields) parts << shortestNumber(valueOf(field, v));
  QString id = parts.join('-');
  for (const Transform t : v.transforms) id = QStringLiteral("%1-%2").arg(prefixOf(t).text, id);
  return id;
}

TaskDefinition defineTask(const TaskVariant& v, bool ownCovariance) {
  TaskDefinition d;
  d.id = variantId(v);
  const bool oneByOne = isOneByOne(v.family);
  d.dimX = oneByOne ? 1 : v.dimX;
  d.dimY = oneByOne ? 1 : v.dimY;
  const int n = d.dimX + d.dimY;
  switch (v.family) {
    case Family::Normal1v1:
    case Family::Bimodal1v1:
      d.covariance = Eigen::Matrix2d{{1.0, v.correlation}, {v.correlation, 1.0}};
      if (v.family == Family::Bimodal1v1) d.transforms << Transform::NormalCdf << Transform::Bimodal;
      break;
    case Family::Additive1v1:
      d.base = Base::AdditiveUniform;
      d.epsilon = v.epsilon;
      break;
    case Family::Dense:
      d.covariance = Eigen::MatrixXd::Constant(n, n, v.offDiag);
      d.covariance.diagonal().setOnes();
      break;
    case Family::Sparse:
      d.covariance = correlationOf(sparseLatentCovariance(v.dimX, v.dimY, v.interacting, v.strength));
      break;
    case Family::StudentIdentity:
      d.base = Base::StudentT;
      d.dof = v.dof;
      d.covariance = Eigen::MatrixXd::Identity(n, n);
      break;
  }
  d.transforms << v.transforms;
  QString name = baseName(v, ownCovariance);
  for (const Transform t : v.transforms)
    name = t == Transform::SwissRollX ? QStringLiteral("Swiss roll 2 × 1 @ %1").arg(name)
                                      : QStringLiteral("%1 @ %2").arg(prefixOf(t).name, name);
  d.name = name;
  return d;
}

}  // namespace milab::beyond_normal
