// Asynchronous DNS over c-ares, on the resolver's own thread: PTR lookups and A/AAAA lookups for
// forward-confirmed reverse DNS, TXT lookups for site-ownership proofs. Each query is bounded
// (1 s per try, 2 tries); an answer too long for UDP is asked again over TCP.
#pragma once

#include "core/result.h"
#include "detection/reverse_dns.h"

#include <memory>
#include <string>

namespace sightline::net {

class AresResolver final : public detection::DnsResolver {
 public:
  // `server` is "HOST:PORT" (or "HOST") of the resolver to ask; empty: the system's.
  static core::Result<std::unique_ptr<AresResolver>> Create(const std::string& server);
  ~AresResolver() override;

  void Reverse(const std::string& ip, std::function<void(detection::DnsAnswer)> done) override;
  void Forward(const std::string& host, std::function<void(detection::DnsAnswer)> done) override;
  void Text(const std::string& name, std::function<void(detection::DnsAnswer)> done) override;

  struct Impl;

 private:
  explicit AresResolver(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace sightline::net
