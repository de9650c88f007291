#include "gui/panels/grid_shape_dialog.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

#include "engine/run_spec.h"

namespace milab {

GridShapeDialog::GridShapeDialog(const Experiment& experiment, const MethodRegistry& registry, QWidget* parent)
    : QDialog(parent),
      experiment_(experiment),
      registry_(registry),
      steps_(new QSpinBox(this)),
      summary_(new QLabel(this)) {
  setWindowTitle(tr("Shape the grid before it starts"));
  setObjectName("gridShapeDialog");
  auto* form = new QFormLayout;
  for (const auto& [key, values] : experiment.axes) {
    if (key == "steps") continue;  // the step count has its own box
    QStringList texts;
    for (const QVariant& v : values) texts << v.toString();
    auto* edit = new QLineEdit(texts.join(','), this);
    edit->setProperty("original", texts.join(','));
    edit->setObjectName("axis." + key);
    form->addRow(key, edit);
    axes_ << qMakePair(key, edit);
    connect(edit, &QLineEdit::textChanged, this, &GridShapeDialog::update);
  }
  const ParamSpec* stepsSpec = findSpec(runSettingSpecs(), "steps");
  steps_->setObjectName("gridSteps");
  steps_->setRange(1, int(stepsSpec->maximum));
  steps_->setValue(experiment.base.value("steps", stepsSpec->defaultValue).toInt());
  steps_->setProperty("original", steps_->value());
  form->addRow(tr("training steps per cell"), steps_);
  connect(steps_, &QSpinBox::valueChanged, this, &GridShapeDialog::update);
  summary_->setObjectName("gridShapeSummary");
  summary_->setWordWrap(true);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
  buttons->button(QDialogButtonBox::Ok)->setText(tr("Start"));
  connect(buttons, &QDialogButtonBox::accepted, this, &GridShapeDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(new QLabel(
      tr("%1 method rows; each axis is a comma-separated list.").arg(std::max<qsizetype>(1, experiment.methods.size())),
      this));
  layout->addLayout(form);
  layout->addWidget(summary_);
  layout->addWidget(buttons);
  update();
}

QVariantMap GridShapeDialog::overrides() const {
  // Only what was changed: an untouched axis keeps its place, so the cells keep their names and a folder with
  // finished cells still resumes.
  QVariantMap o;
  for (const auto& [key, edit] : axes_)
    if (edit->text().trimmed() != edit->property("original").toString()) o.insert(key, edit->text().trimmed());
  if (steps_->value() != steps_->property("original").toInt()) o.insert("steps", QString::number(steps_->value()));
  return o;
}

QString GridShapeDialog::check(int* cells) const {
  Experiment shaped = experiment_;
  applyOverrides(overrides(), &shaped);
  QList<GridCell> expanded;
  const QString err = expandExperiment(shaped, registry_, &expanded);
  if (cells) *cells = int(expanded.size());
  return err;
}

void GridShapeDialog::update() {
  int cells = 0;
  const QString err = check(&cells);
  summary_->setText(err.isEmpty() ? tr("%1 cells x %2 steps").arg(cells).arg(steps_->value())
                                  : QStringLiteral("<span style='color:#c0392b'>%1</span>").arg(err.toHtmlEscaped()));
}

void GridShapeDialog::accept() {
  if (!check().isEmpty()) return update();  // the error stays in the dialog
  QDialog::accept();
}

}  // namespace milab
