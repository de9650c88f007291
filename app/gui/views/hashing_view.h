#pragma once
// Fashion-MNIST hashing in the window: AMMI against LSH on a worker thread, then the precision-vs-m figure and
// the files milab-cli hashing writes (hashing.csv, summary.json, hashing.{png,pdf,svg}).
#include <QObject>
#include <memory>

#include "engine/background_job.h"
#include "gui/views/background_view.h"
#include "hashing/hashing_experiment.h"

namespace milab {

class HashingView : public BackgroundView {
 public:
  HashingView(const MethodRegistry& registry, QWidget* parent);
  ~HashingView() override;
  const BackgroundJob<HashingResult>* job() const { return job_.get(); }
  // Command-line values applied to the next file started (bits, steps: the shape dialog's edits).
  void setOverrides(const QVariantMap& overrides) { overrides_ = overrides; }

  void cancel() override { job_->cancel(); }  // the rows scored so far are still written
  QString progressLine() const override;
  QString startedHtml() const override;
  QString runningLine() const override {
    return QStringLiteral("Fashion-MNIST hashing runs (its settings are in its file, not in the form)");
  }
  QString exportTo(const QString& path) const override;
  QString pageTitle() const override { return QObject::tr("Hashing"); }
  // The result's rows as a table in AMMI's Table 1 layout (methods by code lengths), HTML for the result line.
  static QString precisionTable(const HashingResult& r);

 protected:
  QString what() const override { return "hashing"; }
  QString prepare(const QString& path) override;  // also: the dataset is installed
  void launch(const QString& outDir) override;
  bool update() override { return job_->isFinished(); }
  QStringList finish(const QString& outDir) override;
  QString summaryHtml() const override;

 private:
  const MethodRegistry& registry_;
  HashingSpec spec_;
  QVariantMap overrides_;
  std::unique_ptr<BackgroundJob<HashingResult>> job_;
};

}  // namespace milab
