#include "engine/allocation_failure.h"

#include <QRegularExpression>
#include <new>

#include "engine/run_spec.h"
#include "method/memory_need.h"
#include "method/method_plugin.h"
#include "tasks/task_catalog.h"

namespace milab {

namespace {

bool isAllocationFailure(const std::exception& error) {
  if (dynamic_cast<const std::bad_alloc*>(&error)) return true;
  const QString text = QString::fromUtf8(error.what());
  return text.contains(QLatin1String("can't allocate memory")) || text.contains(QLatin1String("out of memory"));
}

// The allocator's request, "you tried to allocate 4831838208 bytes" (CPU) or "Tried to allocate 4.50 GiB" (CUDA),
// as "4.5 GiB asked; "; "" when the text gives none.
QString askedSize(const std::exception& error) {
  static const QRegularExpression bytes(QStringLiteral("allocate (\\d+) bytes"));
  static const QRegularExpression cuda(QStringLiteral("allocate ([0-9.]+ [KMG]iB)"));
  const QString text = QString::fromUtf8(error.what());
  if (const QRegularExpressionMatch m = bytes.match(text); m.hasMatch())
    return QStringLiteral("%1 GiB asked; ").arg(m.captured(1).toDouble() / double(1 << 30), 0, 'f', 1);
  if (const QRegularExpressionMatch m = cuda.match(text); m.hasMatch()) return m.captured(1) + " asked; ";
  return {};
}

}  // namespace

std::optional<QString> allocationFailureLine(const std::exception& error, const MethodPlugin& method,
                                             const RunSpec& spec) {
  if (!isAllocationFailure(error)) return std::nullopt;
  const QString id = method.info().id;
  const QString asked = askedSize(error);
  const MemoryBudget budget = memoryBudget();
  const TaskInfo* task = findTask(spec.task);
  const MemoryNeed need = task ? method.memoryNeed(spec.methodParams, *task, spec.taskParams) : MemoryNeed{};
  if (need.bytes > 0)
    return QStringLiteral("%1: %2 could not allocate memory (%3the lab estimates about %4 GiB for %5, against %6); %7")
        .arg(need.key, id, asked)
        .arg(need.bytes / double(1 << 30), 0, 'f', 1)
        .arg(need.what, budget.phrase(), need.advice);
  if (spec.finiteSamples())
    return QStringLiteral("samples: %1 could not allocate memory for %2 rows (%3against %4); read fewer rows")
        .arg(id)
        .arg(spec.samples)
        .arg(asked, budget.phrase());
  return QStringLiteral("memory: %1 could not allocate memory (%2against %3); lower the task's dimensions or the "
                        "method's sizes, or free memory")
      .arg(id, asked, budget.phrase());
}

}  // namespace milab
