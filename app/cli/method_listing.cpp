#include "cli/method_listing.h"

#include <cstdio>

#include "method/method_plugin.h"
#include "method/method_registry.h"

namespace milab {

namespace {

QString targetOf(Target t) {
  switch (t) {
    case Target::TotalMi:
      return "the total MI, I(x;y) or I(x,x';y)";
    case Target::ConditionalMi:
      return "the conditional MI I(x;y|x')";
    case Target::LogNormaliser:
      return "the log total mass of a density model (0 when normalised)";
  }
  return {};
}

}  // namespace

void printParams(const ParamSpecs& params) {
  for (const ParamSpec& p : params) {
    const QString label = p.unit.isEmpty() ? p.label : QStringLiteral("%1, %2").arg(p.label, p.unit);
    std::printf("  --%-14s %s\n      default %s; %s\n      %s\n",
                QString(p.name).replace('_', '-').toUtf8().constData(), label.toUtf8().constData(),
                (p.defaultValue.isNull() ? QStringLiteral("auto") : p.defaultValue.toString()).toUtf8().constData(),
                describeAllowed(p).toUtf8().constData(), p.help.toUtf8().constData());
  }
}

int listMethods(const MethodRegistry& registry, bool longForm) {
  for (const PluginLoadError& e : registry.errors())
    std::fprintf(stderr, "milab-cli: warning: plugin %s not loaded: %s\n", e.file.toLocal8Bit().constData(),
                 e.reason.toLocal8Bit().constData());
  for (const MethodPlugin* m : registry.methods()) {
    const MethodInfo info = m->info();
    std::printf("%s\t%s\n", info.id.toUtf8().constData(), info.displayName.toUtf8().constData());
    if (!longForm) continue;
    std::printf("  %s\n", info.summary.toUtf8().constData());
    QString kind = info.lowerBound   ? "a lower bound on it in expectation"
                   : info.upperBound ? "an upper bound on it in expectation when its model q is good"
                                     : "neither an upper nor a lower bound";
    if (!info.lowerBound && info.selectsByHeldOutLoss)
      kind += "; on a finite set, early stopping and report = best go by its held-out loss";
    std::printf("  estimates %s%s; %s\n", targetOf(info.target).toUtf8().constData(),
                info.needsSubview       ? " (needs a task with x' and samples of p(y|x'))"
                : info.readsSubviewRows ? " (reads x' as rows: a task with x', or a table's --xp-columns)"
                                        : "",
                kind.toUtf8().constData());
    if (!info.trains) std::printf("  trains nothing: steps are ignored; each evaluation batch is one reading\n");
    if (info.readsImages) std::printf("  reads image views only (a task that yields images)\n");
    if (info.readsTokens) std::printf("  reads token sequences only (a task that yields tokens: hmm-dialogue)\n");
    if (info.readsHeavyTails)
      std::printf(
          "  reads heavy-tailed tables: its defaults read the Beyond-Normal suite's Student-t tables within a "
          "factor 1.5 of the truth at 5,000 rows\n");
    const QList<Ceiling> ceilings = m->ceilings(defaultsOf(info.params));
    QStringList shown;
    for (const Ceiling& c : ceilings)
      shown << QStringLiteral("%1 (%2 at the defaults)").arg(c.name).arg(c.value, 0, 'f', 3);
    std::printf("  ceilings: %s\n", shown.isEmpty() ? "none" : shown.join(", ").toUtf8().constData());
    printParams(info.params);
    std::printf("\n");
  }
  return 0;
}

}  // namespace milab
