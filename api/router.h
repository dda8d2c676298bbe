// Maps (method, path) to a registered operation and its decoded path parameters.
// Literal segments win over parameters at the first position where templates differ, so
// "/users/me/…" is never taken for an organization called "users". Read-only after
// construction; thread-safe.
#pragma once

#include "core/http_types.h"
#include "tools/registry.h"

#include <string>
#include <utility>
#include <vector>

namespace sightline::api {

struct RouteMatch {
  enum class Outcome { kMatched, kNotFound, kMethodNotAllowed };
  Outcome outcome = Outcome::kNotFound;
  const tools::RegisteredOperation* operation = nullptr;
  std::vector<std::pair<std::string, std::string>> path_parameters;
  std::vector<core::HttpMethod> allowed;  // for 405: methods the path does serve
};

class Router {
 public:
  explicit Router(const tools::Registry& registry);
  RouteMatch Route(core::HttpMethod method, std::string_view path) const;

 private:
  struct Template {
    const tools::RegisteredOperation* operation;
    std::vector<std::string> segments;  // "{name}" marks a parameter
  };
  std::vector<Template> templates_;
};

std::vector<std::string> SplitPath(std::string_view path);

}  // namespace sightline::api
