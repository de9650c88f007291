#pragma once
// Left side of the window: task and method pickers, their generated parameter forms, run settings, Run/Stop.
#include <QWidget>

#include "engine/run_spec.h"

class QComboBox;
class QLabel;
class QPushButton;

namespace milab {

class MethodRegistry;
class ParamForm;

class ExperimentPanel : public QWidget {
  Q_OBJECT
 public:
  ExperimentPanel(const MethodRegistry& registry, QWidget* parent = nullptr);

  RunSpec spec() const;
  void setSpec(const RunSpec& spec);
  // Puts an error line ("<field>: ...") on the field it names, or under the buttons when no field matches.
  void showError(const QString& line);
  void clearErrors();
  void setRunning(bool running);

 Q_SIGNALS:
  void runRequested();
  void stopRequested();

 private:
  void onTaskChanged();
  void onMethodChanged();

  const MethodRegistry& registry_;
  QComboBox* task_;
  QComboBox* method_;
  ParamForm* taskForm_;
  ParamForm* methodForm_;
  ParamForm* settingsForm_;
  QLabel* error_;
  QLabel* methodSummary_;
  QPushButton* run_;
  QPushButton* stop_;
};

}  // namespace milab
