// Servers the end-to-end tests run on loopback beside Sightline: a self-signed certificate for
// HTTPS peers, and a DNS server (dnsmasq, from Debian) with the records a test needs.
#pragma once

#include "harness.h"

#include <netinet/in.h>

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace sightline::e2e {

// cert.pem and key.pem in `dir`, valid for 127.0.0.1 and, when given, `dns_name`.
void MakeLoopbackCertificate(const std::filesystem::path& dir, const std::string& dns_name = "");

// 127.0.0.1:`port` as a socket address (port 0: any).
sockaddr_in LoopbackAddress(int port = 0);

// A loopback port free for both UDP and TCP (dnsmasq listens on both).
int FreeDnsPort();

// dnsmasq answering only `arguments` (e.g. "--host-record=name,127.0.0.1"); stopped with the
// object.
class Dnsmasq {
 public:
  explicit Dnsmasq(const std::vector<std::string>& arguments);
  int port() const { return port_; }
  std::string address() const { return "127.0.0.1:" + std::to_string(port_); }

 private:
  int port_ = 0;
  std::unique_ptr<ChildProcess> process_;
};

}  // namespace sightline::e2e
