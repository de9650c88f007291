#include "ksg/ksg_family.h"

#include <ATen/ATen.h>

#include <algorithm>
#include <random>

#include "knn/ksg.h"
#include "knn/ksg_rows.h"
#include "ksg/ksg_options.h"
#include "method/estimator.h"
#include "method/memory_budget.h"
#include "method/score_matrix_estimator.h"
#include "tasks/task_catalog.h"

namespace milab {

namespace {

class KsgEstimator final : public Estimator {
 public:
  KsgEstimator(const EstimatorContext& ctx, bool conditional)
      : k_(KsgOptions::from(ctx.params).k),
        samples_(KsgOptions::from(ctx.params).setSize),
        conditional_(conditional),
        cancelled_(ctx.cancelled),
        tieBreaker_(ctx.generator.current_seed() ^ 0x6b7367u) {}

  int64_t batchSize() const override { return samples_; }  // never trained on (trains = false)

  StepResult trainStep(const Batch&) override {
    throw std::logic_error("ksg has nothing to train: the run skips its training loop");
  }

  Evaluation evaluate(const Batch& batch) override {
    // Each copy into double is tens of milliseconds at 300,000 samples: the cancel is polled between them.
    const auto samples = [this](const at::Tensor& t) {
      if (cancelled_()) throw EstimatorCancelled();
      SampleMatrix m = samplesOfRows(t);
      breakTies(&m, &tieBreaker_, cancelled_);
      return m;
    };
    const double v = conditional_ ? ksgConditionalMutualInformation(samples(batch.x), samples(batch.y),
                                                                    samples(batch.xp), k_, cancelled_)
                                  : ksgMutualInformation(samples(criticInput(batch)), samples(batch.y), k_, cancelled_);
    return {v, {{conditional_ ? "I_KSG(x;y|x')" : "I_KSG", v}}};
  }

 private:
  int k_;
  int64_t samples_;
  bool conditional_;
  CancelCheck cancelled_;
  std::mt19937_64 tieBreaker_;
};

}  // namespace

double ksgBytesNeeded(qint64 samples, int dim, bool hasSubview) {
  const int variables = hasSubview ? 3 : 2;
  // The float batch, its double copies, and the joint plus subspace copies (at most 2 + 2 + 1 + 3 blocks of d
  // columns for ksg-cmi) in double; the trees' index arrays and nodes are a few words per point.
  const double perSample = variables * dim * (4.0 + 8.0) + 8.0 * dim * (variables + 5) + 64.0;
  return double(samples) * perSample;
}

KsgPlugin::KsgPlugin(QString id, QString displayName, bool conditional)
    : id_(std::move(id)), displayName_(std::move(displayName)), conditional_(conditional) {}

MethodInfo KsgPlugin::info() const {
  MethodInfo i;
  i.id = id_;
  i.displayName = displayName_;
  i.family = "nearest neighbours";
  i.summary =
      conditional_
          ? QStringLiteral(
                "Frenzel-Pompe conditional KSG of I(x;y|x') from k-NN counts in the max norm on "
                "`set_size` draws (or the run's `samples`); no training; underestimates at high MI and dimension")
          : QStringLiteral(
                "Kraskov-Stoegbauer-Grassberger estimator (algorithm 1) from k-NN counts in the "
                "max norm on `set_size` draws (or the run's `samples`); no training; underestimates at high MI and "
                "dimension");
  const KsgOptions d;
  i.params = {
      ParamSpec::integer("k", d.k, 1, 1000, "neighbours counted in the joint space (KSG's k)"),
      ParamSpec::integer(
          "set_size", d.setSize, 10, 100000000,
          "joint draws per estimate (each of eval_batches); with the run's samples, all N are read once"),
  };
  i.readsSubviewRows = conditional_;  // Frenzel-Pompe counts neighbours among rows: no p(y|x') to sample
  i.target = conditional_ ? Target::ConditionalMi : Target::TotalMi;
  i.lowerBound = false;
  i.trains = false;
  i.cpuOnly = true;
  return i;
}

QString KsgPlugin::checkMemory(qint64 points, int dim, bool hasSubview, const QString& key) const {
  const MemoryBudget have = memoryBudget();
  const double need = ksgBytesNeeded(points, dim, hasSubview);
  if (need > 0.5 * have.bytes)
    return QStringLiteral("%1: %2 draws of dimension %3 need about %4 GiB for %5, more than half of %6; use at most %7")
        .arg(key)
        .arg(points)
        .arg(dim)
        .arg(need / (1 << 30), 0, 'f', 1)
        .arg(id_, have.phrase())
        .arg(qint64(0.5 * have.bytes / ksgBytesNeeded(1, dim, hasSubview)));
  return {};
}

QString KsgPlugin::validate(const ParamMap& params, const TaskInfo& task, const ParamMap& taskParams) const {
  const KsgOptions o = KsgOptions::from(params);
  if (o.k >= o.setSize)
    return QStringLiteral("k: must be below set_size (%1) for %2, got %3").arg(o.setSize).arg(id_).arg(o.k);
  return checkMemory(o.setSize, taskWidths(task, taskParams).widest(), task.hasSubview(), "set_size");
}

QString KsgPlugin::validateWholeSet(const ParamMap& params, const SampleSetShape& set) const {
  // Each point's k-th neighbour is another point: k + 1 of them at least.
  const int k = KsgOptions::from(params).k;
  if (k >= set.rows)
    return QStringLiteral(
               "samples: %1 reads all %2 rows at once with k = %3 neighbours each; needs at least k + 1 = %4")
        .arg(id_)
        .arg(set.rows)
        .arg(k)
        .arg(k + 1);
  return checkMemory(set.rows, std::max(set.dimX, set.dimY), set.subview, "samples");
}

std::unique_ptr<Estimator> KsgPlugin::create(const EstimatorContext& context) const {
  return std::make_unique<KsgEstimator>(context, conditional_);
}

}  // namespace milab
