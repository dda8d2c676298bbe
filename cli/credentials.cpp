#include "cli/credentials.h"

#include <sys/stat.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include <boost/json.hpp>

#include "cli/keyring.h"
#include "core/json_util.h"

namespace sightline::cli {
namespace {

namespace json = boost::json;
using core::Error;
using core::Result;

std::string Text(const json::object& object, std::string_view name) {
  const json::value* value = object.if_contains(name);
  return value && value->is_string() ? std::string(value->as_string()) : std::string();
}

Profile ProfileOf(const std::string& name, const json::object& object) {
  Profile profile{name,
                  Text(object, "server"),
                  Text(object, "accessToken"),
                  Text(object, "refreshToken"),
                  0,
                  Text(object, "organization"),
                  Text(object, "projectId"),
                  {}};
  if (Text(object, "storage") == "keyring") profile.storage = "keyring";
  if (const json::value* at = object.if_contains("expiresAt"); at && at->is_int64()) {
    profile.expires_at = at->as_int64();
  }
  if (const json::value* list = object.if_contains("permissions"); list && list->is_array()) {
    for (const json::value& item : list->as_array()) {
      if (item.is_string()) profile.permissions.emplace_back(item.as_string());
    }
  }
  return profile;
}

json::object JsonOf(const Profile& profile) {
  json::array permissions;
  for (const std::string& name : profile.permissions) permissions.emplace_back(name);
  json::object out{{"server", profile.server},
                   {"expiresAt", profile.expires_at},
                   {"organization", profile.organization},
                   {"projectId", profile.project_id},
                   {"permissions", std::move(permissions)},
                   {"storage", profile.storage}};
  if (profile.storage != "keyring") {
    out["accessToken"] = profile.access_token;
    out["refreshToken"] = profile.refresh_token;
  }
  return out;
}

// The tokens as the keyring keeps them.
std::string SecretOf(const Profile& profile) {
  return core::ToJson(json::object{{"accessToken", profile.access_token},
                                   {"refreshToken", profile.refresh_token}});
}

// A keyring profile's tokens, read back (left empty when the keyring lost them: the commands
// then ask for a new login).
void LoadSecret(Profile& profile) {
  auto secret = Keyring::Lookup(profile.name);
  if (!secret || !*secret) return;
  boost::system::error_code ec;
  const json::value parsed = json::parse(**secret, ec);
  if (ec || !parsed.is_object()) return;
  profile.access_token = Text(parsed.as_object(), "accessToken");
  profile.refresh_token = Text(parsed.as_object(), "refreshToken");
}

Error Unreadable(const std::filesystem::path& file, std::string why) {
  return Error::Invalid("credentials", "Cannot use " + file.string() + ": " + std::move(why));
}

}  // namespace

Result<std::filesystem::path> CredentialStore::DefaultDirectory() {
  if (const char* dir = std::getenv("SIGHTLINE_CONFIG_DIR"); dir && *dir) return dir;
  if (const char* config = std::getenv("XDG_CONFIG_HOME"); config && *config) {
    return std::filesystem::path(config) / "sightline";
  }
  if (const char* home = std::getenv("HOME"); home && *home) {
    return std::filesystem::path(home) / ".config" / "sightline";
  }
  return Error::Invalid("credentials",
                        "Set HOME, XDG_CONFIG_HOME or SIGHTLINE_CONFIG_DIR: there is nowhere to "
                        "keep the login.");
}

CredentialStore::CredentialStore(std::filesystem::path directory)
    : directory_(std::move(directory)), file_(directory_ / "credentials.json") {}

Result<CredentialStore::Contents> CredentialStore::Read() const {
  Contents contents;
  std::ifstream in(file_, std::ios::binary);
  if (!in) return contents;  // nobody logged in yet
  std::stringstream text;
  text << in.rdbuf();
  boost::system::error_code ec;
  const json::value parsed = json::parse(text.str(), ec);
  if (ec || !parsed.is_object()) return Unreadable(file_, "it is not a JSON object.");
  const json::object& root = parsed.as_object();
  if (const std::string name = Text(root, "defaultProfile"); !name.empty()) {
    contents.default_name = name;
  }
  if (const json::value* profiles = root.if_contains("profiles"); profiles && profiles->is_object()) {
    for (const auto& [name, value] : profiles->as_object()) {
      if (value.is_object()) {
        contents.profiles[std::string(name)] = ProfileOf(std::string(name), value.as_object());
      }
    }
  }
  return contents;
}

Result<void> CredentialStore::Write(const Contents& contents) const {
  std::error_code ec;
  std::filesystem::create_directories(directory_, ec);
  if (ec) return Unreadable(directory_, ec.message());
  ::chmod(directory_.c_str(), 0700);
  json::object profiles;
  for (const auto& [name, profile] : contents.profiles) profiles[name] = JsonOf(profile);
  const json::object root{{"defaultProfile", contents.default_name},
                          {"profiles", std::move(profiles)}};
  // Written beside, then renamed over: a crash never leaves half a file.
  const std::filesystem::path temporary = file_.string() + ".tmp";
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    if (!out) return Unreadable(temporary, "it cannot be written.");
    ::chmod(temporary.c_str(), 0600);
    out << core::ToJson(root) << '\n';
    if (!out.flush()) return Unreadable(temporary, "it cannot be written.");
  }
  std::filesystem::rename(temporary, file_, ec);
  if (ec) return Unreadable(file_, ec.message());
  return {};
}

Result<std::optional<Profile>> CredentialStore::Find(const std::string& name) const {
  auto contents = Read();
  if (!contents) return contents.error();
  const auto found = contents->profiles.find(name);
  if (found == contents->profiles.end()) return std::optional<Profile>();
  Profile profile = found->second;
  if (profile.storage == "keyring") LoadSecret(profile);
  return std::optional<Profile>(std::move(profile));
}

Result<std::string> CredentialStore::DefaultName() const {
  auto contents = Read();
  if (!contents) return contents.error();
  return contents->default_name;
}

Result<void> CredentialStore::Save(const Profile& profile) {
  auto contents = Read();
  if (!contents) return contents.error();
  Profile kept = profile;
  // The keyring when the session has one; the file (0600) when it has none or refuses.
  kept.storage = Keyring::Available() && Keyring::Store(profile.name, SecretOf(profile))
                     ? "keyring"
                     : "file";
  contents->profiles[profile.name] = kept;
  contents->default_name = profile.name;
  return Write(*contents);
}

Result<void> CredentialStore::Remove(const std::string& name) {
  auto contents = Read();
  if (!contents) return contents.error();
  const auto found = contents->profiles.find(name);
  if (found == contents->profiles.end()) return {};
  if (found->second.storage == "keyring") (void)Keyring::Clear(name);
  contents->profiles.erase(found);
  return Write(*contents);
}

}  // namespace sightline::cli
