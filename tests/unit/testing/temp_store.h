// Test helper: a migrated SQLite store in a fresh mkdtemp directory, removed on destruction.
// Header-only so that it needs no CMake change; used by the identity and api unit tests.
#pragma once

#include "core/clock.h"
#include "identity/bootstrap.h"
#include "storage/store.h"

#include <stdlib.h>

#include <filesystem>
#include <memory>
#include <string>
#include <system_error>

namespace sightline::testutil {

class TempStore {
 public:
  TempStore() {
    std::string pattern =
        (std::filesystem::temp_directory_path() / "sightline-unit-XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr) return;
    dir_ = pattern;
    storage::StoreOptions options;
    options.sqlite_path = (dir_ / "sightline.db").string();
    options.pool_size = 2;
    auto store = storage::OpenStore(options);
    if (!store) return;
    if (!(*store)->Migrate()) return;
    store_ = std::move(*store);
  }
  ~TempStore() {
    store_.reset();
    std::error_code ignored;
    if (!dir_.empty()) std::filesystem::remove_all(dir_, ignored);
  }
  TempStore(const TempStore&) = delete;
  TempStore& operator=(const TempStore&) = delete;

  bool ok() const { return store_ != nullptr; }
  std::string sqlite_path() const { return (dir_ / "sightline.db").string(); }
  storage::Store& store() { return *store_; }

 private:
  std::filesystem::path dir_;
  std::unique_ptr<storage::Store> store_;
};

inline identity::BootstrapRequest DefaultBootstrapRequest() {
  return {"owner@example.com", "correct horse battery", "Acme Inc.", "Website"};
}

}  // namespace sightline::testutil
