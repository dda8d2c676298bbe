#include "jobs/lease.h"

#include <stdexcept>

#include "core/clock.h"

namespace sightline::jobs {

Lease::Lease(std::chrono::milliseconds duration) : duration_(duration) {
  if (duration_.count() <= 0) throw std::logic_error("a lease lasts a positive time");
}

HeldLease::HeldLease(LeaseStore& store, const Lease& lease, const core::Clock& clock,
                     std::string id, std::int64_t until)
    : store_(&store), lease_(lease), clock_(&clock), id_(std::move(id)), until_(until) {}

core::Result<std::optional<HeldLease>> HeldLease::Claim(LeaseStore& store, const Lease& lease,
                                                        const core::Clock& clock, std::string id) {
  const std::int64_t now = clock.NowMillis();
  const std::int64_t until = lease.Until(now);
  auto claimed = store.Claim(id, now, until);
  if (!claimed) return claimed.error();
  if (!*claimed) return std::optional<HeldLease>();
  return std::optional<HeldLease>(HeldLease(store, lease, clock, std::move(id), until));
}

core::Result<bool> HeldLease::Renew() {
  // A released lease's row reads 0, which is no proof of holding it.
  if (until_ == 0) return false;
  const std::int64_t until = lease_.Until(clock_->NowMillis());
  auto renewed = store_->Renew(id_, until_, until);
  if (!renewed) return renewed.error();
  if (*renewed) until_ = until;
  return *renewed;
}

core::Result<bool> HeldLease::Release() {
  if (until_ == 0) return false;
  auto released = store_->Release(id_, until_);
  if (!released) return released.error();
  if (*released) until_ = 0;
  return *released;
}

}  // namespace sightline::jobs
