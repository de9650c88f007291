#pragma once
// AMMI's Figure 1(a) in the window: the prior-order sweep on a worker thread, then its figure and the files
// milab-cli prior-orders writes (prior_orders.csv, summary.json, prior_orders.{png,pdf,svg}).
#include <QObject>
#include <memory>

#include "engine/background_job.h"
#include "engine/prior_order_sweep.h"
#include "gui/views/background_view.h"

namespace milab {

class MethodRegistry;

class PriorOrderView : public BackgroundView {
 public:
  PriorOrderView(const MethodRegistry& registry, QWidget* parent);
  ~PriorOrderView() override;
  const BackgroundJob<PriorOrderSweep>* job() const { return job_.get(); }

  void cancel() override { job_->cancel(); }  // the orders swept so far are still written
  QString progressLine() const override;
  QString startedHtml() const override;
  QString runningLine() const override {
    return QStringLiteral("AMMI's prior-order sweep runs; the form shows the encoder it trains");
  }
  const RunSpec* formSpec() const override { return &spec_.encoder; }
  QString exportTo(const QString& path) const override;
  QString pageTitle() const override { return QObject::tr("Prior-order sweep"); }

 protected:
  QString what() const override { return "the sweep"; }
  QString prepare(const QString& path) override;
  void launch(const QString& outDir) override;
  bool update() override { return job_->isFinished(); }
  QStringList finish(const QString& outDir) override;
  QString summaryHtml() const override;

 private:
  const MethodRegistry& registry_;
  PriorOrderSweepSpec spec_;
  std::unique_ptr<BackgroundJob<PriorOrderSweep>> job_;
};

}  // namespace milab
