#include "api/router.h"

#include <algorithm>

namespace sightline::api {
namespace {

bool IsParameter(const std::string& segment) {
  return segment.size() > 2 && segment.front() == '{' && segment.back() == '}';
}

// Lexicographic specificity: at each position a literal beats a parameter.
std::vector<bool> Specificity(const std::vector<std::string>& segments) {
  std::vector<bool> literal;
  for (const auto& s : segments) literal.push_back(!IsParameter(s));
  return literal;
}

}  // namespace

std::vector<std::string> SplitPath(std::string_view path) {
  std::vector<std::string> segments;
  std::size_t at = 0;
  while (at < path.size()) {
    if (path[at] == '/') {
      ++at;
      continue;
    }
    const std::size_t end = std::min(path.find('/', at), path.size());
    segments.emplace_back(path.substr(at, end - at));
    at = end;
  }
  return segments;
}

Router::Router(const tools::Registry& registry) {
  for (const auto& op : registry.operations()) {
    templates_.push_back({&op, SplitPath(op.spec->path)});
  }
  std::stable_sort(templates_.begin(), templates_.end(), [](const Template& a, const Template& b) {
    return Specificity(a.segments) > Specificity(b.segments);
  });
}

RouteMatch Router::Route(core::HttpMethod method, std::string_view path) const {
  RouteMatch result;
  // Segments are percent-decoded before any comparison, so "/user%73/me" is "/users/me".
  std::vector<std::string> segments = SplitPath(path);
  for (std::string& segment : segments) {
    auto decoded = core::PercentDecode(segment, false);
    if (!decoded || decoded->empty()) return result;  // a bad escape names no route
    segment = std::move(*decoded);
  }
  const std::vector<std::string>* matched_shape = nullptr;
  for (const Template& t : templates_) {
    if (t.segments.size() != segments.size()) continue;
    if (matched_shape && *matched_shape != t.segments &&
        Specificity(*matched_shape) != Specificity(t.segments)) {
      continue;  // a more specific shape already matched this path
    }
    std::vector<std::pair<std::string, std::string>> parameters;
    bool fits = true;
    for (std::size_t i = 0; i < segments.size() && fits; ++i) {
      if (IsParameter(t.segments[i])) {
        parameters.emplace_back(t.segments[i].substr(1, t.segments[i].size() - 2), segments[i]);
      } else {
        fits = t.segments[i] == segments[i];
      }
    }
    if (!fits) continue;
    matched_shape = &t.segments;
    if (t.operation->spec->method == method) {
      result.outcome = RouteMatch::Outcome::kMatched;
      result.operation = t.operation;
      result.path_parameters = std::move(parameters);
      return result;
    }
    result.allowed.push_back(t.operation->spec->method);
  }
  if (!result.allowed.empty()) result.outcome = RouteMatch::Outcome::kMethodNotAllowed;
  return result;
}

}  // namespace sightline::api
