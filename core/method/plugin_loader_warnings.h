#pragma once
// Qt's plugin loader warns on stderr about a file it cannot read as a plugin ("qt.core.plugin.loader: ... failed to
// map to memory"), before the lab names the same file in its own one line (method/plugin_install_check.h): bad input
// gets exactly one line. Torch-free.

namespace milab {

// Turns the category's warnings off, once per process, keeping any filter installed before (QT_LOGGING_RULES and
// QT_DEBUG_PLUGINS still switch its debug output on).
void muteQtPluginLoaderWarnings();

}  // namespace milab
