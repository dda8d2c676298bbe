// A list of strings as a JSON array, for the JSON the audit keeps (page facts, the site survey).
#pragma once

#include <boost/json/array.hpp>
#include <string>
#include <vector>

namespace sightline::site_audit {

inline boost::json::array JsonStrings(const std::vector<std::string>& values) {
  boost::json::array out;
  out.reserve(values.size());
  for (const std::string& value : values) out.emplace_back(value);
  return out;
}

}  // namespace sightline::site_audit
