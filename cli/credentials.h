// Where the command-line client keeps its logins: named profiles (one per server and account),
// in a JSON file readable by its owner only — ${SIGHTLINE_CONFIG_DIR}, else
// ${XDG_CONFIG_HOME}/sightline, else ~/.config/sightline — `credentials.json`; a profile's
// tokens go to the OS keyring instead when there is one (cli/keyring.h; docs/cli.md).
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/result.h"

namespace sightline::cli {

// One login: the server, the tokens of its grant, and what the user consented to.
struct Profile {
  std::string name;
  std::string server;  // the site's URL; the API is its /api
  std::string access_token, refresh_token;
  std::int64_t expires_at = 0;  // Unix ms of the access token's end
  std::string organization, project_id;
  std::vector<std::string> permissions;
  std::string storage = "file";  // where the tokens are: "keyring" or "file"
};

class CredentialStore {
 public:
  // The directory the environment names (see above); VAL_003 when it names none (no HOME).
  static core::Result<std::filesystem::path> DefaultDirectory();
  explicit CredentialStore(std::filesystem::path directory);

  const std::filesystem::path& file() const { return file_; }
  core::Result<std::optional<Profile>> Find(const std::string& name) const;
  // The default profile's name (the last one logged in), "default" when none was chosen.
  core::Result<std::string> DefaultName() const;
  // Writes the profile (replacing one of the same name) and makes it the default; the file is
  // replaced atomically, mode 0600 in a 0700 directory.
  core::Result<void> Save(const Profile& profile);
  core::Result<void> Remove(const std::string& name);

 private:
  struct Contents {
    std::string default_name = "default";
    std::map<std::string, Profile> profiles;
  };
  core::Result<Contents> Read() const;
  core::Result<void> Write(const Contents& contents) const;

  std::filesystem::path directory_;
  std::filesystem::path file_;
};

}  // namespace sightline::cli
