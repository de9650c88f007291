#include "cli/mpi_grid.h"

#include <mpi.h>
#include <unistd.h>

#include <QVector>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <thread>

#include "engine/grid_scheduler.h"
#include "engine/run.h"
#include "method/method_registry.h"
#include "results/run_message.h"

namespace milab {

namespace {

// Worker -> rank 0: kRequest (give me a cell), kResult (a cell's packed result). Rank 0 -> worker: kCell (a packed
// cell), kStop (no more cells: end), kCancel (stop the cell you run; its result still comes back). A worker stopped
// by a signal of its own sends its cell's result, then kLeaving instead of another request.
enum Tag : int { kRequest = 1, kResult = 2, kCell = 3, kStop = 4, kCancel = 5, kLeaving = 6 };

void send(int to, Tag tag, const QByteArray& bytes = {}) {
  MPI_Send(bytes.constData(), static_cast<int>(bytes.size()), MPI_BYTE, to, tag, MPI_COMM_WORLD);
}

QByteArray receive(const MPI_Status& probed) {
  int count = 0;
  MPI_Get_count(&probed, MPI_BYTE, &count);
  QByteArray bytes(count, Qt::Uninitialized);
  MPI_Recv(bytes.data(), count, MPI_BYTE, probed.MPI_SOURCE, probed.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  return bytes;
}

// The next message from `source` (or any rank), without blocking: false when none is waiting.
bool poll(int source, MPI_Status* status) {
  int waiting = 0;
  MPI_Iprobe(source, MPI_ANY_TAG, MPI_COMM_WORLD, &waiting, status);
  return waiting != 0;
}

QString where(int rank) {
  char host[256] = {};
  gethostname(host, sizeof host - 1);
  return QStringLiteral("rank %1 on %2").arg(rank).arg(QString::fromLocal8Bit(host));
}

// Runs one cell to its end on this rank; `stop()` is polled every 50 ms and cancels it.
RunResult runCell(const RunSpec& spec, const MethodRegistry& registry, const std::function<bool()>& stop,
                  QVector<CurvePoint>* curve) {
  Run run(spec, registry.find(spec.method));
  run.start();
  while (!run.wait(50))
    if (stop()) run.cancel();
  *curve = run.curve();
  return run.result();
}

}  // namespace

MpiSession::MpiSession() {
  MPI_Init(nullptr, nullptr);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
}

MpiSession::~MpiSession() {
  if (rank_ == 0) releaseWorkers();
  MPI_Finalize();
}

void MpiSession::abort(int exitCode) {
  MPI_Abort(MPI_COMM_WORLD, exitCode);
  std::_Exit(exitCode);  // MPI_Abort does not return; should it, the job still ends here
}

void MpiSession::releaseWorkers() {
  if (released_ || rank_ != 0) return;
  released_ = true;
  // Before any cell was handed out, every worker sends one request (or, stopped by a signal, one kLeaving):
  // answer each request with stop.
  for (int i = 1; i < size_; ++i) {
    MPI_Status status;
    MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &status);
    receive(status);
    if (status.MPI_TAG == kRequest) send(status.MPI_SOURCE, kStop);
  }
}

int runMpiWorker(const MethodRegistry& registry, const std::atomic<bool>& interrupted) {
  const int rank = mpiRankFromEnvironment();
  while (true) {
    if (interrupted.load()) {
      send(0, kLeaving);
      return 130;
    }
    send(0, kRequest);
    MPI_Status status;
    do {  // a cancel meant for a cell that already ended is dropped
      MPI_Probe(0, MPI_ANY_TAG, MPI_COMM_WORLD, &status);
      if (status.MPI_TAG == kCancel) receive(status);
    } while (status.MPI_TAG == kCancel);
    const QByteArray message = receive(status);
    if (status.MPI_TAG == kStop) break;

    int index = -1;
    QVariantMap flat;
    RunResult result;
    QVector<CurvePoint> curve;
    RunSpec spec;
    if (!unpackCell(message, &index, &flat)) {
      std::fprintf(stderr, "milab-cli: rank %d: a message from rank 0 is not a cell; stopping\n", rank);
      return 1;
    }
    // Validated again here: the plugins of this host must take the cell as rank 0's did.
    if (const QString err = runSpecFromFlat(flat, registry, &spec); !err.isEmpty()) {
      result.status = RunStatus::Failed;
      result.reason = QStringLiteral("%1 refuses the cell: %2").arg(where(rank), err);
    } else {
      bool cancelled = false;
      result = runCell(
          spec, registry,
          [&] {
            MPI_Status s;
            while (poll(0, &s) && s.MPI_TAG == kCancel) {
              receive(s);
              cancelled = true;
            }
            return cancelled || interrupted.load();
          },
          &curve);
    }
    send(0, kResult, packRunResult(index, result, curve));
    if (interrupted.load()) {
      send(0, kLeaving);
      return 130;
    }
  }
  return 0;
}

int runGridOverMpi(MpiSession& session, const QList<GridCell>& cells, const QString& outDir,
                   const MethodRegistry& registry, const QString& historyPath, const GridShard& shard,
                   const std::atomic<bool>& interrupted) {
  QList<CellResult> results;
  QList<int> pending;  // indices into cells, in grid order
  bool abortJob = false;
  int done = 0;
  for (int i = 0; i < cells.size(); ++i) {
    CellResult c{cells[i], {}, false};
    c.reused = readFinishedCell(outDir, cells[i], &c.result);
    results << c;
    if (c.reused)
      printCell(++done, int(cells.size()), c);
    else
      pending << i;
  }
  QStringList errors;
  QString historyWarning;
  int unwritten = 0;
  auto record = [&](int index, const RunResult& result, const QVector<CurvePoint>& curve, const QString& at) {
    results[index].result = result;
    QString warning;
    const QStringList e = recordCell(outDir, cells[index], &results[index].result, curve, historyPath, &warning);
    errors << e;
    unwritten += !e.isEmpty();
    if (historyWarning.isEmpty()) historyWarning = warning;
    printCell(++done, int(cells.size()), results[index], at);
  };

  std::map<int, int> busy;  // worker rank -> the cell it runs
  int stopped = 0;          // workers told to stop
  bool cancelled = false;
  std::unique_ptr<Run> local;  // rank 0 runs cells too, between messages
  int localIndex = -1;
  // mpirun sends a stop to every rank when one dies or it is interrupted, and kills them a few seconds later:
  // rank 0 waits this long for the cells it cancelled, then writes what it has.
  const auto deadline = std::chrono::milliseconds(1500);
  std::chrono::steady_clock::time_point cancelledAt;
  while (true) {
    bool progressed = false;
    if (interrupted.load() && !cancelled) {
      cancelled = true;
      // Said first: mpirun may kill this rank moments later. Every finished cell is on disk already.
      int finished = 0;
      for (const CellResult& c : results) finished += c.result.status == RunStatus::Finished;
      std::fprintf(stderr,
                   "milab-cli: stopping: a signal reached rank 0 (Ctrl-C, or mpirun ending the job because a rank "
                   "died); %d finished cells are kept in %s; rerun the same command to resume\n",
                   finished, qPrintable(outDir));
      std::fflush(stderr);
      cancelledAt = std::chrono::steady_clock::now();
      for (const auto& [rank, cell] : busy) send(rank, kCancel);
      if (local) local->cancel();
    }
    MPI_Status status;
    while (poll(MPI_ANY_SOURCE, &status)) {
      progressed = true;
      const QByteArray message = receive(status);
      const int rank = status.MPI_SOURCE;
      if (status.MPI_TAG == kRequest) {
        if (!cancelled && !pending.isEmpty()) {
          const int index = pending.takeFirst();
          busy[rank] = index;
          send(rank, kCell, packCell(index, runSpecToFlat(cells[index].spec)));
        } else {
          send(rank, kStop);
          ++stopped;
        }
      } else if (status.MPI_TAG == kLeaving) {  // a worker stopped by a signal of its own
        ++stopped;
      } else if (status.MPI_TAG == kResult) {
        int index = -1;
        RunResult result;
        QVector<CurvePoint> curve;
        if (unpackRunResult(message, &index, &result, &curve) && busy.count(rank) && busy[rank] == index) {
          busy.erase(rank);
          record(index, result, curve, QStringLiteral("rank %1").arg(rank));
        } else {
          errors << QStringLiteral("mpi: rank %1 sent a result that is not its cell's; ignored").arg(rank);
        }
      }
    }
    if (local && local->isFinished()) {
      record(localIndex, local->result(), local->curve(), "rank 0");
      local.reset();
      progressed = true;
    }
    if (!local && !cancelled && !pending.isEmpty()) {
      localIndex = pending.takeFirst();
      local = std::make_unique<Run>(cells[localIndex].spec, registry.find(cells[localIndex].spec.method));
      local->start();
    }
    const bool drained = (cancelled || pending.isEmpty()) && busy.empty() && !local;
    if (drained && stopped == session.size() - 1) break;
    // A rank that died (or hangs) after a stop was asked for: rank 0 keeps what it has and ends the job.
    if (cancelled && !local && std::chrono::steady_clock::now() - cancelledAt > deadline) {
      errors << QStringLiteral(
                    "mpi: %1 rank(s) did not answer within 1.5 s of the stop (one died, or mpirun "
                    "is ending the job); the finished cells are written, rerun to resume")
                    .arg(session.size() - 1 - stopped);
      abortJob = true;
      break;
    }
    if (!progressed) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  session.markWorkersReleased();
  const int code = finishGrid(outDir, results, errors, unwritten, historyWarning, shard, interrupted);
  if (abortJob) session.abort(code);  // the finished cells are on disk already
  return code;
}

}  // namespace milab
