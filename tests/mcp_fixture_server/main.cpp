// `sightline_mcp_fixtures`: a test-only server for the MCP conformance suite. It is
// `sightline serve`, built from the same libraries with the same options, plus the suite's
// fixture tools, resources and prompts on /api/mcp, which it also answers without a credential
// (callers without one see only the fixtures). The fixtures and that mode exist only in this
// executable: `sightline` has neither, and no option of it reaches them.
// With SIGHTLINE_TEST_CLOCK_OFFSET_MS set, the server's clock runs that many milliseconds ahead
// of the system's (negative: behind), so a test of a time window starts at a moment it chose
// rather than sleeping until one (tests/e2e: TestServerAtAFreshMinute).
// Usage: sightline_mcp_fixtures serve [sightline serve options]
#include <sys/stat.h>

#include <chrono>
#include <cstdlib>
#include <exception>
#include <iostream>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "app/serve_hooks.h"
#include "core/logging.h"
#include "tests/mcp_fixture_server/fixture_call.h"

namespace {

constexpr std::string_view kUsage =
    "Usage: sightline_mcp_fixtures serve [options]\n\n"
    "A test-only server: 'sightline serve' with the MCP conformance suite's fixtures on\n"
    "/api/mcp, answered without a credential. Options are those of 'sightline serve'.\n";

// The system's time, shifted by a fixed amount.
class ShiftedClock final : public sightline::core::Clock {
 public:
  explicit ShiftedClock(std::chrono::milliseconds shift) : shift_(shift) {}
  sightline::core::TimePoint Now() const override {
    return std::chrono::system_clock::now() + shift_;
  }

 private:
  const std::chrono::milliseconds shift_;
};

std::shared_ptr<const sightline::core::Clock> ClockFromEnvironment() {
  const char* shift = std::getenv("SIGHTLINE_TEST_CLOCK_OFFSET_MS");
  if (shift == nullptr || *shift == '\0') return nullptr;
  return std::make_shared<const ShiftedClock>(std::chrono::milliseconds(std::stoll(shift)));
}

sightline::app::ServeHooks FixtureHooks() {
  return {.mcp_extension =
              [] {
                sightline::core::Log(
                    sightline::core::LogLevel::kWarn,
                    "MCP conformance fixtures on: /api/mcp answers anonymous requests (tests only)",
                    {});
                return std::unique_ptr<const sightline::mcp::McpExtension>(
                    std::make_unique<sightline::mcp::ConformanceExtension>());
              },
          .anonymous_mcp = true,
          .clock = ClockFromEnvironment()};
}

}  // namespace

int main(int argc, char** argv) {
  umask(077);  // as sightline: the store holds password and key hashes
  std::span<char*> args(argv + 1, static_cast<std::size_t>(argc > 0 ? argc - 1 : 0));
  // "serve" first, so that the harnesses start either executable with the same arguments.
  if (args.empty() || std::string_view(args[0]) != "serve") {
    std::cerr << kUsage;
    return 2;
  }
  try {
    return sightline::app::RunServe(args.subspan(1), FixtureHooks());
  } catch (const std::exception& e) {
    std::cerr << "sightline_mcp_fixtures: unexpected failure: " << e.what() << std::endl;
    return 1;
  }
}
