// IP addresses and CIDR ranges from outside (X-Forwarded-For, log drain rows, range lists,
// --trusted-proxies), and the client IP read from a trusted proxy's headers. A parsed address
// prints in a form that parses back to it.
#include "core/ip_address.h"
#include "fuzz/fuzz_check.h"
#include "ingest/client_ip.h"

using namespace sightline::core;
using sightline::fuzz::Check;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzedDataProvider input(data, size);
  const std::string address_text = input.ConsumeRandomLengthString(64);
  const std::string list_text = input.ConsumeRemainingBytesAsString();
  const auto address = IpAddress::Parse(address_text);
  if (address) {
    const auto again = IpAddress::Parse(address->ToString());
    Check(again.has_value() && *again == *address, "an address round-trips through ToString");
    (void)address->IsGlobal();
  }
  if (const auto range = CidrRange::Parse(list_text)) {
    Check(range->Contains(range->network()), "a range contains its network address");
    if (address) (void)range->Contains(*address);
  }
  sightline::core::HttpHeaders headers;
  headers.Add("X-Forwarded-For", list_text);
  headers.Add("X-Real-IP", address_text);
  const auto trusted = ParseCidrList("10.0.0.0/8", nullptr);
  const std::string client = sightline::ingest::ClientIp(headers, "10.0.0.1", *trusted);
  Check(IpAddress::Parse(client).has_value(), "the client IP is an address");
  std::string bad_entry;
  if (const auto list = ParseCidrList(list_text, &bad_entry); list && address) {
    (void)list->Contains(*address);
  }
  return 0;
}
