#include "gui/panels/hashing_shape_dialog.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

#include "gui/counted.h"
#include "params/param_spec.h"

namespace milab {

namespace {
QString bitsText(const Experiment& experiment) {  // the file's lengths as the line edit shows them
  for (const auto& [key, values] : experiment.axes)
    if (key == "bits") {
      QStringList texts;
      for (const QVariant& v : values) texts << v.toString();
      return texts.join(',');
    }
  if (experiment.base.contains("bits")) return experiment.base.value("bits").toString();
  QStringList defaults;  // hashing's own
  for (int m : HashingSpec().bits) defaults << QString::number(m);
  return defaults.join(',');
}
}  // namespace

HashingShapeDialog::HashingShapeDialog(const Experiment& experiment, const MethodRegistry& registry, QWidget* parent)
    : QDialog(parent),
      experiment_(experiment),
      registry_(registry),
      bits_(new QLineEdit(bitsText(experiment), this)),
      steps_(new QSpinBox(this)),
      summary_(new QLabel(this)) {
  setWindowTitle(tr("Shape the hashing runs before they start"));
  setObjectName("hashingShapeDialog");
  auto* form = new QFormLayout;
  bits_->setObjectName("hashingBits");
  bits_->setProperty("original", bits_->text());
  bits_->setToolTip(tr("Code lengths m, comma-separated: AMMI and LSH each run once per length"));
  form->addRow(tr("bits"), bits_);
  const ParamSpec* stepsSpec = findSpec(hashingSpecs(), "steps");
  steps_->setObjectName("hashingSteps");
  steps_->setRange(int(stepsSpec->minimum), int(stepsSpec->maximum));
  steps_->setValue(experiment.base.value("steps", stepsSpec->defaultValue).toInt());
  steps_->setProperty("original", steps_->value());
  form->addRow(tr("training steps per length"), steps_);
  connect(bits_, &QLineEdit::textChanged, this, &HashingShapeDialog::update);
  connect(steps_, &QSpinBox::valueChanged, this, &HashingShapeDialog::update);
  summary_->setObjectName("hashingShapeSummary");
  summary_->setWordWrap(true);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
  buttons->button(QDialogButtonBox::Ok)->setText(tr("Start"));
  connect(buttons, &QDialogButtonBox::accepted, this, &HashingShapeDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(form);
  layout->addWidget(summary_);
  layout->addWidget(buttons);
  update();
}

QVariantMap HashingShapeDialog::overrides() const {
  QVariantMap o;
  if (bits_->text().trimmed() != bits_->property("original").toString()) o.insert("bits", bits_->text().trimmed());
  if (steps_->value() != steps_->property("original").toInt()) o.insert("steps", QString::number(steps_->value()));
  return o;
}

QString HashingShapeDialog::check(HashingSpec* shapedSpec) const {
  Experiment shaped = experiment_;
  applyOverrides(overrides(), &shaped);
  HashingSpec spec;
  const QString err = hashingSpecFromExperiment(shaped, registry_, &spec);
  if (shapedSpec) *shapedSpec = spec;
  return err;
}

void HashingShapeDialog::update() {
  HashingSpec spec;
  const QString err = check(&spec);
  bits_->setStyleSheet(err.startsWith("bits") ? "border: 1px solid #c0392b" : "");
  summary_->setText(err.isEmpty()
                        ? tr("%1 x 2 methods x %2")
                              .arg(counted(int(spec.bits.size()), "code length"), counted(steps_->value(), "step"))
                        : QStringLiteral("<span style='color:#c0392b'>%1</span>").arg(err.toHtmlEscaped()));
}

void HashingShapeDialog::accept() {
  if (!check().isEmpty()) return update();  // the error stays in the dialog
  QDialog::accept();
}

}  // namespace milab
