// The estimator lives in core (method/ksg_plugin.cpp), shared with its sibling plugin; moc needs this
// file for the plugin class's metadata.
#include "ksg/ksg_plugin.h"
