// Turns a validated tracked event and its request's signals into the stored row, with every
// enrichment field the spec lists (browser and device, page and attribution, bot attribution).
// Pure; thread-safe.
#pragma once

#include "ingest/ingest_service.h"
#include "ingest/tracked_event.h"
#include "storage/account_records.h"
#include "storage/event_records.h"

namespace sightline::ingest {

// `classifier` names bots from the catalog and verifies them by their IP where it can; without
// one, only the User-Agent rules speak.
storage::EventRecord Enrich(const TrackedEvent& event, const RequestSignals& signals,
                            const storage::ProjectRecord& project, std::int64_t now_millis,
                            const detection::RequestClassifier* classifier);

// "2026-11" for a time in Unix milliseconds (UTC): the usage-counter month.
std::string UsageMonth(std::int64_t unix_millis);

}  // namespace sightline::ingest
