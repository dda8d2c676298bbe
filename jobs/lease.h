// How one node holds a piece of background work: a lease of one duration, taken with a claim that
// only one node wins, renewed at a third of its length while the work runs, and released when the
// node stops, so that a node that dies (kill -9) leaves the work to be claimed by another once its
// lease runs out, and one that stops hands it over at once. Lease is a value; a HeldLease is used
// by one thread at a time.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

#include "core/result.h"
#include "jobs/lease_store.h"

namespace sightline::core {
class Clock;
}

namespace sightline::jobs {

class Lease {
 public:
  // REQUIRES: `duration` is positive.
  explicit Lease(std::chrono::milliseconds duration);

  std::chrono::milliseconds duration() const { return duration_; }
  // When a lease taken or renewed at `now` (Unix milliseconds) runs out.
  std::int64_t Until(std::int64_t now) const { return now + duration_.count(); }
  // How often a holder renews: at a third of the lease, so a renewal that fails (a slow or
  // restarting database) can be tried once more before the lease runs out.
  std::chrono::milliseconds RenewEvery() const { return duration_ / 3; }

 private:
  std::chrono::milliseconds duration_;
};

class HeldLease {
 public:
  // Claims `id` in `store` until `lease` after the clock's now; nullopt when another node holds
  // it (or it is not waiting any more). `store` and `clock` must outlive the HeldLease.
  static core::Result<std::optional<HeldLease>> Claim(LeaseStore& store, const Lease& lease,
                                                      const core::Clock& clock, std::string id);

  // Extends the lease from now; false when it was lost (see LeaseStore::Renew): the work is no
  // longer this node's to finish.
  core::Result<bool> Renew();
  // Gives the lease up; whether it was still held. Renew and Release after it answer false.
  core::Result<bool> Release();

  const std::string& id() const { return id_; }
  const Lease& lease() const { return lease_; }
  // When the lease runs out unless renewed (Unix milliseconds).
  std::int64_t until() const { return until_; }

 private:
  HeldLease(LeaseStore& store, const Lease& lease, const core::Clock& clock, std::string id,
            std::int64_t until);

  LeaseStore* store_;
  Lease lease_;
  const core::Clock* clock_;
  std::string id_;
  std::int64_t until_;
};

}  // namespace sightline::jobs
