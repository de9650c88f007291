// The code a CUDA device takes, run on the CPU (nn/device_route.h; issue 76): every method trained on fresh batches
// of a Gaussian triple reads, on that route, what the CPU's own route reads at the same seed within the spread of
// seeds; and on a finite sample set, under no recipe, bmi's and the lab's, every method finishes with a finite
// reading on both.
// The routes draw different numbers (at::randn against Philox; a noise generator of its own), so the readings are
// compared as two seeds are, not digit for digit (test_joint_step and test_separable_step check the written-out
// passes against autograd on the same numbers). test_conformance_matrix also runs whole on this route in CI
// (tests/CMakeLists.txt: test_conformance_matrix_device_route).
#include <ATen/ATen.h>
#include <ATen/CPUGeneratorImpl.h>

#include <QtTest>
#include <cmath>

#include "engine/device.h"
#include "engine/run.h"
#include "engine/run_spec.h"
#include "method/method_registry.h"
#include "nn/device_route.h"
#include "nn/fusable.h"
#include "random/philox_normals.h"

using namespace milab;

namespace {

// The spread of one method's reading over seeds at this size: f-DIME's GAN and HD forms, the noisiest, read 0.84 to
// 1.21 nats over seeds 1-4 at 200 steps here (1 nat), so two routes 0.35 apart are two seeds apart, no more.
constexpr double kSeedsSpread = 0.35;

// Sets the route for one scope and restores the CPU's.
struct RouteScope {
  explicit RouteScope(bool on) { setCpuTakesDeviceRoute(on); }
  ~RouteScope() { setCpuTakesDeviceRoute(false); }
};

}  // namespace

class TestDeviceRoute : public QObject {
  Q_OBJECT
  MethodRegistry registry_;

  RunResult runOn(bool deviceRoute, const QString& method, const QString& protocol, QString* refusal) {
    QVariantMap flat{{"task", "gaussian3"}, {"dim", 2},  {"mi", 1.0},        {"method", method},
                     {"device", "cpu"},     {"seed", 1}, {"recipe", "none"}, {"steps", 200}};
    if (protocol != "fresh") {
      flat.insert("samples", 600);
      flat.insert("steps", 3);
      flat.insert("eval_every", 2);
    }
    if (protocol == "bmi" || protocol == "lab") flat.insert("recipe", protocol);
    RunSpec s;
    *refusal = runSpecFromFlat(flat, registry_, &s);
    if (refusal->isEmpty()) *refusal = validateRunSpec(&s, registry_);
    if (!refusal->isEmpty()) return {};
    RouteScope route(deviceRoute);
    Run run(s, registry_.find(method));
    return runToCompletion(run);
  }

 private Q_SLOTS:
  void initTestCase() {
    initTorchRuntime();
    registry_.loadDefault();
    QVERIFY(!cpuTakesDeviceRoute());  // the suite sets it itself
  }

  void bothRoutesReadAlike_data() {
    QTest::addColumn<QString>("method");
    QTest::addColumn<QString>("protocol");
    for (const QString& method : registry_.ids())
      for (const char* protocol : {"fresh", "samples", "bmi", "lab"})
        QTest::newRow(qPrintable(method + " " + protocol)) << method << QString(protocol);
  }
  void bothRoutesReadAlike() {
    QFETCH(QString, method);
    QFETCH(QString, protocol);
    QString refusedCpu, refusedDevice;
    const RunResult cpu = runOn(false, method, protocol, &refusedCpu);
    const RunResult device = runOn(true, method, protocol, &refusedDevice);
    QCOMPARE(refusedDevice, refusedCpu);  // the route never changes what is accepted
    if (!refusedCpu.isEmpty()) QSKIP(qPrintable("refused on both routes: " + refusedCpu));
    QVERIFY(std::isfinite(device.estimate) && std::isfinite(cpu.estimate));
    // Three steps may leave a model where its plausibility rule fails the run (NCE's log Z still near its start), as
    // in test_conformance_matrix: then on both routes alike.
    const auto implausible = [](const RunResult& r) {
      return r.status == RunStatus::Failed && r.reason.contains(" is implausible ");
    };
    if (protocol != "fresh" && implausible(cpu) && implausible(device)) QSKIP("implausible after three steps on both");
    QVERIFY2(device.status == RunStatus::Finished, qPrintable(statusName(device.status) + ": " + device.reason));
    QVERIFY2(cpu.status == RunStatus::Finished, qPrintable(statusName(cpu.status) + ": " + cpu.reason));
    qInfo("cpu %.4f, device route %.4f", cpu.estimate, device.estimate);
    if (protocol == "fresh")  // trained long enough to read near the truth; the three-step rows only finish
      QVERIFY2(std::abs(device.estimate - cpu.estimate) <= kSeedsSpread,
               qPrintable(QStringLiteral("%1 against %2").arg(device.estimate).arg(cpu.estimate)));
  }

  // The switch reaches the loops: on it a CPU float tensor goes through ATen's ops, not the written-out loops, and
  // the normals are at::randn's; off it, both are the CPU's own again.
  void theSwitchTakesTheDevicesCode() {
    const at::Tensor t = at::ones({4, 4});
    at::Generator a = at::make_generator<at::CPUGeneratorImpl>(5), b = at::make_generator<at::CPUGeneratorImpl>(5),
                  c = at::make_generator<at::CPUGeneratorImpl>(5);
    QVERIFY(fusable(t));
    {
      RouteScope route(true);
      QVERIFY(!fusable(t));
      QVERIFY(at::equal(philoxNormals({64}, a), at::randn({64}, b)));
    }
    QVERIFY(fusable(t));
    QVERIFY(!at::equal(philoxNormals({64}, c), at::randn({64}, a)));
  }
};

QTEST_GUILESS_MAIN(TestDeviceRoute)
#include "test_device_route.moc"
