#pragma once
// One connection of this thread to the run history for one call, closed and removed when it goes out of scope
// (results/run_store.h says why no connection outlives its call). Three ways to open it:
//   EnsureSchema  makes sure of the folder, the WAL journal and the schema (the store's constructor, every record);
//   UseSchema     only opens what those made (the window's reads, and deletes, whose curves go by foreign key);
//   ReadOnly      reads and nothing else (milab-cli's history and show, issue 80): no file, folder, journal mode or
//                 table is made or changed, a version-1 file is read as version 1, a read-only folder is read as
//                 immutable, and a file that is not a milab history is refused.
#include <QSqlDatabase>
#include <QString>

namespace milab {

class HistoryConnection {
 public:
  enum class Schema { ReadOnly, UseSchema, EnsureSchema };
  HistoryConnection(const QString& path, Schema schema);
  ~HistoryConnection();
  HistoryConnection(const HistoryConnection&) = delete;
  HistoryConnection& operator=(const HistoryConnection&) = delete;

  QSqlDatabase db() const { return QSqlDatabase::database(name_, false); }
  const QString& error() const { return error_; }
  // The runs table's columns as the store selects them: a version-1 file has no summary column, read as NULL.
  QString runColumns() const;
  // The curves' blob and its format: a version-1 file has no format column, and its blobs are format 1.
  QString curveColumns() const { return hasCurveFormat_ ? "points, format" : "points, 1"; }

 private:
  void makeWritable(QSqlDatabase& db);  // EnsureSchema: WAL, pragmas, the schema made or upgraded
  QString name_, error_;
  bool hasSummary_ = true, hasCurveFormat_ = true;
};

}  // namespace milab
