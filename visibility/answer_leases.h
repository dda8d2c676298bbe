// The leases on AI-visibility answers (jobs::LeaseStore over the AI-visibility repository): a
// pending answer whose time has come, or a running one whose lease ran out, is claimed (its
// attempts counted, its run marked running). Thread-safe.
#pragma once

#include "jobs/lease_store.h"

namespace sightline::storage {
class Store;
}

namespace sightline::visibility {

class AnswerLeases final : public jobs::LeaseStore {
 public:
  explicit AnswerLeases(storage::Store& store) : store_(store) {}

  core::Result<bool> Claim(std::string_view id, std::int64_t now, std::int64_t until) override;
  core::Result<bool> Renew(std::string_view id, std::int64_t held, std::int64_t until) override;
  core::Result<bool> Release(std::string_view id, std::int64_t held) override;

 private:
  storage::Store& store_;
};

}  // namespace sightline::visibility
