#pragma once
// One declaration of a parameter serves four uses: the GUI form, the experiment file,
// the command-line flags and validation. Qt Core only, no torch.
#include <QList>
#include <QString>
#include <QStringList>
#include <QVariant>
#include <QVariantMap>

namespace milab {

using ParamMap = QVariantMap;

struct ParamSpec {
  // NumberList: comma-separated numbers, each within [minimum, maximum] (e.g. an MI schedule "2,4,6"); "" is
  // "not set". Its canonical value is the list rejoined with ',' as a QString. Text: one line of free text (a file
  // path), without control characters; "" is "not set" when the spec is optional.
  enum class Type { Int, Double, Bool, Choice, NumberList, Text };

  QString name;  // key in the experiment file, flag name (--name), label in the form
  Type type = Type::Double;
  QVariant defaultValue;  // null for an optional parameter with no default (e.g. alpha: random)
  double minimum = 0;
  double maximum = 0;
  bool minExclusive = false;
  bool maxExclusive = false;
  QStringList choices;    // Type::Choice only
  QString help;           // one line: what it does
  QString label;          // what the form shows (params/param_labels.h); the name stays the key
  QString unit;           // "nats", "steps", "samples" ... or ""
  bool optional = false;  // a null value is allowed and means "not set"

  static ParamSpec integer(QString name, int def, double min, double max, QString help);
  static ParamSpec real(QString name, double def, double min, double max, QString help, bool minExclusive = false,
                        bool maxExclusive = false);
  static ParamSpec boolean(QString name, bool def, QString help);
  static ParamSpec choice(QString name, QStringList choices, QString def, QString help);
  static ParamSpec numberList(QString name, double min, double max, QString help, bool minExclusive = false);
  static ParamSpec text(QString name, QString def, QString help);
};

using ParamSpecs = QList<ParamSpec>;

// "an integer in [2, 65536]", "a number in (0, 1)", "one of auto|cpu|cuda", "true or false (yes/no and
// 1/0 read alike)".
QString describeAllowed(const ParamSpec& spec);

// Checks one value (from JSON, a flag string or a widget) against its spec. On success returns an empty
// string and stores the value in its canonical type (int, double, bool, QString) in *out. On failure returns
// one line naming the field and what is allowed, e.g. "K: must be an integer in [2, 65536], got 1".
QString checkParam(const ParamSpec& spec, const QVariant& value, QVariant* out);

// `spec` made optional with no default (null: the method or task chooses, e.g. order_prior); the value its
// factory was given only shapes the form's field.
ParamSpec withoutDefault(ParamSpec spec);

// Defaults of every spec that has one.
ParamMap defaultsOf(const ParamSpecs& specs);

const ParamSpec* findSpec(const ParamSpecs& specs, const QString& name);

// The numbers of a NumberList value ("2, 4,6" -> {2, 4, 6}); empty for "" or anything unreadable.
QList<double> numberListValues(const QVariant& value);

// Checks a whole map against `specs` in place: rejects keys no spec declares ("<key>: not a parameter of
// <owner>"), fills defaults, and canonicalises every value. Returns "" or the first error line.
QString validateParamMap(const ParamSpecs& specs, ParamMap* params, const QString& owner);

}  // namespace milab
