// Whether a filter condition's values match one text (docs/query.md, "Filters"): `is` any value
// equal, `contains` any value inside, `matches` any pattern found (RE2); with
// `case_sensitive: false` ASCII letters compare without case. The negative forms
// (`is_not`, `contains_not`, `matches_not`) are answered by their positive form here, and
// negated by the caller over the whole visit or row.
#pragma once

#include <string_view>

#include "query/query_request.h"

namespace sightline::query {

bool ValueMatches(const Filter& condition, std::string_view value);
bool IsNegative(FilterOp op);

}  // namespace sightline::query
