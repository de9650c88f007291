// Validation messages name the field and the allowed range, for every kind of parameter; every run setting's
// default is RunSpec's, and every options struct's default is its key's, declared once (issue 76).
#include <QtTest>

#include "engine/prior_order_sweep_options.h"
#include "engine/run_spec.h"
#include "hashing/hashing_options.h"
#include "ksg/ksg_options.h"
#include "method/critic_options.h"
#include "method/density_options.h"
#include "method/method_registry.h"
#include "params/param_spec.h"
#include "params/plain_number.h"
#include "tasks/task_catalog.h"

using namespace milab;

class TestParamSpec : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  // The run settings read from their specs' defaults alone are RunSpec{}'s, key by key (recipe aside: its key's
  // default, auto, is resolved before a spec holds it), so a default changed in one place and not the other fails.
  void everyRunSettingsDefaultIsRunSpecs() {
    ParamMap defaults;
    QCOMPARE(validateParamMap(runSettingSpecs(), &defaults, "the run"), QString());
    RunSpec read;
    readRunSettings(defaults, &read);
    const ParamMap fromSpecs = runSettingsOf(read), declared = runSettingsOf(RunSpec{});
    QCOMPARE(fromSpecs.size(), runSettingSpecs().size());
    for (auto it = declared.cbegin(); it != declared.cend(); ++it)
      if (it.key() != "recipe") QVERIFY2(fromSpecs.value(it.key()) == it.value(), qPrintable(it.key()));
    QCOMPARE(defaults.value("recipe").toString(), QString("auto"));
  }

  // An options struct read from its specs' defaults alone is the default-constructed struct, field by field: a key
  // read into the wrong field, or a default declared a second time (test_house_rules), fails here.
  void everyOptionsStructReadsBackItsDefaults() {
    const CriticOptions critic = CriticOptions::from(defaultsOf(scoreMatrixCriticSpecs(2))), c0;
    QCOMPARE(critic.K, c0.K);
    QCOMPARE(critic.lr, c0.lr);
    QCOMPARE(critic.hidden, c0.hidden);
    QCOMPARE(critic.embed, c0.embed);
    QCOMPARE(critic.oracle, c0.oracle);
    QCOMPARE(critic.joint, c0.joint);
    QCOMPARE(critic.layers, c0.layers);
    const DensityOptions density = DensityOptions::from(defaultsOf(densityModelParamSpecs(""))), d0;
    QCOMPARE(density.batch, d0.batch);
    QCOMPARE(density.lr, d0.lr);
    QCOMPARE(density.hidden, d0.hidden);
    QCOMPARE(density.oracle, d0.oracle);
    const HashingOptions hashing = HashingOptions::from(defaultsOf(hashingSpecs())), h0;
    for (const auto& [read, declared] : {std::pair{hashing.steps, h0.steps},
                                         {hashing.orderPrior, h0.orderPrior},
                                         {hashing.trainLimit, h0.trainLimit},
                                         {hashing.queryLimit, h0.queryLimit},
                                         {hashing.topK, h0.topK},
                                         {hashing.seed, h0.seed},
                                         {hashing.batch, h0.batch},
                                         {hashing.priorSteps, h0.priorSteps},
                                         {hashing.hidden, h0.hidden}})
      QCOMPARE(read, declared);
    QCOMPARE(hashing.lr, h0.lr);
    QCOMPARE(hashing.beta, h0.beta);
    QCOMPARE(hashing.priorLr, h0.priorLr);
    QCOMPARE(hashing.device, h0.device);
    const PriorOrderSweepOptions sweep = PriorOrderSweepOptions::from(defaultsOf(priorOrderSweepSpecs())), s0;
    QCOMPARE(sweep.maxOrder, s0.maxOrder);
    QCOMPARE(sweep.fitSteps, s0.fitSteps);
    QCOMPARE(sweep.fitLr, s0.fitLr);
    QCOMPARE(sweep.fixedBatch, s0.fixedBatch);
  }

  // The same for a method plugin's struct, through the MethodInfo the registry loads: KSG's set_size read 2,000 in
  // its key and 1,000 in KsgOptions before its default was declared once.
  void aPluginsOptionsReadBackTheirDefaults() {
    MethodRegistry registry;
    registry.loadDefault();  // MILAB_PLUGIN_PATH from CTest
    const MethodPlugin* ksg = registry.find("ksg");
    QVERIFY(ksg);
    const KsgOptions read = KsgOptions::from(defaultsOf(ksg->info().params)), declared;
    QCOMPARE(read.k, declared.k);
    QCOMPARE(read.setSize, declared.setSize);
  }

  void acceptsAndCanonicalises() {
    QVariant out;
    QCOMPARE(checkParam(ParamSpec::integer("K", 128, 2, 65536, ""), QVariant(QString("64")), &out), QString());
    QCOMPARE(out.metaType().id(), QMetaType::Int);
    QCOMPARE(out.toInt(), 64);
    QCOMPARE(checkParam(ParamSpec::integer("K", 128, 2, 65536, ""), QVariant(64.0), &out), QString());
    QCOMPARE(checkParam(ParamSpec::boolean("cubic", false, ""), QVariant(QString("true")), &out), QString());
    QCOMPARE(out.toBool(), true);
  }

  void rejectsWithFieldAndRange_data() {
    QTest::addColumn<int>("which");
    QTest::addColumn<QVariant>("value");
    QTest::addColumn<QString>("expected");
    QTest::newRow("int below") << 0 << QVariant(1) << "K: must be an integer in [2, 65536], got 1";
    QTest::newRow("int fraction") << 0 << QVariant(2.5) << "K: must be an integer in [2, 65536], got 2.5";
    QTest::newRow("int text") << 0 << QVariant(QString("12x"))
                              << "K: must be an integer in [2, 65536], got '12x' (digits, an optional minus sign, "
                                 "point and exponent only)";
    QTest::newRow("open interval") << 1 << QVariant(1.0) << "alpha: must be a number in (0, 1), got 1";
    QTest::newRow("choice") << 2 << QVariant(QString("tpu")) << "device: must be one of auto|cpu|cuda, got 'tpu'";
    QTest::newRow("bool") << 3 << QVariant(QString("maybe")) << "cubic: must be true or false (yes/no and 1/0 read alike), got 'maybe'";
  }
  void rejectsWithFieldAndRange() {
    QFETCH(int, which);
    QFETCH(QVariant, value);
    QFETCH(QString, expected);
    const ParamSpecs specs{ParamSpec::integer("K", 128, 2, 65536, ""), ParamSpec::real("alpha", 0.5, 0, 1, "", true, true),
                           ParamSpec::choice("device", {"auto", "cpu", "cuda"}, "auto", ""),
                           ParamSpec::boolean("cubic", false, "")};
    QVariant out;
    QCOMPARE(checkParam(specs[which], value, &out), expected);
  }

  void taskCrossFieldLimit() {
    ParamMap p{{"dim", 2}, {"mi", 11.0}};
    const QString err = validateTaskParams(*findTask("gaussian2"), &p);
    QVERIFY2(err.startsWith("mi: must be a number in (0, 10]"), qPrintable(err));
    ParamMap q{{"dim", 2}, {"mi", 1.0}, {"alpha", 0.3}};
    QVERIFY(validateTaskParams(*findTask("gaussian2"), &q).startsWith("alpha: not a parameter of task gaussian2"));
  }

  // A number is read as typed or not at all (issue 80): QString::toDouble would take the padded, signed, hex and
  // infinite forms below.
  void plainNumbersOnly() {
    for (const char* ok : {"8", "-0.5", ".5", "5.", "1e-3", "2E+2", "0"})
      QVERIFY2(plainNumber(QString::fromLatin1(ok)).has_value(), ok);
    QCOMPARE(*plainNumber(u".5"), 0.5);
    QCOMPARE(*plainNumber(u"2E+2"), 200.0);
    for (const char* bad : {" 8", "8 ", "+8", "0x10", "inf", "nan", "1e400", "", "-", ".", "1,5", "e3"})
      QVERIFY2(!plainNumber(QString::fromLatin1(bad)).has_value(), bad);
    QCOMPARE(*plainInteger(u"-12"), qint64(-12));
    for (const char* bad : {"+3", " 3", "3.0", "1e2", "99999999999999999999"})
      QVERIFY2(!plainInteger(QString::fromLatin1(bad)).has_value(), bad);
    QVariant out;
    QVERIFY(checkParam(ParamSpec::integer("K", 8, 2, 100, ""), QString("+8"), &out).contains("got '+8'"));
    QVERIFY(checkParam(ParamSpec::numberList("K", 2, 100, ""), QString("8, 16"), &out).isEmpty());
    QCOMPARE(out.toString(), QString("8,16"));
    QVERIFY(!checkParam(ParamSpec::numberList("K", 2, 100, ""), QString("8,+16"), &out).isEmpty());
  }

  void unknownKeyNamesAllowedOnes() {
    MethodRegistry registry;
    registry.loadDefault();  // MILAB_PLUGIN_PATH from CTest
    RunSpec spec;
    const QString err =
        runSpecFromFlat({{"task", "gaussian2"}, {"method", "infonce"}, {"bogus", 1}}, registry, &spec);
    QVERIFY2(err.startsWith("bogus: unknown key") && err.contains("allowed: task, method, steps"), qPrintable(err));
  }
};

QTEST_GUILESS_MAIN(TestParamSpec)
#include "test_param_spec.moc"
