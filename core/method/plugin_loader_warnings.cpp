// muteQtPluginLoaderWarnings (method/plugin_loader_warnings.h).
#include "method/plugin_loader_warnings.h"

#include <QLoggingCategory>
#include <mutex>

namespace milab {

namespace {

QLoggingCategory::CategoryFilter earlierFilter = nullptr;

void withoutPluginLoaderWarnings(QLoggingCategory* category) {
  if (earlierFilter) earlierFilter(category);
  if (qstrcmp(category->categoryName(), "qt.core.plugin.loader") == 0) category->setEnabled(QtWarningMsg, false);
}

}  // namespace

void muteQtPluginLoaderWarnings() {
  static std::once_flag once;
  std::call_once(once, [] { earlierFilter = QLoggingCategory::installFilter(withoutPluginLoaderWarnings); });
}

}  // namespace milab
