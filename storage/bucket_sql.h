// Internal to storage/: the SQL expression that keys an event's report bucket (BucketSpec),
// written once for both backends. Its C++ twin is reports::BucketKey.
#pragma once

#include <string>
#include <vector>

#include "storage/records.h"
#include "storage/sql_helpers.h"

namespace sightline::storage {

// An integer expression over `occurred_at`; its values become parameters of `sql`.
std::string BucketKeySql(const BucketSpec& spec, internal::SqlBuilder& sql);

}  // namespace sightline::storage
