#pragma once
// The interface every task plugin implements: a family of joint laws of (x, [x',] y), each with what the lab knows
// about it exactly. Like a method, a task is a Qt plugin (plugins/tasks/<family>/); core names none of them.
// Torch-free, so the registry, the window and moc can include it: samples come from TaskModel::sampler, whose class
// (tasks/task_sampler.h) is torch's side.
#include <QList>
#include <QString>
#include <QStringList>
#include <QVector>
#include <QtPlugin>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>

#include "params/param_spec.h"

namespace c10 {
struct Device;
}

namespace milab {

class TaskSampler;

// A labelled number: a ceiling, a term of a bound, an exact MI of a task.
struct NamedValue {
  QString name;
  double value = 0;
};

// What a task offers beyond joint samples. A method that needs what a task lacks is refused, naming both
// (methodTaskMismatch in tasks/task_catalog.h); the window greys it with the same reason.
struct TaskCapabilities {
  bool subview = false;    // x' exists, with samples of the true p(y | x') and its law (CNCE, DEMI's protocols)
  bool pmi = false;        // the exact log p(y | x[, x']) - log p(y) and log p(y | x') - log p(y): oracle critics
  bool densities = false;  // the exact log p(y) (with pmi, log p(y | x)): DoE's and CLUB's oracles
  // x, x', y are images (flattened S x S, in [0, 1]) with labels for evaluation (TaskSampler::labelledImages):
  // read only by methods with an image encoder (MethodInfo::readsImages), which read nothing else.
  bool images = false;
  // x, x', y are token ids as float columns (utterances of a dialogue; x' is x with its earlier utterances set to the
  // padding id, the vocabulary's size): read only by methods with a sequence encoder (MethodInfo::readsTokens).
  bool tokens = false;
  // The largest id a task of tokens writes (its padding id included): a sequence encoder's embedding table has one
  // row more.
  static constexpr int kLargestTokenId = 32;
  // The critic input (x, or [x, x']) is Gaussian, marginally and given y (y may be observed through a bijection, as
  // gaussian2's cubic y): TaskSampler::gaussianXSide gives both covariances' eigenvalues, from which the diffusion
  // estimators' oracle reads its exact denoising errors.
  bool gaussianXSide = false;
  // x' exists as rows, its law unknown: a finite set drawn from a task with a subview (last: the plugins fill the
  // fields above in order).
  bool subviewRows = false;
};

struct TaskInfo {
  QString id;  // stable key: CLI --task, experiment files, results
  QString displayName;
  QString family;   // the plugin's family, e.g. "gaussian", "beyond-normal"
  QString summary;  // one sentence for `milab-cli tasks --long` and tooltips
  ParamSpecs params;
  TaskCapabilities capabilities;
  // Sizes fixed by the id (a Beyond-Normal id names them); 0 where the task's `dim` key decides.
  int dimX = 0, dimY = 0;
  // A fixed table of rows (a user's data), not a law: it has no truth, and runs always read it through the
  // finite-sample protocol (RunSpec::samples: every row unless fewer are asked for).
  bool dataset = false;
  bool hasSubview() const { return capabilities.subview; }
};

// What the task chart draws per dimension of a task whose dimensions are independent (the covariate Gaussians);
// empty `stacked` for a task without such a story (the chart then shows a scatter of its samples).
struct TaskBreakdown {
  QString title;                                   // e.g. "I(x;y) = 2.00 nats\ncorr(x_i, y_i) = 0.4 in ..."
  QString axis = QStringLiteral("dimension");      // what the bars stand for (the class channel's: "source")
  QList<QPair<QString, QVector<double>>> stacked;  // bars per dimension, stacked in this order
  QString rightName;                               // a per-dimension share in [0, 1] on the right axis, or ""
  QVector<double> right;
};

// A few rows of a task whose items are real images or texts of named classes (the class channel), for the window:
// per row, `items` items of x and of y, each with its class bit and its image (side x side pixels in [0, 1], item
// after item, row after row) or its text. rows 0 for a task without such items.
struct ItemsPreview {
  int rows = 0, items = 0, side = 0;  // side 0: texts
  QStringList classNames;             // the class bit 0 names, then bit 1's
  QVector<int> xBits, yBits;          // rows x items
  QVector<float> xPixels, yPixels;
  QStringList xTexts, yTexts;
};

// One configured task: cheap to build and exact. Its truths are known before any sample is drawn.
class TaskModel {
 public:
  virtual ~TaskModel() = default;
  virtual int dimX() const = 0;
  virtual int dimY() const = 0;
  virtual bool hasSubview() const { return false; }  // then x' has dimX() columns
  // I(x, x'; y) with a subview, else I(x; y): what a total-MI method estimates.
  virtual double totalMi() const = 0;
  // The standard error of totalMi() where the truth is a Monte Carlo estimate (bmi's mixtures: the mean of the exact
  // pointwise MI over a fixed sample), shown as "truth ± SE" wherever the truth is; 0 for an exact truth.
  virtual double totalMiStandardError() const { return 0; }
  // I(x; y | x'): what a conditional method estimates. Only asked of a task with a subview.
  virtual double conditionalMi() const { return std::numeric_limits<double>::quiet_NaN(); }
  // Every exact value the task knows, named, the total first (e.g. I(x,x';y), I(x';y), I(x;y|x'), I(x;y)).
  virtual QList<NamedValue> truths() const { return {{hasSubview() ? "I(x,x';y)" : "I(x;y)", totalMi()}}; }
  // The largest MI any task of this family and size can have (the plausibility rule's outer limit), or infinity
  // where the family has none (heavy tails, transforms: then only twice the exact target + 5 nats applies).
  virtual double largestMi() const { return std::numeric_limits<double>::infinity(); }
  // A further exact quantity a method's rules may ask for by name (e.g. "club_oracle": what CLUB reads with the
  // true p(y|x)); nullopt when the task does not know it.
  virtual std::optional<double> knownValue(const QString& name) const {
    Q_UNUSED(name);
    return std::nullopt;
  }
  // The name under which a task states the exact value of the all-pairs CLUB with the true p(y|x): shared by
  // the tasks that know it and the method folder that asks (plugins/club), neither of which includes the other.
  static inline const QString kClubOracleValue = QStringLiteral("club_oracle");
  virtual TaskBreakdown breakdown() const { return {}; }
  // `rows` rows of its first `items` items, drawn on the CPU with a generator seeded by `seed`; empty by default.
  virtual ItemsPreview previewItems(int rows, int items, std::uint64_t seed) const {
    Q_UNUSED(rows);
    Q_UNUSED(items);
    Q_UNUSED(seed);
    return {};
  }
  // A dataset's row count (TaskInfo::dataset); 0 for a law, which gives as many samples as asked.
  virtual int64_t rows() const { return 0; }
  // The sampler of this law on `device` (tasks/task_sampler.h). It draws with the generator a caller hands it.
  virtual std::unique_ptr<TaskSampler> sampler(c10::Device device) const = 0;
};

class TaskPlugin {
 public:
  virtual ~TaskPlugin() = default;
  // The tasks it lists (`milab-cli tasks`, the window's task box), in the order to show them.
  virtual QList<TaskInfo> tasks() const = 0;
  // An id outside the list that this family reads (a variant: student-identity-4-4-5), or nullopt. An id of this
  // family that is malformed (a dof out of range) gives nullopt and sets *error to one line naming the field.
  virtual std::optional<TaskInfo> variant(const QString& id, QString* error) const {
    Q_UNUSED(id);
    Q_UNUSED(error);
    return std::nullopt;
  }
  // Checks and normalises `params` in place: each ParamSpec's range, defaults filled, and the family's cross-field
  // limits (gaussian's mi <= 5 * dim). "" or one line naming the field and the allowed range.
  virtual QString validate(const TaskInfo& task, ParamMap* params) const {
    return validateParamMap(task.params, params, "task " + task.id);
  }
  // The model of validated `params`. `seed` draws whatever the family draws at random (gaussian3's split of the MI).
  virtual std::unique_ptr<TaskModel> build(const TaskInfo& task, const ParamMap& params, std::uint64_t seed) const = 0;
};

}  // namespace milab

// Bump the version when the interface changes: the registry refuses task plugins built against another one.
#define MILAB_TASK_PLUGIN_IID "org.milab.TaskPlugin/5"
Q_DECLARE_INTERFACE(milab::TaskPlugin, MILAB_TASK_PLUGIN_IID)
