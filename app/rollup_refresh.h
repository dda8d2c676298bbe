// Rolls marked report days up in the background (serve runs this in a PeriodicTask every
// --rollup-interval seconds), so a dashboard rarely waits for it: each project with marks gets
// its marked days rolled up again in its reporting zone (reports/rollups.h).
#pragma once

#include <cstddef>

#include "storage/store.h"

namespace sightline::app {

// One pass over the projects with marks; returns how many projects it brought up to date.
std::size_t RefreshMarkedRollups(storage::Store& store);

}  // namespace sightline::app
