#include "engine/run_queue.h"

#include "method/method_registry.h"

namespace milab {

RunQueue::RunQueue(const MethodRegistry& registry, int jobs) : registry_(registry), jobs_(std::max(1, jobs)) {}

RunQueue::~RunQueue() {
  cancelAll();  // every run stops at once; their destructors then join
}

int RunQueue::add(const RunSpec& spec) {
  Entry e;
  e.run = std::make_unique<Run>(spec, registry_.find(spec.method));
  runs_.push_back(std::move(e));
  return size() - 1;
}

RunStatus RunQueue::status(int i) const {
  const Entry& e = runs_[i];
  if (e.skipped) return RunStatus::Cancelled;
  if (!e.started) return RunStatus::Pending;
  return e.run->isFinished() ? e.run->result().status : RunStatus::Running;
}

bool RunQueue::hasEnded(int i) const {
  const Entry& e = runs_[i];
  return e.skipped || (e.started && e.run->isFinished());
}

QList<int> RunQueue::poll() {
  QList<int> ended;
  int running = 0;
  for (int i = 0; i < size(); ++i) {
    Entry& e = runs_[i];
    if (hasEnded(i) && !e.reported) {
      if (e.started) e.run->wait();  // joins the finished worker
      e.reported = true;
      ended << i;
    }
    running += e.started && !e.run->isFinished();
  }
  for (int i = 0; i < size() && running < jobs_; ++i) {
    Entry& e = runs_[i];
    if (e.started || e.skipped) continue;
    e.run->start();
    e.started = true;
    ++running;
  }
  return ended;
}

void RunQueue::cancel(int i) {
  Entry& e = runs_[i];
  if (!e.started)
    e.skipped = true;
  else
    e.run->cancel();
}

void RunQueue::cancelAll() {
  for (int i = 0; i < size(); ++i) cancel(i);
}

bool RunQueue::isDone() const {
  // Every end reported too: a run that ends between a poll() and this call is not done until the next poll()
  // reports it (a grid once wrote that cell as pending when it ended there).
  for (int i = 0; i < size(); ++i)
    if (!hasEnded(i) || !runs_[i].reported) return false;
  return true;
}

void RunQueue::setJobs(int jobs) { jobs_ = std::max(1, jobs); }

}  // namespace milab
