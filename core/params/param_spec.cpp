#include "params/param_spec.h"

#include <cmath>

#include "params/param_labels.h"
#include "params/plain_number.h"

namespace milab {

namespace {
// What every factory sets: the key, its type, default and help, and the words a person reads for it.
ParamSpec named(QString name, ParamSpec::Type type, QVariant def, QString help) {
  ParamSpec s;
  s.name = std::move(name);
  s.type = type;
  s.defaultValue = std::move(def);
  s.help = std::move(help);
  const ParamWords words = wordsFor(s.name);
  s.label = words.label;
  s.unit = words.unit;
  return s;
}
}  // namespace

ParamSpec ParamSpec::integer(QString name, int def, double min, double max, QString help) {
  ParamSpec s = named(std::move(name), Type::Int, def, std::move(help));
  s.minimum = min;
  s.maximum = max;
  return s;
}

ParamSpec ParamSpec::real(QString name, double def, double min, double max, QString help, bool minExclusive,
                          bool maxExclusive) {
  ParamSpec s = named(std::move(name), Type::Double, def, std::move(help));
  s.minimum = min;
  s.maximum = max;
  s.minExclusive = minExclusive;
  s.maxExclusive = maxExclusive;
  return s;
}

ParamSpec ParamSpec::boolean(QString name, bool def, QString help) {
  return named(std::move(name), Type::Bool, def, std::move(help));
}

ParamSpec ParamSpec::choice(QString name, QStringList choices, QString def, QString help) {
  ParamSpec s = named(std::move(name), Type::Choice, def, std::move(help));
  s.choices = std::move(choices);
  return s;
}

ParamSpec ParamSpec::numberList(QString name, double min, double max, QString help, bool minExclusive) {
  ParamSpec s = named(std::move(name), Type::NumberList, QString(), std::move(help));
  s.minimum = min;
  s.maximum = max;
  s.minExclusive = minExclusive;
  return s;
}

ParamSpec ParamSpec::text(QString name, QString def, QString help) {
  return named(std::move(name), Type::Text, std::move(def), std::move(help));
}

static QString tenDigits(double v) { return QString::number(v, 'g', 10); }

QString describeAllowed(const ParamSpec& spec) {
  switch (spec.type) {
    case ParamSpec::Type::Bool:
      return QStringLiteral("true or false (yes/no and 1/0 read alike)");
    case ParamSpec::Type::Choice:
      return QStringLiteral("one of ") + spec.choices.join('|');
    case ParamSpec::Type::NumberList:
      return QStringLiteral("a comma-separated list of numbers in %1%2, %3] (or empty)")
          .arg(spec.minExclusive ? "(" : "[", tenDigits(spec.minimum), tenDigits(spec.maximum));
    case ParamSpec::Type::Text:
      return QStringLiteral("a line of text");
    case ParamSpec::Type::Int:
    case ParamSpec::Type::Double: {
      const QString kind =
          spec.type == ParamSpec::Type::Int ? QStringLiteral("an integer") : QStringLiteral("a number");
      return QStringLiteral("%1 in %2%3, %4%5%6")
          .arg(kind, spec.minExclusive ? "(" : "[", tenDigits(spec.minimum), tenDigits(spec.maximum),
               spec.maxExclusive ? ")" : "]", spec.optional ? QStringLiteral(" or null (automatic)") : QString());
    }
  }
  return {};
}

static QString shown(const QVariant& v) {
  if (v.metaType().id() == QMetaType::QString) return QStringLiteral("'%1'").arg(v.toString());
  if (v.isNull()) return QStringLiteral("null");
  return v.toString();
}

static QString failure(const ParamSpec& spec, const QVariant& value) {
  return QStringLiteral("%1: must be %2, got %3").arg(spec.name, describeAllowed(spec), shown(value));
}

QString checkParam(const ParamSpec& spec, const QVariant& value, QVariant* out) {
  if (value.isNull() || !value.isValid()) {
    if (spec.optional) {
      *out = QVariant();
      return {};
    }
    return failure(spec, value);
  }
  const bool isString = value.metaType().id() == QMetaType::QString;
  switch (spec.type) {
    case ParamSpec::Type::Bool: {
      if (value.metaType().id() == QMetaType::Bool) {
        *out = value.toBool();
        return {};
      }
      const QString s = value.toString().toLower();
      if (isString && (s == "true" || s == "1" || s == "yes"))
        *out = true;
      else if (isString && (s == "false" || s == "0" || s == "no"))
        *out = false;
      else
        return failure(spec, value);
      return {};
    }
    case ParamSpec::Type::Choice: {
      if (!isString || !spec.choices.contains(value.toString())) return failure(spec, value);
      *out = value.toString();
      return {};
    }
    case ParamSpec::Type::NumberList: {
      if (value.metaType().id() == QMetaType::Bool) return failure(spec, value);
      const QString text = value.toString().trimmed();
      QStringList canonical;
      if (!text.isEmpty()) {
        for (const QString& part : text.split(',')) {
          // Spaces after a comma are the list's layout ("32, 128"); within an entry they are refused.
          const std::optional<double> number = plainNumber(part.trimmed());
          if (!number) return failure(spec, value);
          const double v = *number;
          const bool lowOk = spec.minExclusive ? v > spec.minimum : v >= spec.minimum;
          if (!lowOk || v > spec.maximum) return failure(spec, value);
          canonical << tenDigits(v);
        }
      }
      *out = canonical.join(',');
      return {};
    }
    case ParamSpec::Type::Text: {
      if (!isString) return failure(spec, value);
      const QString text = value.toString();
      for (const QChar c : text)
        if (c.category() == QChar::Other_Control)
          return failure(spec, QStringLiteral("(text with a control character)"));
      *out = text;
      return {};
    }
    case ParamSpec::Type::Int:
    case ParamSpec::Type::Double: {
      if (value.metaType().id() == QMetaType::Bool) return failure(spec, value);
      const std::optional<double> typed = isString ? plainNumber(value.toString()) : std::nullopt;
      if (isString && !typed)
        return failure(spec, value) + QStringLiteral(" (digits, an optional minus sign, point and exponent only)");
      bool ok = isString;
      const double v = isString ? *typed : value.toDouble(&ok);
      if (!ok || !std::isfinite(v)) return failure(spec, value);
      if (spec.type == ParamSpec::Type::Int && std::floor(v) != v) return failure(spec, value);
      const bool lowOk = spec.minExclusive ? v > spec.minimum : v >= spec.minimum;
      const bool highOk = spec.maxExclusive ? v < spec.maximum : v <= spec.maximum;
      if (!lowOk || !highOk) return failure(spec, value);
      if (spec.type == ParamSpec::Type::Int)
        *out = static_cast<int>(v);
      else
        *out = v;
      return {};
    }
  }
  return failure(spec, value);
}

ParamSpec withoutDefault(ParamSpec spec) {
  spec.optional = true;
  spec.defaultValue = QVariant();
  return spec;
}

ParamMap defaultsOf(const ParamSpecs& specs) {
  ParamMap m;
  for (const ParamSpec& s : specs) m.insert(s.name, s.defaultValue);
  return m;
}

const ParamSpec* findSpec(const ParamSpecs& specs, const QString& name) {
  for (const ParamSpec& s : specs)
    if (s.name == name) return &s;
  return nullptr;
}

QList<double> numberListValues(const QVariant& value) {
  QList<double> out;
  const QString text = value.toString().trimmed();
  if (text.isEmpty()) return out;
  for (const QString& part : text.split(',')) {
    bool ok = false;
    const double v = part.trimmed().toDouble(&ok);
    if (!ok) return {};
    out << v;
  }
  return out;
}

QString validateParamMap(const ParamSpecs& specs, ParamMap* params, const QString& owner) {
  for (auto it = params->cbegin(); it != params->cend(); ++it)
    if (!findSpec(specs, it.key())) return QStringLiteral("%1: not a parameter of %2").arg(it.key(), owner);
  for (const ParamSpec& spec : specs) {
    const QVariant raw = params->contains(spec.name) ? params->value(spec.name) : spec.defaultValue;
    QVariant value;
    const QString err = checkParam(spec, raw, &value);
    if (!err.isEmpty()) return err;
    params->insert(spec.name, value);
  }
  return {};
}

}  // namespace milab
