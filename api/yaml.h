// Renders a JSON value as block-style YAML 1.2 (the form people read in /openapi.yaml).
// Every string is a double-quoted scalar, so no value can be misread as a number, a boolean or
// YAML syntax.
#pragma once

#include <boost/json/value.hpp>

#include <string>

namespace sightline::api {

std::string ToYaml(const boost::json::value& value);

}  // namespace sightline::api
