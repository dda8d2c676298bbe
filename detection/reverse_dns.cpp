#include "detection/reverse_dns.h"

#include "core/ip_address.h"
#include "core/text.h"

#include <algorithm>
#include <atomic>

namespace sightline::detection {
namespace {

constexpr std::size_t kMaxNames = 4;  // PTR names checked per IP

std::string Canonical(const std::string& ip) {
  const auto address = core::IpAddress::Parse(ip);
  return address ? address->ToString() : ip;
}

}  // namespace

// new State{…} rather than make_shared: State is an aggregate, and clang 14 (script/fuzz's
// build) lacks C++20's aggregate initialization from parentheses.
ReverseDnsVerifier::ReverseDnsVerifier(DnsResolver* resolver, const core::Clock& clock,
                                       ReverseDnsOptions options)
    : state_(new State{clock, options, resolver}) {}

std::optional<std::vector<std::string>> ReverseDnsVerifier::ConfirmedNames(const std::string& ip) {
  if (state_->resolver == nullptr) return std::nullopt;
  const std::string key = Canonical(ip);
  std::optional<std::vector<std::string>> names;
  bool resolve = false;
  {
    std::lock_guard lock(state_->mutex);
    if (state_->entries.size() >= state_->options.max_entries && !state_->entries.contains(key)) {
      return std::nullopt;
    }
    Entry& entry = state_->entries[key];
    const std::int64_t now = state_->clock.NowMillis();
    names = entry.names;  // possibly stale: kept while a refresh runs or after it fails
    if (!(entry.names && now < entry.valid_until) && !entry.resolving &&
        now >= entry.retry_after) {
      entry.resolving = true;
      resolve = true;
    }
  }
  if (resolve) Resolve(state_, key);
  return names;
}

void ReverseDnsVerifier::Resolve(std::shared_ptr<State> state, const std::string& ip) {
  state->resolver->Reverse(ip, [state, ip](DnsAnswer ptr) {
    if (ptr.status == DnsAnswer::Status::kFailed) return Finish(*state, ip, std::nullopt);
    if (ptr.status == DnsAnswer::Status::kNotFound || ptr.values.empty()) {
      return Finish(*state, ip, std::vector<std::string>{});  // no PTR: nothing to confirm
    }
    if (ptr.values.size() > kMaxNames) ptr.values.resize(kMaxNames);
    // Confirm every name; the last forward answer to arrive finishes the entry.
    struct Pending {
      std::mutex mutex;
      std::size_t left;
      bool failed = false;
      std::vector<std::string> confirmed;
    };
    auto pending = std::make_shared<Pending>();
    pending->left = ptr.values.size();
    for (const std::string& raw : ptr.values) {
      std::string name = core::ToLowerAscii(raw);
      if (!name.empty() && name.back() == '.') name.pop_back();
      state->resolver->Forward(name, [state, ip, name, pending](DnsAnswer forward) {
        std::optional<std::vector<std::string>> result;
        {
          std::lock_guard lock(pending->mutex);
          if (forward.status == DnsAnswer::Status::kFailed) pending->failed = true;
          for (const std::string& address : forward.values) {
            if (Canonical(address) == ip) {
              pending->confirmed.push_back(name);
              break;
            }
          }
          if (--pending->left > 0) return;
          // A failed forward lookup leaves nothing known unless another name confirmed.
          if (!pending->failed || !pending->confirmed.empty()) result = pending->confirmed;
        }
        Finish(*state, ip, std::move(result));
      });
    }
  });
}

void ReverseDnsVerifier::Finish(State& state, const std::string& ip,
                                std::optional<std::vector<std::string>> names) {
  std::lock_guard lock(state.mutex);
  Entry& entry = state.entries[ip];
  entry.resolving = false;
  const std::int64_t now = state.clock.NowMillis();
  if (!names) {
    entry.retry_after = now + state.options.retry_millis;
    return;
  }
  entry.valid_until = now + (names->empty() ? state.options.refuted_ttl_millis
                                            : state.options.confirmed_ttl_millis);
  entry.names = std::move(names);
}

bool HostMatchesSuffix(std::string_view host, std::string_view suffix) {
  if (suffix.empty() || suffix.front() != '.') return false;
  return host == suffix.substr(1) ||
         (host.size() > suffix.size() && host.ends_with(suffix));
}

}  // namespace sightline::detection
