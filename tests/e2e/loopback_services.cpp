#include "loopback_services.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <stdexcept>
#include <thread>

namespace sightline::e2e {
sockaddr_in LoopbackAddress(int port) {
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = htons(static_cast<std::uint16_t>(port));
  return address;
}

namespace {

bool UdpPortTaken(int port) {
  const int fd = socket(AF_INET, SOCK_DGRAM, 0);
  sockaddr_in address = LoopbackAddress(port);
  const bool taken = bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0;
  close(fd);
  return taken;
}

}  // namespace

void MakeLoopbackCertificate(const std::filesystem::path& dir, const std::string& dns_name) {
  const std::string names =
      "subjectAltName=IP:127.0.0.1" + (dns_name.empty() ? "" : ",DNS:" + dns_name);
  RunOrThrow("openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=127.0.0.1 -addext " +
             names + " -keyout " + (dir / "key.pem").string() + " -out " +
             (dir / "cert.pem").string() + " 2>/dev/null");
}

int FreeDnsPort() {
  for (int attempt = 0; attempt < 50; ++attempt) {
    const int udp = socket(AF_INET, SOCK_DGRAM, 0);
    sockaddr_in address = LoopbackAddress();
    bind(udp, reinterpret_cast<sockaddr*>(&address), sizeof address);
    socklen_t length = sizeof address;
    getsockname(udp, reinterpret_cast<sockaddr*>(&address), &length);
    const int tcp = socket(AF_INET, SOCK_STREAM, 0);
    const bool both = bind(tcp, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0;
    close(tcp);
    close(udp);
    if (both) return ntohs(address.sin_port);
  }
  throw std::runtime_error("no free DNS port");
}

Dnsmasq::Dnsmasq(const std::vector<std::string>& arguments) : port_(FreeDnsPort()) {
  // Debian installs it in /usr/sbin, which an unprivileged PATH may not include.
  const std::string program =
      std::filesystem::exists("/usr/sbin/dnsmasq") ? "/usr/sbin/dnsmasq" : "dnsmasq";
  std::vector<std::string> args = {"--keep-in-foreground", "--log-queries", "--log-facility=-",
                                   "--port=" + std::to_string(port_),
                                   "--listen-address=127.0.0.1", "--bind-interfaces",
                                   "--no-resolv", "--no-hosts", "--conf-file=/dev/null",
                                   "--pid-file="};
  args.insert(args.end(), arguments.begin(), arguments.end());
  process_ = std::make_unique<ChildProcess>(program, args);
  for (int i = 0; i < 250 && !UdpPortTaken(port_); ++i) {  // until dnsmasq has bound its port
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

}  // namespace sightline::e2e
