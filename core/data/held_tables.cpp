#include "data/held_tables.h"

#include <QHash>
#include <mutex>

namespace milab {

namespace {

struct Held {
  std::mutex mutex;
  QHash<QString, std::shared_ptr<const DataTable>> tables;
  quint64 next = 1;
};

Held& held() {
  static Held h;
  return h;
}

}  // namespace

QString holdTable(std::shared_ptr<const DataTable> table) {
  Held& h = held();
  const std::lock_guard<std::mutex> lock(h.mutex);
  const QString name = kHeldTablePrefix + QString::number(h.next++);
  h.tables.insert(name, std::move(table));
  return name;
}

void releaseTable(const QString& file) {
  Held& h = held();
  const std::lock_guard<std::mutex> lock(h.mutex);
  h.tables.remove(file);
}

std::shared_ptr<const DataTable> heldTable(const QString& file) {
  Held& h = held();
  const std::lock_guard<std::mutex> lock(h.mutex);
  return h.tables.value(file);
}

}  // namespace milab
