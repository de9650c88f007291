#include "gui/comparison_set.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>
#include <QTextStream>
#include <algorithm>
#include <mutex>

#include "engine/run_queue.h"
#include "engine/run_set.h"
#include "engine/staircase.h"
#include "method/method_registry.h"
#include "results/history_row.h"
#include "results/run_files.h"
#include "results/run_store.h"
#include "method/shared_method_options.h"

namespace milab {

namespace {

constexpr int kOracleStepsPerLevel = 50;  // a staircase's oracle: batches read per level (standard error ~1/7)

}  // namespace

QString ComparisonSet::taskKey(const RunSpec& s) {
  return s.task + QJsonDocument(QJsonObject::fromVariantMap(s.taskParams)).toJson(QJsonDocument::Compact);
}

struct ComparisonSet::HistorySink {
  std::mutex mutex;
  QString path, warning;
};

struct ComparisonSet::Entry {
  RunSpec spec;
  int queueIndex = -1;
  QString recordKey = newRecordKey();  // its history row's: the oracle's reading joins that row once known
  bool wantOracle = false;
  std::unique_ptr<Run> oracle;
  bool oracleReported = false;
  bool oracleRecorded = false;
  bool endedReported = false;
  int lastStep = 0;
  double lastSeconds = 0;
};

ComparisonSet::ComparisonSet(const MethodRegistry& registry, int jobs)
    : registry_(registry),
      queue_(std::make_unique<RunQueue>(registry, jobs)),
      history_(std::make_shared<HistorySink>()) {}

ComparisonSet::~ComparisonSet() {
  // Every run stops at once; the queue's destructor then joins them (each within a training step).
  queue_->cancelAll();
  for (auto& e : entries_)
    if (e->oracle) e->oracle->cancel();
}

int ComparisonSet::add(const RunSpec& spec, bool withOracle) {
  auto e = std::make_unique<Entry>();
  e->spec = spec;
  e->queueIndex = queue_->add(spec);
  queue_->run(e->queueIndex).setOnFinished([history = history_, key = e->recordKey](const Run& run) {  // its worker
    QString path;
    {
      std::lock_guard<std::mutex> lock(history->mutex);
      path = history->path;
    }
    if (path.isEmpty()) return;
    const QString warning = recordRun(path, run.spec(), run.result(), run.curve(), "window", nullptr, {key, {}});
    std::lock_guard<std::mutex> lock(history->mutex);
    if (history->warning.isEmpty()) history->warning = warning;
  });
  e->wantOracle = withOracle && SharedMethodOptions::from(spec.methodParams).critic == QStringLiteral("learned");
  entries_.push_back(std::move(e));
  return size() - 1;
}

void ComparisonSet::startOracle(Entry& e) {
  RunSpec spec = e.spec;
  spec.methodParams.insert("critic", "oracle");
  spec.steps = 1;
  // A staircase's oracle reads every level: a few steps each (each one more evaluation batch), all of them
  // its statistics, drawn over the run's own levels.
  if (const MiSchedule stairs = scheduleOf(spec.taskParams); stairs.isSet()) {
    const int perLevel = std::min(stairs.stepsPerLevel, kOracleStepsPerLevel);
    spec.taskParams.insert("steps_per_level", perLevel);
    spec.taskParams.insert("level_tail", perLevel);
  }
  if (validateRunSpec(&spec, registry_).isEmpty()) {
    e.oracle = std::make_unique<Run>(spec, registry_.find(spec.method));
    e.oracle->start();
  } else {
    e.wantOracle = false;
  }
}

ComparisonSet::Poll ComparisonSet::poll() {
  Poll out;
  out.changed = !queue_->poll().isEmpty();
  for (auto& entry : entries_) {
    Entry& e = *entry;
    Progress& p = out.runs.emplace_back();
    Run& run = queue_->run(e.queueIndex);
    const RunStatus status = queue_->status(e.queueIndex);
    if (status == RunStatus::Pending) continue;
    p.points = run.takeNewPoints();
    if (!p.points.isEmpty()) {
      e.lastStep = p.points.last().step;
      e.lastSeconds = p.points.last().seconds;
    }
    p.heldOut = run.takeNewHeldOut();
    out.changed = out.changed || !p.heldOut.isEmpty();
    // The oracle starts with its run (it trains nothing: one step, then the evaluation batches), or after it when
    // the run finished before this poll saw it running (a short run).
    if (e.wantOracle && !e.oracle && (status == RunStatus::Running || status == RunStatus::Finished)) startOracle(e);
    if (e.oracle && !e.oracleReported && e.oracle->isFinished()) {
      e.oracleReported = true;
      p.oracle = e.oracle->result();
    }
    if (queue_->hasEnded(e.queueIndex) && !e.endedReported) {
      e.endedReported = true;
      p.ended = run.result();
      // A stopped or failed run takes its oracle with it; a finished one lets it finish (one short evaluation that
      // a busy machine can end after the training run), so its reference line and reading still appear.
      if (e.oracle && !e.oracle->isFinished() && p.ended->status != RunStatus::Finished) e.oracle->cancel();
      out.changed = true;
    }
    if (e.oracleReported && e.endedReported && !e.oracleRecorded) recordOracle(e, run);
  }
  // Done once every run has ended and every oracle that started has been reported (one may end after its run).
  out.done = queue_->isDone() && std::none_of(entries_.cbegin(), entries_.cend(),
                                              [](const auto& e) { return e->oracle && !e->oracleReported; });
  return out;
}

// The run's history row gains its oracle's reading (issue 79: a run reopened from the history lost its oracle
// line): recorded again under its key, once both have ended; the run recorded its row on its worker as it ended.
void ComparisonSet::recordOracle(Entry& e, const Run& run) {
  e.oracleRecorded = true;
  const RunResult oracle = e.oracle->result();
  RunResult withOracle = run.result();
  if (oracle.status != RunStatus::Finished || withOracle.status != RunStatus::Finished) return;
  withOracle.readings << NamedValue{"oracle", oracle.estimate} << NamedValue{"oracle_se", oracle.stderror};
  QString path;
  {
    std::lock_guard<std::mutex> lock(history_->mutex);
    path = history_->path;
  }
  if (path.isEmpty()) return;
  const QString warning = recordRun(path, run.spec(), withOracle, run.curve(), "window", nullptr, {e.recordKey, {}});
  std::lock_guard<std::mutex> lock(history_->mutex);
  if (history_->warning.isEmpty()) history_->warning = warning;
}

void ComparisonSet::stop(int index) {
  if (index < 0 || index >= size()) return;
  queue_->cancel(entries_[size_t(index)]->queueIndex);
  if (entries_[size_t(index)]->oracle) entries_[size_t(index)]->oracle->cancel();
}

void ComparisonSet::stopAll() {
  for (int i = 0; i < size(); ++i) stop(i);
}

bool ComparisonSet::reset(int jobs) {
  if (running()) return false;  // stop first: what trains is never dropped
  entries_.clear();
  queue_ = std::make_unique<RunQueue>(registry_, jobs);
  return true;
}

void ComparisonSet::setJobs(int jobs) { queue_->setJobs(jobs); }
int ComparisonSet::jobs() const { return queue_->jobs(); }
bool ComparisonSet::running() const { return !queue_->isDone(); }
const Run& ComparisonSet::run(int i) const { return queue_->run(entries_[size_t(i)]->queueIndex); }
const Run* ComparisonSet::oracle(int i) const { return entries_[size_t(i)]->oracle.get(); }
RunStatus ComparisonSet::status(int i) const { return queue_->status(entries_[size_t(i)]->queueIndex); }
bool ComparisonSet::hasEnded(int i) const { return queue_->hasEnded(entries_[size_t(i)]->queueIndex); }
const RunSpec& ComparisonSet::spec(int i) const { return entries_[size_t(i)]->spec; }
int ComparisonSet::lastStep(int i) const { return entries_[size_t(i)]->lastStep; }
double ComparisonSet::lastSeconds(int i) const { return entries_[size_t(i)]->lastSeconds; }

QList<RunSpec> ComparisonSet::specs() const {
  QList<RunSpec> out;
  for (const auto& e : entries_) out << e->spec;
  return out;
}

bool ComparisonSet::onTaskOf(const RunSpec& spec) const {
  return entries_.empty() || taskKey(entries_.front()->spec) == taskKey(spec);
}

bool ComparisonSet::trains(const RunSpec& spec) const {
  const MethodPlugin* method = registry_.find(spec.method);
  return method && method->info().trains;
}

ComparisonSet::LabelKeys ComparisonSet::labelKeys() const { return labelKeysByMethod(specs()); }

QString ComparisonSet::labelOf(const RunSpec& spec, const LabelKeys& keys) const {
  return runLabel(spec, keysTheRunReads(keys.value(spec.method), trains(spec)));
}

QStringList ComparisonSet::labels() const {
  const LabelKeys keys = labelKeys();
  QStringList out;
  QMap<QString, int> uses;
  for (const auto& e : entries_) ++uses[labelOf(e->spec, keys)];
  for (int i = 0; i < size(); ++i) {
    out << labelOf(entries_[size_t(i)]->spec, keys);
    if (uses.value(out.last()) > 1) out.last() += QStringLiteral(" #%1").arg(i + 1);
  }
  return out;
}

QList<QPair<QString, QList<int>>> ComparisonSet::seedGroups() const {
  const LabelKeys keys = labelKeys();
  QList<QPair<QString, QList<int>>> groups;
  if (!differingKeys(specs()).contains("seed")) return groups;
  for (int i = 0; i < size(); ++i) {
    const RunSpec& spec = entries_[size_t(i)]->spec;
    const QString group = seedGroupLabel(spec, keysTheRunReads(keys.value(spec.method), trains(spec)));
    auto it = std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.first == group; });
    if (it == groups.end())
      groups << qMakePair(group, QList<int>{i});
    else
      it->second << i;
  }
  return groups;
}

QList<FigureRun> ComparisonSet::figureRuns() const {
  QList<FigureRun> runs;
  for (const auto& e : entries_) {
    const Run& run = queue_->run(e->queueIndex);
    FigureRun f{e->spec, run.result(), {}};
    f.result.status = queue_->status(e->queueIndex);
    if (!f.result.levels.isEmpty()) f.curve = run.curve();
    runs << f;
  }
  return runs;
}

QString ComparisonSet::saveExperiment(const QString& path) const {
  if (entries_.empty()) return QStringLiteral("save: the set is empty; run something first");
  return saveAtomically(path, QJsonDocument(runSetExperiment(specs())).toJson(QJsonDocument::Indented));
}

QString ComparisonSet::exportCsv(const QString& path) const {
  if (entries_.empty()) return QStringLiteral("export: the set is empty; run something first");
  QByteArray bytes;
  QTextStream out(&bytes);
  out.setRealNumberPrecision(10);
  out << "run,method,differs,estimate,stderr,target,true_value,ceiling,ceiling_value,estimate_minus_target,"
         "steps_per_second,status,reason\n";
  const LabelKeys keys = labelKeys();
  for (int i = 0; i < size(); ++i) {
    const Entry& e = *entries_[size_t(i)];
    const RunResult r = queue_->run(e.queueIndex).result();
    const bool estimated = hasEstimate(r);
    out << i + 1 << ',' << csvField(e.spec.method) << ',' << csvField(labelOf(e.spec, keys).section(' ', 1)) << ',';
    if (estimated)
      out << r.estimate << ',' << r.stderror << ',';
    else
      out << ",,";
    out << csvField(r.targetName) << ',' << r.trueMi << ',';
    if (r.ceilings.isEmpty())
      out << ",,";
    else
      out << csvField(r.ceilings[0].name) << ',' << r.ceilings[0].value << ',';
    if (estimated) out << r.estimate - r.trueMi;
    out << ',';
    if (r.seconds > 0 && r.stepsDone > 0) out << r.stepsDone / r.seconds;
    out << ',' << statusName(status(i)) << ',' << csvField(r.reason) << '\n';
  }
  out.flush();
  return saveAtomically(path, bytes);
}

void ComparisonSet::setHistoryPath(const QString& path) {
  std::lock_guard<std::mutex> lock(history_->mutex);
  history_->path = path;
}

QString ComparisonSet::historyWarning() const {
  std::lock_guard<std::mutex> lock(history_->mutex);
  return history_->warning;
}

}  // namespace milab
