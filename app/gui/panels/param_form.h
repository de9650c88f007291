#pragma once
// A form generated from declared parameters: one widget per ParamSpec (spin box, check box, combo box, or a
// line edit for a list of numbers),
// named "param.<name>" so tests and styles can find it, with an error line under each field.
#include <QHash>
#include <QWidget>

#include "params/param_spec.h"

class QFormLayout;
class QLabel;

namespace milab {

class ParamForm : public QWidget {
  Q_OBJECT
 public:
  explicit ParamForm(QWidget* parent = nullptr);

  void setSpecs(const ParamSpecs& specs);  // rebuilds the widgets, at their defaults
  const ParamSpecs& specs() const { return specs_; }
  ParamMap values() const;
  void setValues(const ParamMap& values);  // keys this form does not declare are ignored

  bool hasField(const QString& name) const { return editors_.contains(name); }
  // A field another setting decides (steps under a staircase): greyed, `why` in its tooltip; "" unlocks it.
  void setFieldLocked(const QString& name, const QString& why);
  void showError(const QString& name, const QString& message);  // on the field
  void clearErrors();
  QString errorText(const QString& name) const;

 Q_SIGNALS:
  void edited();  // any field changed (typed, ticked or picked)

 private:
  QWidget* makeEditor(const ParamSpec& spec);
  void fieldEdited(const QString& name);
  void markRow(const QString& name, bool refused);  // the row's label red while its field is refused

  ParamSpecs specs_;
  QFormLayout* layout_;
  QHash<QString, QWidget*> editors_;
  QHash<QString, QLabel*> errors_;
};

}  // namespace milab
