#include "gui/panels/param_form.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>
#include <QVBoxLayout>
#include <cmath>

#include "gui/panels/refusing_spin_box.h"
#include "gui/panels/wheel_guard.h"

namespace milab {

namespace {
// What an integer field shows after refusing a typed value: its value, or its special text ("auto").
QString kept(const QSpinBox* box) {
  const bool special = box->value() == box->minimum() && !box->specialValueText().isEmpty();
  return special ? box->specialValueText() : QString::number(box->value());
}
constexpr double kExclusiveStep = 1e-6;  // an exclusive bound becomes the nearest value the spin box can show
constexpr int kDecimals = 6;
// A refused field's row label turns red: a style sheet on the editor itself would drop a spin box's native arrows.
const char* kErrorLabelStyle = "color: #c0392b; font-weight: bold;";
}  // namespace

ParamForm::ParamForm(QWidget* parent) : QWidget(parent), layout_(new QFormLayout(this)) {
  layout_->setContentsMargins(0, 0, 0, 0);
}

QWidget* ParamForm::makeEditor(const ParamSpec& spec) {
  switch (spec.type) {
    case ParamSpec::Type::Bool: {
      auto* box = new QCheckBox(this);
      box->setChecked(spec.defaultValue.toBool());
      connect(box, &QCheckBox::toggled, this, [this, name = spec.name] { fieldEdited(name); });
      return box;
    }
    case ParamSpec::Type::Choice: {
      auto* box = new QComboBox(this);
      box->addItems(spec.choices);
      box->setCurrentText(spec.defaultValue.toString());
      connect(box, &QComboBox::currentTextChanged, this, [this, name = spec.name] { fieldEdited(name); });
      return box;
    }
    case ParamSpec::Type::Text: {
      auto* edit = new QLineEdit(spec.defaultValue.toString(), this);
      connect(edit, &QLineEdit::textChanged, this, [this, name = spec.name] { fieldEdited(name); });
      return edit;
    }
    case ParamSpec::Type::NumberList: {
      auto* edit = new QLineEdit(spec.defaultValue.toString(), this);
      edit->setPlaceholderText("e.g. 2,4,6,8,10 (empty: none)");
      connect(edit, &QLineEdit::textChanged, this, [this, name = spec.name] { fieldEdited(name); });
      return edit;
    }
    case ParamSpec::Type::Int: {
      auto* box = new RefusingSpinBox(this);
      box->setKeyboardTracking(false);  // see refusing_spin_box.h
      connect(box, &QSpinBox::valueChanged, this, [this, name = spec.name] { fieldEdited(name); });
      connect(box, &RefusingSpinBox::refused, this, [this, spec, box](const QString& typed) {
        showError(
            spec.name,
            QStringLiteral("must be %1, got %2 (the field keeps %3)").arg(describeAllowed(spec), typed, kept(box)));
      });
      int low = static_cast<int>(spec.minimum + (spec.minExclusive ? 1 : 0));
      if (spec.optional) {  // one below the range stands for "not set": the method chooses (e.g. order_prior)
        --low;
        box->setSpecialValueText("auto");
      }
      box->setRange(low, static_cast<int>(std::min(spec.maximum - (spec.maxExclusive ? 1 : 0), 2147483647.0)));
      box->setValue(spec.defaultValue.isNull() ? low : spec.defaultValue.toInt());
      return box;
    }
    case ParamSpec::Type::Double: {
      auto* box = new RefusingDoubleSpinBox(this);
      box->setKeyboardTracking(false);
      connect(box, &QDoubleSpinBox::valueChanged, this, [this, name = spec.name] { fieldEdited(name); });
      connect(box, &RefusingDoubleSpinBox::refused, this, [this, spec, box](const QString& typed) {
        showError(spec.name, QStringLiteral("must be %1, got %2 (the field keeps %3)")
                                 .arg(describeAllowed(spec), typed, box->textFromValue(box->value())));
      });
      box->setDecimals(kDecimals);
      double low = spec.minimum + (spec.minExclusive ? kExclusiveStep : 0);
      if (spec.optional) {
        // The lowest value stands for "not set": the task or method chooses (alpha: drawn at random; the class
        // channel's mi: the crossover's).
        low = spec.minimum;
        box->setSpecialValueText("auto");
      }
      box->setRange(low, spec.maximum - (spec.maxExclusive ? kExclusiveStep : 0));
      box->setSingleStep(spec.maximum - spec.minimum <= 1 ? 0.05 : 1.0);
      box->setValue(spec.defaultValue.isNull() ? low : spec.defaultValue.toDouble());
      return box;
    }
  }
  return nullptr;
}

void ParamForm::setSpecs(const ParamSpecs& specs) {
  while (layout_->rowCount() > 0) layout_->removeRow(0);
  editors_.clear();
  errors_.clear();
  specs_ = specs;
  for (const ParamSpec& spec : specs_) {
    QWidget* editor = makeEditor(spec);
    editor->setObjectName("param." + spec.name);
    if (qobject_cast<QComboBox*>(editor) || qobject_cast<QAbstractSpinBox*>(editor)) takeWheelOnlyWhenFocused(editor);
    // The row reads the label; the key (the name in files and flags) and the range are in the tooltip.
    const QString tip = QStringLiteral("%1\nKey: %2 (--%3)\nAllowed: %4")
                            .arg(spec.help, spec.name, QString(spec.name).replace('_', '-'), describeAllowed(spec));
    editor->setToolTip(tip);
    auto* error = new QLabel(this);
    error->setObjectName("error." + spec.name);
    error->setStyleSheet("color: #c0392b;");
    error->setWordWrap(true);
    error->hide();
    // Its full height whatever the row's label wraps to: the form layout's height-for-width pass would squeeze it.
    editor->setMinimumHeight(editor->minimumSizeHint().height());
    auto* cell = new QWidget(this);
    auto* column = new QVBoxLayout(cell);
    column->setContentsMargins(0, 0, 0, 0);
    column->setSpacing(1);
    column->addWidget(editor);
    column->addWidget(error);
    const bool unitSaid = spec.unit.isEmpty() || spec.label.contains(spec.unit);
    auto* label = new QLabel(unitSaid ? spec.label : QStringLiteral("%1 (%2)").arg(spec.label, spec.unit), this);
    label->setObjectName("label." + spec.name);
    label->setToolTip(tip);
    label->setWordWrap(true);
    // One label width in every form, so the columns line up and a wrapped label's height is known before layout:
    // the form's height-for-width pass otherwise gave a two-line label one line's height and cut its text.
    const int labelWidth = 20 * label->fontMetrics().averageCharWidth();
    label->setFixedWidth(labelWidth);
    label->setMinimumHeight(label->heightForWidth(labelWidth));
    layout_->addRow(label, cell);
    editors_.insert(spec.name, editor);
    errors_.insert(spec.name, error);
  }
}

void ParamForm::setFieldLocked(const QString& name, const QString& why) {
  QWidget* editor = editors_.value(name);
  if (!editor) return;
  QString tip = editor->toolTip().section("\n\nLocked: ", 0, 0);
  if (!why.isEmpty()) tip += "\n\nLocked: " + why;
  editor->setToolTip(tip);
  editor->setEnabled(why.isEmpty());
}

ParamMap ParamForm::values() const {
  ParamMap m;
  for (const ParamSpec& spec : specs_) {
    QWidget* w = editors_.value(spec.name);
    if (auto* b = qobject_cast<QCheckBox*>(w))
      m.insert(spec.name, b->isChecked());
    else if (auto* e = qobject_cast<QLineEdit*>(w))
      m.insert(spec.name, e->text().trimmed());
    else if (auto* c = qobject_cast<QComboBox*>(w))
      m.insert(spec.name, c->currentText());
    else if (auto* i = qobject_cast<QSpinBox*>(w))
      m.insert(spec.name, spec.optional && i->value() == i->minimum() ? QVariant() : QVariant(i->value()));
    else if (auto* d = qobject_cast<QDoubleSpinBox*>(w))
      m.insert(spec.name, spec.optional && d->value() == d->minimum() ? QVariant() : QVariant(d->value()));
  }
  return m;
}

void ParamForm::setValues(const ParamMap& values) {
  for (auto it = values.cbegin(); it != values.cend(); ++it) {
    QWidget* w = editors_.value(it.key());
    if (auto* b = qobject_cast<QCheckBox*>(w))
      b->setChecked(it.value().toBool());
    else if (auto* e = qobject_cast<QLineEdit*>(w))
      e->setText(it.value().toString());
    else if (auto* c = qobject_cast<QComboBox*>(w))
      c->setCurrentText(it.value().toString());
    else if (auto* i = qobject_cast<QSpinBox*>(w))
      i->setValue(it.value().isNull() ? i->minimum() : it.value().toInt());
    else if (auto* d = qobject_cast<QDoubleSpinBox*>(w))
      d->setValue(it.value().isNull() ? d->minimum() : it.value().toDouble());
  }
}

void ParamForm::fieldEdited(const QString& name) {
  // An error on this field goes as soon as the field changes: the next Run checks it again.
  if (QLabel* label = errors_.value(name); label && !label->isHidden()) {
    label->hide();
    markRow(name, false);
  }
  Q_EMIT edited();
}

void ParamForm::showError(const QString& name, const QString& message) {
  if (QLabel* label = errors_.value(name)) {
    label->setText(message);
    label->show();
    markRow(name, true);
  }
}

void ParamForm::clearErrors() {
  for (auto it = errors_.cbegin(); it != errors_.cend(); ++it) {
    it.value()->hide();
    it.value()->clear();
    markRow(it.key(), false);
  }
}

void ParamForm::markRow(const QString& name, bool refused) {
  if (auto* label = findChild<QLabel*>("label." + name)) label->setStyleSheet(refused ? kErrorLabelStyle : "");
}

QString ParamForm::errorText(const QString& name) const {
  const QLabel* label = errors_.value(name);
  return label && !label->isHidden() ? label->text() : QString();
}

}  // namespace milab
