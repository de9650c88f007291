#pragma once
// Before Fashion-MNIST hashing starts: its code lengths and step count, each editable, so that the bundled preset
// (16, 32 and 64 bits of 2000 steps, minutes on two cores) can be shortened first, as a grid's shape can. What
// hashing would refuse is said in the dialog, which then does not accept.
#include <QDialog>
#include <QVariantMap>

#include "engine/experiment.h"
#include "hashing/hashing_experiment.h"

class QLabel;
class QLineEdit;
class QSpinBox;

namespace milab {

class HashingShapeDialog : public QDialog {
  Q_OBJECT
 public:
  HashingShapeDialog(const Experiment& experiment, const MethodRegistry& registry, QWidget* parent = nullptr);
  // The edits as command-line overrides (as `milab-cli hashing --bits 16,32 --steps 500`): only what changed.
  QVariantMap overrides() const;
  // "" when the shaped file is one hashing accepts (then *spec is what it runs), else its error line.
  QString check(HashingSpec* spec = nullptr) const;

 private:
  void accept() override;
  void update();

  Experiment experiment_;
  const MethodRegistry& registry_;
  QLineEdit* bits_;
  QSpinBox* steps_;
  QLabel* summary_;
};

}  // namespace milab
