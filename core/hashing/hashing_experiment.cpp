#include "hashing/hashing_experiment.h"

#include <ATen/ATen.h>
#include <ATen/CPUGeneratorImpl.h>

#include <QElapsedTimer>
#include <algorithm>
#include <set>

#include "data/fashion_mnist.h"
#include "engine/device.h"
#include "engine/experiment.h"
#include "engine/pending_steps.h"
#include "engine/run.h"
#include "hashing/hamming_retrieval.h"
#include "hashing/hashers.h"
#include "method/estimator.h"

namespace milab {

const ParamSpecs& hashingSpecs() {
  static const ParamSpecs specs{
      ParamSpec::integer("steps", 2000, 1, 10000000, "AMMI training steps per code length"),
      ParamSpec::integer("batch", 128, 2, 65536, "images per AMMI step"),
      ParamSpec::real("lr", 0.001, 0.0, 1.0, "Adam learning rate of the encoder", true, false),
      ParamSpec::real("beta", 2.0, 0.0, 100.0, "entropy weight: the loss is H(Z|Y) - beta H+(Z)"),
      ParamSpec::integer("order_prior", 3, 0, 12, "Markov order r of the prior q(z)"),
      ParamSpec::integer("prior_steps", 4, 1, 100, "G: Adam steps on the prior per step"),
      ParamSpec::real("prior_lr", 0.01, 0.0, 1.0, "learning rate of the prior's steps", true, false),
      ParamSpec::integer("hidden", 256, 1, 8192, "hidden ReLU units of the encoder MLP"),
      ParamSpec::integer("train_limit", 0, 0, 60000, "training images used (0: all 60000)"),
      ParamSpec::integer("query_limit", 0, 0, 10000, "test images used as queries (0: all 10000)"),
      ParamSpec::integer("top_k", 100, 1, 60000, "neighbours retrieved per query"),
      ParamSpec::integer("seed", 1, 0, 2147483647, "seed of the encoder, the batches and the projections"),
      ParamSpec::choice("device", {"auto", "cpu", "cuda"}, "auto", "where AMMI trains"),
  };
  return specs;
}

QString hashingSpecFromFlat(const QVariantMap& flat, const QVariantList& bits, HashingSpec* out) {
  QVariantList values = bits;
  QVariantMap params = flat;
  if (values.isEmpty() && params.contains("bits")) {
    const QVariant b = params.take("bits");
    values = b.typeId() == QMetaType::QVariantList ? b.toList() : listItems(b.toString());
    if (const QString err = checkListItems("bits", values); !err.isEmpty()) return err;
  }
  params.remove("bits");
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
  if (params.value("order_prior").toInt() > shortest)
    return QStringLiteral("order_prior: must be <= the shortest code length, bits = %1, got %2")
        .arg(shortest)
        .arg(params.value("order_prior").toInt());
  QString device;
  err = resolveDevice(params.value("device").toString(), &device);
  if (!err.isEmpty()) return err;
  out->params = params;
  return {};
}

QString hashingSpecFromExperiment(const Experiment& experiment, HashingSpec* out) {
  QVariantList bits;
  for (const auto& axis : experiment.axes) {
    if (axis.first != "bits") return QStringLiteral("%1: only bits may list values for hashing").arg(axis.first);
    // --bits , once ran the default lengths and --bits 16,16 trained m = 16 twice: refused as run's lists are.
    if (const QString err = checkListItems(axis.first, axis.second); !err.isEmpty()) return err;
    bits = axis.second;
  }
  if (!experiment.methods.isEmpty()) return "methods: hashing always compares ammi with lsh";
  return hashingSpecFromFlat(experiment.base, bits, out);
}

QString hashingDataMissing() { return checkFashionMnist(fashionMnistDir()); }

HashingResult runHashing(const HashingSpec& spec, const std::function<void(const HashingRow&)>& onRow,
                         const std::atomic<bool>& cancel) {
  HashingResult out;
  const ParamMap& p = spec.params;
  try {
    out.error = resolveDevice(p.value("device").toString(), &out.device);
    if (!out.error.isEmpty()) return out;
    const c10::Device device(out.device == "cuda" ? c10::kCUDA : c10::kCPU);
    ImageSet train, test;
    out.error = loadFashionMnist(fashionMnistDir(), "train", p.value("train_limit").toInt(), &train);
    if (out.error.isEmpty())
      out.error = loadFashionMnist(fashionMnistDir(), "t10k", p.value("query_limit").toInt(), &test);
    if (!out.error.isEmpty()) return out;
    out.trainImages = static_cast<int>(train.images.size(0));
    out.queries = static_cast<int>(test.images.size(0));
    const at::Tensor trainX = train.images.to(device), testX = test.images.to(device);
    const int topK = p.value("top_k").toInt();
    auto score = [&](const at::Tensor& trainCodes, const at::Tensor& testCodes, HashingRow* row) {
      const std::vector<uint64_t> db = packCodes(trainCodes);
      row->distinctCodes = static_cast<int>(std::set<uint64_t>(db.begin(), db.end()).size());
      row->precision =
          topKPrecision(packCodes(testCodes), test.labels, db, train.labels, topK, [&cancel] { return cancel.load(); });
    };

    for (int m : spec.bits) {
      // Each code length gets its own generator, so m = 32 reads the same whether or not 16 ran first.
      at::Generator gen =
          at::make_generator<at::CPUGeneratorImpl>(static_cast<uint64_t>(p.value("seed").toInt()) * 7919u + m);
      QElapsedTimer clock;
      clock.start();
      HashingRow lsh{m, "lsh"};
      const LshHasher lshHasher(trainX, m, gen);
      score(lshHasher.codes(trainX), lshHasher.codes(testX), &lsh);
      lsh.seconds = clock.nsecsElapsed() * 1e-9;
      out.rows << lsh;
      if (onRow) onRow(lsh);

      clock.restart();
      AmmiHashSettings s;
      s.bits = m;
      s.orderPrior = p.value("order_prior").toInt();
      s.priorSteps = p.value("prior_steps").toInt();
      s.hidden = p.value("hidden").toInt();
      s.batch = p.value("batch").toInt();
      s.priorLr = p.value("prior_lr").toDouble();
      s.beta = p.value("beta").toDouble();
      s.lr = p.value("lr").toDouble();
      AmmiHasher ammi(s, trainX.size(1), gen, device);
      // The batches' indices are drawn where the images are (a GPU draws them itself instead of receiving a copy
      // each step); on the CPU this is `gen`, so a CPU run draws what it always drew.
      at::Generator indexGen = deviceNoiseGenerator(device, p.value("seed").toInt() * 131 + m, gen);
      const at::TensorOptions indexOptions = at::TensorOptions().dtype(at::kLong).device(device);
      const int steps = p.value("steps").toInt();
      double tail = 0;
      int tailCount = 0;
      PendingSteps pending;  // the estimates stay on the device until a few hundred steps are read at once
      auto drain = [&] {
        const QString error = pending.drain([&](const StepNumbers& n) {
          if (n.step > steps - 100) {
            tail += n.estimate;
            ++tailCount;
          }
        });
        if (!error.isEmpty()) out.error = QStringLiteral("ammi at m = %1: %2").arg(m).arg(error);
        return error.isEmpty();
      };
      for (int step = 1; step <= steps; ++step) {
        if (cancel.load()) {
          out.cancelled = true;
          return out;
        }
        const at::Tensor index = at::randint(out.trainImages, {s.batch}, indexGen, indexOptions);
        pending.add(step, {ammi.trainStep(trainX.index_select(0, index)), 0.0}, 0.0);
        if (pending.size() >= 256 && !drain()) return out;
      }
      if (!drain()) return out;
      HashingRow row{m, "ammi"};
      row.estimate = tail / tailCount;
      score(ammi.codes(trainX), ammi.codes(testX), &row);
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
