#include "gui/panels/grid_shape_dialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QThread>
#include <QToolButton>
#include <QVBoxLayout>

#include "engine/run_spec.h"
#include "gui/counted.h"
#include "gui/file_dialogs.h"

namespace milab {

GridShapeDialog::GridShapeDialog(const Experiment& experiment, const MethodRegistry& registry, QWidget* parent)
    : QDialog(parent),
      experiment_(experiment),
      registry_(registry),
      steps_(new QSpinBox(this)),
      runner_(new QComboBox(this)),
      processes_(new QSpinBox(this)),
      hostFile_(new QLineEdit(this)),
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
  // The steps the cells will run: a file that names none runs the recipe's on a finite set (10,000 under the lab's),
  // not the default the dialog showed (a new user read "4 cells x 3000 steps" over cells of 10,000).
  int steps = experiment.base.value("steps", stepsSpec->defaultValue).toInt();
  QList<GridCell> cells;
  if (!experiment.base.contains("steps") && expandExperiment(experiment, registry, &cells).isEmpty() &&
      !cells.isEmpty())
    steps = cells.first().spec.steps;
  steps_->setValue(steps);
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
  layout->addLayout(runnerRows());
  layout->addWidget(summary_);
  layout->addWidget(buttons);
  update();
}

QLayout* GridShapeDialog::runnerRows() {
  auto* form = new QFormLayout;
  const int cores = QThread::idealThreadCount();
  runner_->setObjectName("gridRunner");
  runner_->addItem(tr("this machine (%1 at a time)").arg(counted(std::max(1, cores - 1), "cell")));
  runner_->addItem(tr("MPI (mpirun)"));
  const QString unavailable = mpiUnavailableReason();
  if (!unavailable.isEmpty()) {  // shown, greyed, with the reason: a user looking for it learns what is missing
    auto* model = qobject_cast<QStandardItemModel*>(runner_->model());
    model->item(1)->setEnabled(false);
    model->item(1)->setToolTip(unavailable);
    runner_->setItemText(1, tr("MPI: %1").arg(unavailable));
  }
  form->addRow(tr("run on"), runner_);
  processes_->setObjectName("mpiProcesses");
  processes_->setRange(1, 4096);
  processes_->setValue(std::max(2, cores));
  processes_->setToolTip(tr("mpirun -np: each process runs one cell at a time; rank 0 hands out the cells"));
  form->addRow(tr("MPI processes"), processes_);
  hostFile_->setObjectName("mpiHostFile");
  hostFile_->setPlaceholderText(tr("none: every process on this machine"));
  hostFile_->setToolTip(
      tr("An Open MPI host file (resources/cluster/openmpi-hostfile.example). This machine "
         "first: rank 0 writes the results folder the window follows"));
  auto* browse = new QToolButton(this);
  browse->setObjectName("mpiHostFileBrowse");
  browse->setText("...");
  connect(browse, &QToolButton::clicked, this, [this] {
    const QString path = askOpenFile(this, tr("Open MPI host file"), {});
    if (!path.isEmpty()) hostFile_->setText(path);
  });
  auto* hostRow = new QHBoxLayout;
  hostRow->addWidget(hostFile_);
  hostRow->addWidget(browse);
  form->addRow(tr("MPI host file"), hostRow);
  connect(runner_, &QComboBox::currentIndexChanged, this, &GridShapeDialog::update);
  connect(processes_, &QSpinBox::valueChanged, this, &GridShapeDialog::update);
  connect(hostFile_, &QLineEdit::textChanged, this, &GridShapeDialog::update);
  return form;
}

std::optional<MpiLaunch> GridShapeDialog::mpiLaunch() const {
  if (runner_->currentIndex() != 1) return std::nullopt;
  return MpiLaunch{processes_->value(), hostFile_->text().trimmed()};
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
  if (!err.isEmpty()) return err;
  if (const auto mpi = mpiLaunch(); mpi && !mpi->hostFile.isEmpty()) {
    const QFileInfo hosts(mpi->hostFile);
    if (!hosts.isFile() || !hosts.isReadable())
      return QStringLiteral("MPI host file: '%1' is not a readable file").arg(mpi->hostFile);
  }
  return {};
}

void GridShapeDialog::update() {
  const auto mpi = mpiLaunch();
  processes_->setEnabled(bool(mpi));
  hostFile_->setEnabled(bool(mpi));
  int cells = 0;
  const QString err = check(&cells);
  hostFile_->setStyleSheet(err.startsWith("MPI host file") ? "border: 1px solid #c0392b" : "");
  QString text = tr("%1 x %2").arg(counted(cells, "cell"), counted(steps_->value(), "step"));
  if (mpi) {
    text += tr(" on %1 MPI processes").arg(mpi->processes);
    if (mpi->hostFile.isEmpty() && mpi->processes > QThread::idealThreadCount())
      text += tr(" (more than the %1 cores here: they share them)").arg(QThread::idealThreadCount());
  }
  summary_->setText(err.isEmpty() ? text
                                  : QStringLiteral("<span style='color:#c0392b'>%1</span>").arg(err.toHtmlEscaped()));
}

void GridShapeDialog::accept() {
  if (!check().isEmpty()) return update();  // the error stays in the dialog
  QDialog::accept();
}

}  // namespace milab
