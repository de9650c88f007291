// No training step reads the device from the host, nor moves a tensor between devices: every method's step (its
// batch drawn, its estimator's train step) runs under a LibTorch RecordFunction callback that counts the operators
// that wait for the device and copy to the host (.item()'s _local_scalar_dense, masked_select and nonzero, whose
// output size is a host read), and every .to() that names a device. On the CPU both cost little; on a GPU each read
// is a synchronisation that stalls the step loop, and a .to(device) of a tensor made on the host (an index built
// each step, a draw from a CPU generator) is a host-to-device copy. A CPU-only machine cannot tell a real copy from
// a move to where the tensor already is, so a step names no device at all: it makes its tensors where the run's
// generator and batch live, and moves only through onDevice (tasks/on_device.h), which calls .to only for a
// tensor elsewhere. This keeps the GPU path from regressing unseen on machines without one. The engine's own
// reads (the pending readings' drain, every 50 ms) are outside the steps.
#include <ATen/record_function.h>

#include <QtTest>
#include <map>
#include <string>

#include "engine/device.h"
#include "engine/run_spec.h"
#include "engine/training_session.h"
#include "method/method_registry.h"
#include "tasks/task_catalog.h"

using namespace milab;

namespace {

thread_local std::map<std::string, int>* counting = nullptr;  // the ops seen on this thread while counting

const char* const kHostReads[] = {"aten::_local_scalar_dense", "aten::item", "aten::masked_select", "aten::nonzero",
                                  "aten::nonzero_numpy"};
const char* const kDeviceMove = ".to() naming a device";

// aten::to or _to_copy with a device among its arguments (to(device), to(options with a device), to(other)'s
// tensor): a move between devices wherever the source was made elsewhere. A dtype-only .to() names none.
bool namesADevice(const at::RecordFunction& fn) {
  const std::string name = fn.name();
  if (name != "aten::to" && name != "aten::_to_copy") return false;
  if (fn.operator_name() && fn.operator_name()->overload_name == "other") return true;
  for (const c10::IValue& v : fn.inputs())
    if (v.isDevice()) return true;
  return false;
}

}  // namespace

class TestHostReads : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void initTestCase() {
    initTorchRuntime();
    registry_.loadDefault();
    handle_ = at::addGlobalCallback(
        at::RecordFunctionCallback([](const at::RecordFunction& fn) -> std::unique_ptr<at::ObserverContext> {
          if (!counting) return nullptr;
          ++(*counting)[fn.name()];
          if (namesADevice(fn)) ++(*counting)[kDeviceMove];
          return nullptr;
        }).needsInputs(true));
  }
  void cleanupTestCase() { at::removeCallback(handle_); }

  void trainingStepsReadNothingOnTheHost_data() {
    QTest::addColumn<QString>("method");
    QTest::addColumn<int>("samples");  // 0: fresh batches from the task; else a finite set's rows (RowSampler)
    QTest::addColumn<QString>("critic");  // empty: the method's default
    for (const QString& id : registry_.ids())
      if (registry_.find(id)->info().trains) QTest::newRow(qPrintable(id)) << id << 0 << QString();
    QTest::newRow("infonce on a finite set") << "infonce" << 200 << QString();
    QTest::newRow("minde-c on a finite set") << "minde-c" << 200 << QString();
    // The joint critic's written-out step (nn/joint_cpu_pass), InfoNCE's closed form and a bound through autograd.
    QTest::newRow("infonce, joint critic") << "infonce" << 0 << "joint";
    QTest::newRow("nwj, joint critic, on a finite set") << "nwj" << 200 << "joint";
  }
  void trainingStepsReadNothingOnTheHost() {
    QFETCH(QString, method);
    QFETCH(int, samples);
    QFETCH(QString, critic);
    const MethodPlugin* plugin = registry_.find(method);
    RunSpec spec;
    spec.task = plugin->info().needsSubview || plugin->info().readsSubviewRows ? "gaussian3" : "gaussian2";
    spec.taskParams = {{"dim", 4}, {"mi", 2.0}};
    if (plugin->info().readsImages) {  // the vision family: views of a few hundred images, a narrow encoder
      spec.task = "fashion-mnist-views";
      spec.taskParams = {{"train_images", 200}};
    }
    if (plugin->info().readsTokens) {  // the sequence family: the dialogue task at its defaults
      spec.task = "hmm-dialogue";
      spec.taskParams = {};
    }
    spec.method = method;
    spec.methodParams = {{"K", 16}, {"batch", 16}, {"channels", 4}};
    if (!critic.isEmpty()) spec.methodParams.insert("critic", critic);
    ParamMap kept;
    for (const ParamSpec& p : plugin->info().params)
      if (spec.methodParams.contains(p.name)) kept.insert(p.name, spec.methodParams.value(p.name));
    spec.methodParams = kept;
    spec.steps = 10;
    spec.samples = samples;
    spec.device = "cpu";
    QCOMPARE(validateRunSpec(&spec, registry_), QString());
    const std::unique_ptr<TaskModel> task = buildTask(spec.task, spec.taskParams, uint64_t(spec.seed));
    TrainingSession session(spec, *plugin, *task, c10::Device(c10::kCPU), [] { return false; });
    Estimator& estimator = session.estimator();
    for (int s = 0; s < 3; ++s) estimator.trainStep(session.sampleJoint(estimator.batchSize()));  // warm up
    std::map<std::string, int> seen;
    counting = &seen;
    for (int s = 0; s < 5; ++s) estimator.trainStep(session.sampleJoint(estimator.batchSize()));
    counting = nullptr;
    QStringList reads;
    for (const char* op : kHostReads)
      if (seen.count(op)) reads << QStringLiteral("%1 x%2").arg(op).arg(seen.at(op));
    if (seen.count(kDeviceMove)) reads << QStringLiteral("%1 x%2").arg(kDeviceMove).arg(seen.at(kDeviceMove));
    // It can see them: a written-out step makes only a few (InfoNCE's on a CPU: the noise's buffer, its rows, the
    // objective's scalar), so any at all.
    QVERIFY2(!seen.empty(), "the callback saw the step's operators");
    QVERIFY2(reads.isEmpty(), qPrintable(method + ": " + reads.join(", ")));
  }

 private:
  MethodRegistry registry_;
  at::CallbackHandle handle_ = 0;
};

QTEST_GUILESS_MAIN(TestHostReads)
#include "test_host_reads.moc"
