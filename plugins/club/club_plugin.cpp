// The estimator lives in core (method/club_plugin.cpp), shared with its sibling plugin; moc needs this
// file for the plugin class's metadata.
#include "club/club_plugin.h"
