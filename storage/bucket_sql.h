// Internal to storage/: the SQL expression that keys an event's report bucket (BucketSpec),
// written once for both backends. Its C++ twin is reports::BucketKey.
#pragma once

#include <string>
#include <vector>

#include "storage/records.h"
#include "storage/sql.h"

namespace sightline::storage {

// An integer expression over `occurred_at`; appends its values to `params` (numbered after
// the ones already there).
std::string BucketKeySql(const BucketSpec& spec, std::vector<SqlValue>& params);

}  // namespace sightline::storage
