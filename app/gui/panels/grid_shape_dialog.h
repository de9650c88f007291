#pragma once
// Before a grid starts: its axes and step count, each editable, so that a bundled preset (figure2-top is 80 cells
// of 3000 steps) can be shortened first, and where it runs: this machine, or MPI (a process count and an optional
// host file) when mpirun and an MPI milab-cli are there. The cell count follows the edits; what the grid would
// refuse is said in the dialog, which then does not accept.
#include <QDialog>
#include <QList>
#include <QVariantMap>
#include <optional>

#include "engine/experiment.h"
#include "gui/views/mpi_grid_job.h"

class QComboBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace milab {

class MethodRegistry;

class GridShapeDialog : public QDialog {
  Q_OBJECT
 public:
  GridShapeDialog(const Experiment& experiment, const MethodRegistry& registry, QWidget* parent = nullptr);
  // The edits as command-line overrides: an axis as "v1,v2" (one value makes it a fixed key), steps as a number.
  QVariantMap overrides() const;
  // Where it runs: nullopt on this machine, else mpirun's process count and host file.
  std::optional<MpiLaunch> mpiLaunch() const;
  // "" when the shaped grid expands (and the MPI host file, if any, can be read), else its error line; *cells
  // gets its size.
  QString check(int* cells = nullptr) const;

 private:
  void accept() override;
  void update();
  QLayout* runnerRows();  // "run on", the process count, the host file

  Experiment experiment_;
  const MethodRegistry& registry_;
  QList<QPair<QString, QLineEdit*>> axes_;
  QSpinBox* steps_;
  QComboBox* runner_;
  QSpinBox* processes_;
  QLineEdit* hostFile_;
  QLabel* summary_;
};

}  // namespace milab
