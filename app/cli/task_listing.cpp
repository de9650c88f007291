#include "cli/task_listing.h"

#include <QStringList>
#include <cstdio>

#include "cli/method_listing.h"
#include "results/reading_words.h"
#include "tasks/task_catalog.h"

namespace milab {

namespace {

QString offers(const TaskCapabilities& c) {
  QStringList out{"samples"};
  if (c.subview) out << "x' with samples of p(y|x')";
  if (c.pmi) out << "exact PMI (oracle critics)";
  if (c.densities) out << "exact log p(y) (DoE/CLUB oracles)";
  if (c.gaussianXSide) out << "a Gaussian x side (diffusion oracles)";
  if (c.tokens) out << "token sequences (read by the methods that read tokens)";
  return out.join(", ");
}

// The exact values at the task's defaults (seed 1), e.g. "I(x;y) = 2.0000"; "" when the defaults do not validate.
QString truthsAtDefaults(const TaskInfo& t) {
  ParamMap params;
  if (!validateTaskParams(t, &params).isEmpty()) return {};
  const std::unique_ptr<TaskModel> model = buildTask(t.id, params, 1);
  if (!model) return {};
  QStringList shown;
  const auto amount = [](double v) { return QString::number(v, 'f', 4); };
  // The first truth is the total: a Monte Carlo one (bmi's mixtures) carries its standard error.
  for (const NamedValue& v : model->truths())
    shown << QStringLiteral("%1 = %2").arg(v.name, truthInWords(v.value, shown.isEmpty() ? model->totalMiStandardError()
                                                                                          : 0.0, amount));
  return shown.join(", ");
}

}  // namespace

int listTasks(bool longForm) {
  for (const PluginLoadError& e : taskLoadErrors())
    std::fprintf(stderr, "milab-cli: warning: task plugin %s not loaded: %s\n", e.file.toLocal8Bit().constData(),
                 e.reason.toLocal8Bit().constData());
  for (const TaskInfo& t : availableTasks()) {
    const QString truths = t.dataset               ? QStringLiteral("no truth (a table: --file PATH)")
                           : t.capabilities.images ? QStringLiteral("no truth (image views: read by a linear probe)")
                                                   : truthsAtDefaults(t);
    const bool noTruth = t.dataset || t.capabilities.images;
    std::printf("%s\t%s\t%s%s\n", t.id.toUtf8().constData(), t.displayName.toUtf8().constData(),
                truths.toUtf8().constData(), t.params.isEmpty() || noTruth ? "" : " (at the defaults)");
    if (!longForm) continue;
    std::printf("  %s\n", t.summary.toUtf8().constData());
    std::printf("  family %s; offers %s\n", t.family.toUtf8().constData(), offers(t.capabilities).toUtf8().constData());
    if (t.dimY) std::printf("  x in R^%d, y in R^%d\n", t.dimX, t.dimY);
    printParams(t.params);
    std::printf("\n");
  }
  return 0;
}

}  // namespace milab
