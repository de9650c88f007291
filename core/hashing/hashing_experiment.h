#pragma once
// Unsupervised hashing (the AMMI paper's sec. 4.1 protocol) of Fashion-MNIST's images or of the fortunes corpus's
// texts (`corpus`): for each code length m, the file's method (AMMI, BMMI) and random-projection LSH are fitted on
// the training items, then each held-out item retrieves its top_k nearest training items by Hamming distance;
// precision = the share with the query's class (an image's) or topic (a text's).
// Torch-free header: the app drives the experiment through it.
#include <QList>
#include <QString>
#include <atomic>
#include <functional>
#include <optional>

#include "hashing/hashing_options.h"  // its keys, read once
#include "params/param_spec.h"

namespace milab {

struct Experiment;
class MethodRegistry;

struct HashingSpec {
  QList<int> bits{16, 32, 64};
  ParamMap params;  // validated against hashingSpecs(), and `method`
};

// `bits` as given (a number, "16,32,64" or a list); `method` one of the registry's methods with a Markov encoder
// and a learned prior (their training keys are hashing's); the rest must be hashingSpecs() keys. "" or one error
// line naming the field.
QString hashingSpecFromFlat(const QVariantMap& flat, const QVariantList& bits, const MethodRegistry& registry,
                            HashingSpec* out);
// The same from an experiment file's contents: bits may be its one grid axis; no method rows.
QString hashingSpecFromExperiment(const Experiment& experiment, const MethodRegistry& registry, HashingSpec* out);

struct HashingRow {
  int bits = 0;
  QString method;         // the spec's method (its codes) or "lsh"
  double precision = 0;   // mean top-k precision over the queries
  int distinctCodes = 0;  // distinct codes among the training items
  // The codes' entropy per bit: the mean over bits of the binary entropy (in bits) of the share of training codes
  // with that bit set. 1 when every bit splits the items in halves; what a code of m bits spends of its capacity.
  double bitEntropy = 0;
  // The method's H+(Z) - H(Z|Y) averaged over the last 100 steps (nats); lsh estimates nothing: none.
  std::optional<double> estimate;
  double seconds = 0;
};

struct HashingResult {
  QList<HashingRow> rows;
  QString corpus;  // HashingOptions::corpus
  int trainImages = 0, queries = 0;  // training items (images or texts) and queries
  // What a random ranking retrieves: the chance that a training item shares a query's label (the sum over labels of
  // the queries' share times the training items' share).
  double chancePrecision = 0;
  QString device, error;
  bool cancelled = false;
};

// "" when the spec's corpus is in place (Fashion-MNIST's four files, or the fortunes corpus) and holds at least
// top_k training items, else one line: how to install it, or top_k's range for this corpus (a top_k past the
// training items would retrieve every item, and read chance).
QString hashingCorpusProblem(const HashingSpec& spec);

// For each code length: LSH's codes, then the spec's method trained on the training items as both x and y (its
// predictor the encoder itself) through a TrainingSession, its codes the encoder's most likely ones.
HashingResult runHashing(const HashingSpec& spec, const MethodRegistry& registry,
                         const std::function<void(const HashingRow&)>& onRow, const std::atomic<bool>& cancel);

}  // namespace milab
