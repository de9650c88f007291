#include "hashing/hashing_experiment.h"

#include <ATen/ATen.h>
#include <ATen/CPUGeneratorImpl.h>
#include <c10/core/GradMode.h>

#include <QElapsedTimer>
#include <algorithm>
#include <set>

#include "data/fashion_mnist.h"
#include "data/fortune_corpus.h"
#include "data/hashed_tfidf.h"
#include "data/topic_split.h"
#include "engine/device.h"
#include "engine/experiment.h"
#include "engine/run.h"
#include "engine/training_session.h"
#include "hashing/hamming_retrieval.h"
#include "hashing/image_rows_task.h"
#include "hashing/lsh_hasher.h"
#include "method/estimator.h"
#include "method/markov_encoder.h"
#include "method/method_registry.h"
#include "random/seed_streams.h"

namespace milab {

namespace {

// The settings of hashingSpecs() that are the method's own training settings, passed on under the same names.
ParamMap trainingParams(const HashingOptions& o) {
  return {{"batch", o.batch},           {"lr", o.lr},           {"beta", o.beta},    {"order_prior", o.orderPrior},
          {"prior_steps", o.priorSteps}, {"prior_lr", o.priorLr}, {"hidden", o.hidden}};
}

// The methods that can learn the codes: a Markov encoder that can be its own predictor (AMMI with its learned
// prior, BMMI with its exact entropy over the 2^m codes). Asked of the registry, never named here.
QStringList hashingMethods(const MethodRegistry& registry) {
  QStringList out;
  for (const QString& id : registry.ids()) {
    const MethodInfo info = registry.find(id)->info();
    if (info.markovEncoder && findSpec(info.params, "predictor")) out << id;
  }
  return out;
}

// The method's settings for code length m: order 0 (a code is each bit's own argmax), the encoder its own
// predictor (X = Y), those of hashing's training keys the method takes (BMMI has no prior to train); validated as
// a run's would be, so a length the method cannot take is refused in its own words (BMMI: bits in [1, 16]).
QString methodParamsFor(const HashingOptions& hashing, int m, const MethodPlugin& method, ParamMap* out) {
  ParamMap params{{"bits", m}, {"order_y", 0}, {"order_x", 0}, {"predictor", "encoder"}};
  const ParamMap training = trainingParams(hashing);
  const MethodInfo info = method.info();
  for (auto it = training.cbegin(); it != training.cend(); ++it)
    if (findSpec(info.params, it.key())) params.insert(it.key(), it.value());
  QString err = validateParamMap(info.params, &params, "method " + info.id);
  if (err.isEmpty()) err = method.validate(params, TaskInfo{}, {});
  *out = params;
  return err;
}

// Codes of up to 128 bits, the longest of AMMI's Table 1.
constexpr int kMaxBits = 128;

// The mean over columns of H_b(share of ones), in bits.
double meanBitEntropy(const at::Tensor& codes) {
  const at::Tensor p = codes.to(at::kCPU, at::kDouble).mean(0).clamp(1e-300, 1 - 1e-16);
  const at::Tensor h = -(p * at::log2(p) + (1 - p) * at::log2(1 - p));
  return at::where(p > 1e-200, h, at::zeros_like(h)).mean().item<double>();
}

double chanceOf(const at::Tensor& queryLabels, const at::Tensor& databaseLabels) {
  const int64_t labels = std::max(queryLabels.max().item<int64_t>(), databaseLabels.max().item<int64_t>()) + 1;
  const at::Tensor q = at::bincount(queryLabels, {}, labels).to(at::kDouble) / double(queryLabels.size(0));
  const at::Tensor d = at::bincount(databaseLabels, {}, labels).to(at::kDouble) / double(databaseLabels.size(0));
  return (q * d).sum().item<double>();
}

// `limit` rows of `set` spread evenly over it (every row when 0 or at least its size), in order: a corpus sorted
// by topic keeps every topic.
ImageSet evenSpread(const ImageSet& set, int limit) {
  const int64_t n = set.images.size(0);
  if (limit <= 0 || limit >= n) return set;
  const at::Tensor rows = at::floor(at::arange(limit, at::kDouble) * (double(n) / limit)).to(at::kLong);
  return {set.images.index_select(0, rows), set.labels.index_select(0, rows)};
}

// The fortunes corpus's texts by topic, every topic split by splitTopics (a fifth held out).
QString fortunesSplit(TopicSplit* out) {
  const QString dir = fortunesDir();
  if (QString err = checkFortunes(dir); !err.isEmpty()) return err;
  QList<QStringList> perTopic;
  for (const QString& topic : fortuneTopics(dir)) {
    perTopic << QStringList();
    if (QString err = loadFortuneTopic(dir, topic, &perTopic.last()); !err.isEmpty()) return err;
  }
  *out = splitTopics(perTopic, kTopicHeldOutEvery);
  return {};
}

// The split as vectors: the TF-IDF fitted on the training texts; labels are topic indices.
QString loadFortunes(int features, ImageSet* train, ImageSet* test) {
  TopicSplit split;
  if (QString err = fortunesSplit(&split); !err.isEmpty()) return err;
  const HashedTfidf tfidf(split.texts[0], features);
  ImageSet* parts[2] = {train, test};
  for (int part = 0; part < 2; ++part) {
    parts[part]->images = tfidf.transform(split.texts[part]);
    parts[part]->labels = at::tensor(std::vector<int64_t>(split.labels[part].begin(), split.labels[part].end()));
  }
  return {};
}

QString loadCorpus(const HashingOptions& p, ImageSet* train, ImageSet* test) {
  if (p.corpus != "fortunes") {
    if (QString err = loadFashionMnist(fashionMnistDir(), "train", p.trainLimit, train); !err.isEmpty()) return err;
    return loadFashionMnist(fashionMnistDir(), "t10k", p.queryLimit, test);
  }
  ImageSet allTrain, allTest;
  if (QString err = loadFortunes(p.features, &allTrain, &allTest); !err.isEmpty()) return err;
  *train = evenSpread(allTrain, p.trainLimit);
  *test = evenSpread(allTest, p.queryLimit);
  return {};
}

}  // namespace

QString hashingSpecFromFlat(const QVariantMap& flat, const QVariantList& bits, const MethodRegistry& registry,
                            HashingSpec* out) {
  QVariantList values = bits;
  QVariantMap params = flat;
  // The code lengths: the file's own list, not one of hashing's settings.
  const QVariant flatBits = params.take("bits");
  if (values.isEmpty() && flatBits.isValid()) {
    const QVariant& b = flatBits;
    values = b.typeId() == QMetaType::QVariantList ? b.toList() : listItems(b.toString());
    if (const QString err = checkListItems("bits", values); !err.isEmpty()) return err;
  }
  const QStringList methods = hashingMethods(registry);
  const QString method = params.take("method").toString();
  if (method.isEmpty())
    return QStringLiteral("method: required for hashing, one of %1 (the codes' encoder)").arg(methods.join('|'));
  if (!methods.contains(method))
    return QStringLiteral("method: must be one of %1 for hashing (a Markov encoder that can be its own predictor), "
                          "got '%2'")
        .arg(methods.join('|'), method);
  if (!values.isEmpty()) out->bits.clear();
  for (const QVariant& v : values) {
    bool ok = false;
    const int m = v.toString().toInt(&ok);
    if (!ok || m < 1 || m > kMaxBits)
      return QStringLiteral("bits: must be integers in [1, %1] (e.g. 16,32,64,128), got '%2'").arg(kMaxBits).arg(v.toString());
    out->bits << m;
  }
  QString err = validateParamMap(hashingSpecs(), &params, "hashing");
  if (!err.isEmpty()) return err;
  const int shortest = *std::min_element(out->bits.cbegin(), out->bits.cend());
  const HashingOptions options = HashingOptions::from(params);
  if (options.orderPrior > shortest)
    return QStringLiteral("order_prior: must be <= the shortest code length, bits = %1, got %2")
        .arg(shortest)
        .arg(options.orderPrior);
  for (int m : out->bits) {
    ParamMap methodParams;
    if (err = methodParamsFor(options, m, *registry.find(method), &methodParams); !err.isEmpty()) return err;
  }
  QString device;
  err = resolveDevice(options.device, &device);
  if (!err.isEmpty()) return err;
  params.insert("method", method);
  out->params = params;
  return {};
}

QString hashingSpecFromExperiment(const Experiment& experiment, const MethodRegistry& registry, HashingSpec* out) {
  QVariantList bits;
  for (const auto& axis : experiment.axes) {
    if (axis.first != "bits") return QStringLiteral("%1: only bits may list values for hashing").arg(axis.first);
    // --bits , once ran the default lengths and --bits 16,16 trained m = 16 twice: refused as run's lists are.
    if (const QString err = checkListItems(axis.first, axis.second); !err.isEmpty()) return err;
    bits = axis.second;
  }
  if (!experiment.methods.isEmpty()) return "methods: hashing compares one method (its `method` key) with lsh";
  return hashingSpecFromFlat(experiment.base, bits, registry, out);
}

QString hashingCorpusProblem(const HashingSpec& spec) {
  const HashingOptions p = HashingOptions::from(spec.params);
  int64_t items = 0;
  if (p.corpus == "fortunes") {
    TopicSplit split;  // the texts alone: their vectors are the run's to compute
    if (QString err = fortunesSplit(&split); !err.isEmpty()) return err;
    items = split.texts[0].size();
  } else {
    if (QString err = checkFashionMnist(fashionMnistDir()); !err.isEmpty()) return err;
    items = kFashionMnistTrainImages;
  }
  if (p.trainLimit > 0) items = std::min<int64_t>(items, p.trainLimit);
  if (p.topK > items)
    return QStringLiteral("top_k: must be an integer in [1, %1], the number of training %2, got %3")
        .arg(items)
        .arg(p.corpusWords())
        .arg(p.topK);
  return {};
}

HashingResult runHashing(const HashingSpec& spec, const MethodRegistry& registry,
                         const std::function<void(const HashingRow&)>& onRow, const std::atomic<bool>& cancel) {
  HashingResult out;
  const HashingOptions p = HashingOptions::from(spec.params);
  const QString& methodId = p.method;
  try {
    const MethodPlugin* method = registry.find(methodId);
    if (!method) {
      out.error = QStringLiteral("method: %1 is not loaded").arg(methodId);
      return out;
    }
    out.error = resolveDevice(p.device, &out.device);
    if (!out.error.isEmpty()) return out;
    const c10::Device device(out.device == "cuda" ? c10::kCUDA : c10::kCPU);
    ImageSet train, test;
    out.corpus = p.corpus;
    out.error = loadCorpus(p, &train, &test);
    if (!out.error.isEmpty()) return out;
    out.chancePrecision = chanceOf(test.labels, train.labels);
    out.trainImages = static_cast<int>(train.images.size(0));
    out.queries = static_cast<int>(test.images.size(0));
    const at::Tensor trainX = train.images.to(device), testX = test.images.to(device);
    const ImageRowsTask task(trainX);
    const int topK = p.topK, steps = p.steps, seed = p.seed;
    auto score = [&](const at::Tensor& trainCodes, const at::Tensor& testCodes, HashingRow* row) {
      const PackedCodes db = packCodes(trainCodes);
      row->distinctCodes = static_cast<int>(distinctCodes(db));
      row->bitEntropy = meanBitEntropy(trainCodes);
      row->precision =
          topKPrecision(packCodes(testCodes), test.labels, db, train.labels, topK, [&cancel] { return cancel.load(); });
    };

    for (int m : spec.bits) {
      // Each code length gets its own generators, so m = 32 reads the same whether or not 16 ran first.
      at::Generator gen = at::make_generator<at::CPUGeneratorImpl>(estimatorSeed(seed, m));
      QElapsedTimer clock;
      clock.start();
      HashingRow lsh{m, "lsh"};
      const LshHasher lshHasher(trainX, m, gen);
      score(lshHasher.codes(trainX), lshHasher.codes(testX), &lsh);
      lsh.seconds = clock.nsecsElapsed() * 1e-9;
      out.rows << lsh;
      if (onRow) onRow(lsh);

      clock.restart();
      RunSpec run;
      run.method = methodId;
      run.steps = steps;
      run.seed = seed * 131 + m;
      if (const QString err = methodParamsFor(p, m, *method, &run.methodParams); !err.isEmpty()) {
        out.error = err;
        return out;
      }
      TrainingSession session(run, *method, task, device, [&cancel] { return cancel.load(); });
      double tail = 0;
      int tailCount = 0;
      const TrainingOutcome trained = session.train(steps, {}, [&](const StepNumbers& n) {
        if (n.step > steps - 100) {
          tail += n.estimate;
          ++tailCount;
        }
      });
      if (!trained.error.isEmpty()) {
        out.error = QStringLiteral("%1 at m = %2: %3").arg(methodId).arg(m).arg(trained.error);
        return out;
      }
      if (trained.cancelled) {
        out.cancelled = true;
        return out;
      }
      auto* encoder = dynamic_cast<MarkovEncoder*>(&session.estimator());
      if (!encoder) {
        out.error = QStringLiteral("method %1 has no Markov encoder").arg(methodId);
        return out;
      }
      // Order 0: the most likely code is each bit's own argmax, a positive logit.
      c10::NoGradGuard noGrad;
      auto codes = [&](const at::Tensor& images) {
        return (encoder->encoderLogits(images).squeeze(2) > 0).to(at::kLong);
      };
      HashingRow row{m, methodId};
      row.estimate = tail / tailCount;
      score(codes(trainX), codes(testX), &row);
      row.seconds = clock.nsecsElapsed() * 1e-9;
      out.rows << row;
      if (onRow) onRow(row);
    }
  } catch (const EstimatorCancelled&) {
    out.cancelled = true;  // during retrieval: the rows before it are kept
  } catch (const std::exception& e) {
    out.error = errorLine(e);
  }
  return out;
}

}  // namespace milab
