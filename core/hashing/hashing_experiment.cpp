#include "hashing/hashing_experiment.h"

#include <ATen/ATen.h>
#include <ATen/CPUGeneratorImpl.h>
#include <c10/core/GradMode.h>

#include <QElapsedTimer>
#include <algorithm>
#include <set>

#include "data/fashion_mnist.h"
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

// The methods that can learn the codes: a Markov encoder, and every training key hashing passes on (a learned
// prior). Asked of the registry, never named here.
QStringList hashingMethods(const MethodRegistry& registry) {
  QStringList out;
  for (const QString& id : registry.ids()) {
    const MethodInfo info = registry.find(id)->info();
    bool takesAll = info.markovEncoder && findSpec(info.params, "predictor");
    for (const QString& key : trainingParams(HashingOptions{}).keys()) takesAll = takesAll && findSpec(info.params, key);
    if (takesAll) out << id;
  }
  return out;
}

// The method's settings for code length m: order 0 (a code is each bit's own argmax), the encoder its own
// predictor (X = Y), hashing's training keys; validated as a run's would be.
QString methodParamsFor(const HashingOptions& hashing, int m, const MethodPlugin& method, ParamMap* out) {
  ParamMap params{{"bits", m}, {"order_y", 0}, {"order_x", 0}, {"predictor", "encoder"}};
  const ParamMap training = trainingParams(hashing);
  for (auto it = training.cbegin(); it != training.cend(); ++it) params.insert(it.key(), it.value());
  const MethodInfo info = method.info();
  QString err = validateParamMap(info.params, &params, "method " + info.id);
  if (err.isEmpty()) err = method.validate(params, TaskInfo{}, {});
  *out = params;
  return err;
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
    return QStringLiteral("method: must be one of %1 for hashing (a Markov encoder with a learned prior), got '%2'")
        .arg(methods.join('|'), method);
  if (!values.isEmpty()) out->bits.clear();
  for (const QVariant& v : values) {
    bool ok = false;
    const int m = v.toString().toInt(&ok);
    if (!ok || m < 1 || m > 64)
      return QStringLiteral("bits: must be integers in [1, 64] (e.g. 16,32,64), got '%1'").arg(v.toString());
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

QString hashingDataMissing() { return checkFashionMnist(fashionMnistDir()); }

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
    out.error = loadFashionMnist(fashionMnistDir(), "train", p.trainLimit, &train);
    if (out.error.isEmpty())
      out.error = loadFashionMnist(fashionMnistDir(), "t10k", p.queryLimit, &test);
    if (!out.error.isEmpty()) return out;
    out.trainImages = static_cast<int>(train.images.size(0));
    out.queries = static_cast<int>(test.images.size(0));
    const at::Tensor trainX = train.images.to(device), testX = test.images.to(device);
    const ImageRowsTask task(trainX);
    const int topK = p.topK, steps = p.steps, seed = p.seed;
    auto score = [&](const at::Tensor& trainCodes, const at::Tensor& testCodes, HashingRow* row) {
      const std::vector<uint64_t> db = packCodes(trainCodes);
      row->distinctCodes = static_cast<int>(std::set<uint64_t>(db.begin(), db.end()).size());
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
