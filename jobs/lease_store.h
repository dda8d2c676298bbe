// Where leases on one kind of background work are kept: the claim, renewal and release that each
// feature implements over its own repository (the SQL stays in storage/; the policy, how long and
// how often, is jobs::Lease's). A lease is the row's `lease_until` in Unix milliseconds; the value
// a node wrote is also its proof of holding the lease, since a node that claims the work after the
// lease ran out writes a later one. Implementations are thread-safe (each call is its own
// transaction).
#pragma once

#include <cstdint>
#include <string_view>

#include "core/result.h"

namespace sightline::jobs {

class LeaseStore {
 public:
  virtual ~LeaseStore() = default;

  // Takes `id` until `until` if it is waiting to start or its lease ran out before `now`, as one
  // atomic conditional UPDATE, so of several nodes exactly one takes it; whether this call did.
  virtual core::Result<bool> Claim(std::string_view id, std::int64_t now, std::int64_t until) = 0;
  // Moves the lease from `held` to `until` while this node still holds it (still running, its
  // lease still `held`); false when it was lost: another node claimed it, the work ended, or
  // (where the kind says so) someone asked it to stop.
  virtual core::Result<bool> Renew(std::string_view id, std::int64_t held, std::int64_t until) = 0;
  // Gives a held lease up so that another node may claim the work at once (this node stops);
  // whether it was still held.
  virtual core::Result<bool> Release(std::string_view id, std::int64_t held) = 0;
};

}  // namespace sightline::jobs
