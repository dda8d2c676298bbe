#include "mcp/app_views.h"

#include <algorithm>

namespace sightline::mcp {
namespace {

namespace json = boost::json;

// The view asks for nothing beyond the sandbox's defaults: no network (its data comes through
// the host), no camera or clipboard; it draws its own card, so the host need not.
json::object ResourceUiMeta() {
  return {{"prefersBorder", false}, {"csp", json::object{}}};
}

}  // namespace

AppViews::AppViews(std::vector<AppViewSource> views) {
  for (AppViewSource& source : views) {
    std::string uri = "ui://sightline/" + source.name + "-" + source.digest_hex.substr(0, 12) +
                      ".html";
    views_.push_back({std::move(source), std::move(uri)});
  }
}

const std::string* AppViews::ViewOf(std::string_view tool) const {
  for (const View& view : views_) {
    const auto& tools = view.source.tools;
    if (std::find(tools.begin(), tools.end(), tool) != tools.end()) return &view.uri;
  }
  return nullptr;
}

json::array AppViews::List() const {
  json::array resources;
  for (const View& view : views_) {
    resources.push_back(json::object{{"uri", view.uri},
                                     {"name", view.source.name},
                                     {"title", view.source.title},
                                     {"description", view.source.description},
                                     {"mimeType", kAppMimeType},
                                     {"_meta", json::object{{"ui", ResourceUiMeta()}}}});
  }
  return resources;
}

std::optional<json::object> AppViews::Read(std::string_view uri) const {
  const auto found =
      std::find_if(views_.begin(), views_.end(), [&](const View& view) { return view.uri == uri; });
  if (found == views_.end()) return std::nullopt;
  json::object content{{"uri", found->uri},
                       {"mimeType", kAppMimeType},
                       {"text", found->source.html},
                       {"_meta", json::object{{"ui", ResourceUiMeta()}}}};
  return json::object{{"contents", json::array{std::move(content)}}};
}

json::object AppToolMeta(std::string_view uri) {
  return {{"ui", json::object{{"resourceUri", uri}}}, {"ui/resourceUri", uri}};
}

}  // namespace sightline::mcp
