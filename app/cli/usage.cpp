#include "cli/usage.h"

#include <QMap>

namespace milab {

namespace {

const QMap<QString, QString>& usages() {
  static const QMap<QString, QString> u{
      {"methods",
       "usage: milab-cli methods [--long]\n"
       "Lists the method plugins (id, name). --long adds, per method, what it estimates, whether it is a lower\n"
       "bound, its ceilings, and each parameter with its default, range and meaning.\n"},
      {"tasks",
       "usage: milab-cli tasks [--long]\n"
       "Lists the tasks (id, name, exact MI at the defaults): the covariate Gaussians and the Beyond-Normal\n"
       "benchmark's 40 ids (any variant of its families is read too: student-identity-4-4-5). --long adds, per\n"
       "task, what it offers beyond samples (x', exact PMI, densities) and each parameter.\n"},
      {"run",
       "usage: milab-cli run [EXPERIMENT.json] --out DIR [--task ID (milab-cli tasks)] [--dim N] [--mi NATS]\n"
       "                 [--alpha A] --method ID [--K N] [--steps N] [--lr LR] [--seed N]\n"
       "                 [--device auto|cpu|cuda] [--<any parameter the task or method declares> VALUE]\n"
       "                 [--jobs N] [--db PATH] [--shard I/N] [--check] [--units nats|bits]\n"
       "--method (milab-cli methods) is needed unless the file names one: no method is the default.\n"
       "A value with commas (--K 8,64,512) sweeps it; so does a \"grid\" in the file. A grid writes one folder\n"
       "per cell under DIR/cells, DIR/grid.csv and the figure the grid's shape calls for (estimate_vs_K,\n"
       "estimate_vs_truth, staircase, estimates or probe_accuracy .{png,pdf,svg}; a grid over tasks draws the\n"
       "heat map benchmark.{png,pdf,svg} and writes benchmark.csv), running N cells at a time and reusing the\n"
       "finished cells of an earlier, interrupted invocation. --mi-schedule 2,4,6 --steps-per-level N makes an MI\n"
       "staircase (staircase.{png,pdf,svg} and staircase.csv: bias, variance and MSE per level).\n"
       "--shard I/N runs only the cells whose index is I modulo N (a job array on a shared folder) and writes no\n"
       "table; the same command without --shard then reuses them all and writes grid.csv and the figures.\n"
       "Under mpirun (-np N, a host file for many hosts) rank 0 hands the cells out to every rank, one at a time,\n"
       "and writes every result itself: only rank 0 needs the file and DIR; the numbers are those of --jobs 1.\n"
       "Every run that ends is also recorded in the run history (--db PATH, else $MILAB_DB, else the user's data\n"
       "folder): see milab-cli history. --units bits prints the result lines in bits (the files stay in nats).\n"
       "With --samples N (or --task data): --ci LEVEL (0.95) sets the readings' interval over the data,\n"
       "--permutations P (19) the test of independence, --extrapolate true the reading at infinite N.\n"
       "--check makes every check a run makes before its first step (tasks, methods, ranges, memory) and\n"
       "writes nothing: exit 0 and one line, or exit 2 as the run would (prior-orders and hashing take it too).\n"
       "Exit codes: 0 done, 1 a run failed, 2 bad input (one line on stderr, nothing written), 130/143/129\n"
       "stopped by SIGINT/SIGTERM/SIGHUP (what was measured is written).\n"},
      {"prior-orders",
       "usage: milab-cli prior-orders [EXPERIMENT.json] --out DIR --method bmmi|ammi [--bits M] [--steps N]\n"
       "                 [--max-order R] [--fit-steps N] [--fit-lr LR] [--fixed-batch N] [--<task/method key> VALUE]\n"
       "(--method: unless the experiment file names one; any method with a Markov encoder.)\n"
       "AMMI's Figure 1(a): trains the encoder for --steps, freezes it, and reads the best order-r prior's cross\n"
       "entropy (closed form, and fitted by Adam) for r up to R against the brute-force H(Z) of a fixed batch:\n"
       "DIR/summary.json, DIR/prior_orders.csv and DIR/prior_orders.{png,pdf,svg}.\n"},
      {"hashing",
       "usage: milab-cli hashing [EXPERIMENT.json] --out DIR [--method ammi|bmmi] [--bits 16,32,64,128]\n"
       "                 [--corpus fashion-mnist|fortunes] [--features N] [--steps N] [--batch N] [--hidden N]\n"
       "                 [--lr LR] [--beta B] [--order-prior R] [--train-limit N] [--query-limit N] [--top-k K]\n"
       "                 [--seed N] [--device D]\n"
       "Fashion-MNIST's images (Debian's dataset-fashion-mnist) or the fortunes corpus's texts by topic (Debian's\n"
       "fortunes, as --features hashed TF-IDF columns) hashed by the method (the file's `method`, or --method: one\n"
       "with a Markov encoder that can be its own predictor; bmmi takes at most 16 bits) and by random-projection\n"
       "LSH; top-K precision by Hamming distance, beside chance: DIR/hashing.csv, DIR/summary.json and\n"
       "DIR/hashing.{png,pdf,svg}.\n"},
      {"history",
       "usage: milab-cli history [--task T] [--method M] [--status finished|cancelled|failed] [--limit N] [--json]\n"
       "                 [--db PATH]\n"
       "Lists the runs recorded in the run history, newest first: id, end time, task, method, status, estimate,\n"
       "target and its true value, steps, where it ran, the method's warning. --json prints them as a JSON array.\n"},
      {"show",
       "usage: milab-cli show ID [--db PATH]\n"
       "Prints one recorded run as JSON: all its summary.json held (estimate, stderr, target, ceilings, terms, the\n"
       "permutation baseline, held-out and probe readings, levels, the warning), where and when it ran, and the\n"
       "experiment that reproduces it. A run recorded before 2026-11-26 has the fields the history kept then.\n"},
      {"sample",
       "usage: milab-cli sample --task ID --samples N [--seed S] [--<task key> VALUE] --out FILE.csv|FILE.npy\n"
       "Writes the N rows a run with that task, N and seed reads, in its order and before the standardisation the\n"
       "run applies (x's columns, then x''s, then y's), so that another tool reads the same data; never overwrites.\n"
       "`--task data --file FILE.csv` then reads the same rows (drawn from the table in another order, so its\n"
       "held-out half differs; KSG, which reads every row, reads the same).\n"},
      {"help", "usage: milab-cli help [COMMAND]\nPrints what COMMAND does and takes, or every command's synopsis.\n"},
  };
  return u;
}

}  // namespace

QStringList commandNames() { return usages().keys(); }

QString usageOf(const QString& command) { return usages().value(command); }

QString overallUsage() {
  QString text = "milab-cli: mutual-information estimators on tasks with a known MI.\n";
  for (const QString& c : {"methods", "tasks", "run", "sample", "prior-orders", "hashing", "history", "show", "help"})
    text += "\n" + usages().value(c);
  return text + "\nmilab-cli --version prints the version.\n";
}

}  // namespace milab
