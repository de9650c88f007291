// The estimator lives in core (method/doe_plugin.cpp), shared with its sibling plugin; moc needs this
// file for the plugin class's metadata.
#include "doe/doe_plugin.h"
