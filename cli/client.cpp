#include "cli/client.h"

#include <cstdlib>
#include <iostream>

#include "core/version.h"

namespace sightline::cli {
std::string EnvOr(const char* name, std::string fallback) {
  const char* value = std::getenv(name);
  return value && *value ? std::string(value) : std::move(fallback);
}

std::unique_ptr<net::BeastHttpClient> NewCliHttpClient() {
  return std::make_unique<net::BeastHttpClient>(net::HttpClientOptions{
      .user_agent = "sightline-cli/" + std::string(core::kServerVersion)});
}

OpenedClient OpenCliClient(const std::string& profile_name) {
  auto client = std::make_unique<CliClient>();
  client->http = NewCliHttpClient();
  if (const std::string key = EnvOr("SIGHTLINE_API_KEY"); !key.empty()) {
    const std::string server = EnvOr("SIGHTLINE_SERVER");
    client->session.emplace(*client->http, server.empty() ? "http://127.0.0.1:8080" : server,
                            key);
    if (const std::string org = EnvOr("SIGHTLINE_ORG"); !org.empty()) {
      client->defaults["orgSlug"] = org;
    }
    if (const std::string project = EnvOr("SIGHTLINE_PROJECT"); !project.empty()) {
      client->defaults["projectId"] = project;
    }
    return {std::move(client), 0};
  }
  auto directory = cli::CredentialStore::DefaultDirectory();
  if (!directory) {
    std::cerr << "sightline: " << directory.error().message() << "\n";
    return {nullptr, 2};
  }
  client->store.emplace(*directory);
  std::string name = profile_name;
  if (name.empty()) {
    auto last = client->store->DefaultName();
    name = last ? *last : "default";
  }
  auto profile = client->store->Find(name);
  if (!profile || !*profile) {
    std::cerr << "sightline: not logged in; run `sightline login` or set SIGHTLINE_API_KEY\n";
    return {nullptr, 3};
  }
  client->defaults["orgSlug"] = (*profile)->organization;
  client->defaults["projectId"] = (*profile)->project_id;
  client->session.emplace(*client->http, client->clock, **profile, *client->store);
  return {std::move(client), 0};
}

}  // namespace sightline::cli
