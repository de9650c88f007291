#pragma once
// What each milab-cli command does and takes: `milab-cli help [COMMAND]`, `milab-cli COMMAND --help`.
#include <QString>
#include <QStringList>

namespace milab {

QStringList commandNames();               // methods, run, prior-orders, hashing, history, show, help
QString usageOf(const QString& command);  // "" for an unknown command
QString overallUsage();                   // every command's synopsis

}  // namespace milab
