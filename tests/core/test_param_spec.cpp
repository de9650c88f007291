// Validation messages name the field and the allowed range, for every kind of parameter; every run setting's
// default is RunSpec's, declared once.
#include <QtTest>

#include "engine/run_spec.h"
#include "method/method_registry.h"
#include "params/param_spec.h"
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
    QTest::newRow("int text") << 0 << QVariant(QString("12x")) << "K: must be an integer in [2, 65536], got '12x'";
    QTest::newRow("open interval") << 1 << QVariant(1.0) << "alpha: must be a number in (0, 1), got 1";
    QTest::newRow("choice") << 2 << QVariant(QString("tpu")) << "device: must be one of auto|cpu|cuda, got 'tpu'";
    QTest::newRow("bool") << 3 << QVariant(QString("maybe")) << "cubic: must be true or false, got 'maybe'";
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
