// MCP Apps (the io.modelcontextprotocol/ui extension, specification 2026-01-26): interactive
// views a host renders in a sandboxed iframe beside a tool's result. Each view is one
// self-contained HTML file (built with the dashboard's own chart components, web/dashboard),
// served as a `ui://` resource with the MIME type `text/html;profile=mcp-app`; the tools whose
// results it renders point to it from `_meta.ui.resourceUri` (and the older flat
// `_meta["ui/resourceUri"]`, which hosts still read). The view gets its data through the host:
// the tool result, and tools/call when the user changes the period.
//
// The URI carries the file's digest, so a host that caches a view (its HTML depends on this
// build alone: cacheScope public) fetches it again after an upgrade. Both eras serve the same
// views. Immutable after construction; thread-safe.
#pragma once

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sightline::mcp {

inline constexpr std::string_view kAppsExtension = "io.modelcontextprotocol/ui";
inline constexpr std::string_view kAppMimeType = "text/html;profile=mcp-app";

struct AppViewSource {
  std::string name;         // "reports": the URI is ui://sightline/reports-<digest>.html
  std::string title;        // shown by hosts that list resources
  std::string description;
  std::string html;         // the whole, self-contained document
  std::string digest_hex;   // of `html`; its first 12 digits version the URI
  std::vector<std::string> tools;  // the tools whose results it renders
};

class AppViews {
 public:
  explicit AppViews(std::vector<AppViewSource> views = {});

  bool empty() const { return views_.empty(); }
  // The URI of the view that renders `tool`'s results, or null.
  const std::string* ViewOf(std::string_view tool) const;
  // resources/list entries.
  boost::json::array List() const;
  // resources/read's result for `uri`; nullopt when no view has it.
  std::optional<boost::json::object> Read(std::string_view uri) const;

 private:
  struct View {
    AppViewSource source;
    std::string uri;
  };
  std::vector<View> views_;
};

// The tool descriptor's `_meta` naming `uri` in both the current and the older key.
boost::json::object AppToolMeta(std::string_view uri);

}  // namespace sightline::mcp
