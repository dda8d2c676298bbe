// Telling the two MCP eras apart per request, and the modern envelope's checks (mcp/era.h).
#include "mcp/era.h"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <gtest/gtest.h>

namespace sightline::mcp {
namespace {

namespace json = boost::json;

core::HttpHeaders Headers(std::initializer_list<std::pair<std::string, std::string>> fields) {
  core::HttpHeaders headers;
  for (const auto& [name, value] : fields) headers.Add(name, value);
  return headers;
}

constexpr std::string_view kModernCall =
    R"({"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"get_top_bots",
        "_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",
                 "io.modelcontextprotocol/clientCapabilities":{}}}})";

int CodeOf(const RpcRefusal& refusal) {
  return static_cast<int>(refusal.message.at("error").at("code").as_int64());
}

TEST(McpEra, TheBodysClaimDecidesBeforeAnyHeaderOrSession) {
  const auto legacy_headers = Headers({{"Mcp-Session-Id", "abc"}, {"MCP-Protocol-Version", "2025-11-25"}});
  Classified modern = ClassifyPost(json::parse(kModernCall), legacy_headers);
  EXPECT_EQ(modern.era, Era::kModern);
  EXPECT_FALSE(modern.refusal);

  const json::value initialize =
      json::parse(R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{}})");
  EXPECT_EQ(ClassifyPost(initialize, {}).era, Era::kLegacy);
  const Classified modern_initialize =
      ClassifyPost(initialize, Headers({{"MCP-Protocol-Version", "2026-07-28"}}));
  ASSERT_TRUE(modern_initialize.refusal);
  EXPECT_EQ(CodeOf(*modern_initialize.refusal), rpc::kHeaderMismatch);

  const json::value bare = json::parse(R"({"jsonrpc":"2.0","id":2,"method":"tools/list"})");
  EXPECT_EQ(ClassifyPost(bare, {}).era, Era::kLegacy);
  EXPECT_EQ(ClassifyPost(bare, legacy_headers).era, Era::kLegacy);
  const Classified missing_meta =
      ClassifyPost(bare, Headers({{"MCP-Protocol-Version", "2026-07-28"}}));
  ASSERT_TRUE(missing_meta.refusal);
  EXPECT_EQ(missing_meta.refusal->status, 400);
  EXPECT_EQ(CodeOf(*missing_meta.refusal), rpc::kInvalidParams);

  const json::value notification = json::parse(R"({"jsonrpc":"2.0","method":"notifications/x"})");
  const Classified modern_notification =
      ClassifyPost(notification, Headers({{"MCP-Protocol-Version", "2026-07-28"}}));
  EXPECT_EQ(modern_notification.era, Era::kModern);
  EXPECT_FALSE(modern_notification.refusal);

  const json::value batch = json::parse("[" + std::string(kModernCall) + "]");
  const Classified modern_batch = ClassifyPost(batch, {});
  ASSERT_TRUE(modern_batch.refusal);
  EXPECT_EQ(CodeOf(*modern_batch.refusal), rpc::kInvalidRequest);
  EXPECT_EQ(ClassifyPost(json::parse(R"([{"jsonrpc":"2.0","id":1,"method":"ping"}])"), {}).era,
            Era::kLegacy);
}

TEST(McpEra, VersionsFromTheFirstModernRevisionOnAreModern) {
  EXPECT_TRUE(IsModernVersion("2026-07-28"));
  EXPECT_TRUE(IsModernVersion("2027-01-01"));
  EXPECT_FALSE(IsModernVersion("2025-11-25"));
  EXPECT_FALSE(IsModernVersion("2026-07-28x"));
  EXPECT_FALSE(IsModernVersion(""));
}

struct EnvelopeCase {
  const char* name;
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers;
  int code;  // 0: accepted
};

std::string Call(std::string_view meta, std::string_view method = "tools/call") {
  return R"({"jsonrpc":"2.0","id":1,"method":")" + std::string(method) +
         R"(","params":{"name":"get_top_bots","uri":"test://x","_meta":)" + std::string(meta) +
         "}}";
}

TEST(McpEra, TheModernEnvelopeIsCheckedKeyByKeyAndHeaderByHeader) {
  const std::string good_meta =
      R"({"io.modelcontextprotocol/protocolVersion":"2026-07-28",
          "io.modelcontextprotocol/clientCapabilities":{}})";
  const std::vector<std::pair<std::string, std::string>> good = {
      {"MCP-Protocol-Version", "2026-07-28"}, {"Mcp-Method", "tools/call"},
      {"Mcp-Name", "get_top_bots"}};
  const std::vector<EnvelopeCase> cases = {
      {"accepted", Call(good_meta), good, 0},
      {"name in base64", Call(good_meta),
       {{"MCP-Protocol-Version", "2026-07-28"}, {"Mcp-Method", "tools/call"},
        {"Mcp-Name", "=?base64?Z2V0X3RvcF9ib3Rz?="}},
       0},
      {"no capabilities",
       Call(R"({"io.modelcontextprotocol/protocolVersion":"2026-07-28"})"), good,
       rpc::kInvalidParams},
      {"version not a string",
       Call(R"({"io.modelcontextprotocol/protocolVersion":7,
               "io.modelcontextprotocol/clientCapabilities":{}})"),
       good, rpc::kInvalidParams},
      {"unsupported version",
       Call(R"({"io.modelcontextprotocol/protocolVersion":"2099-01-01",
               "io.modelcontextprotocol/clientCapabilities":{}})"),
       {{"MCP-Protocol-Version", "2099-01-01"}, {"Mcp-Method", "tools/call"},
        {"Mcp-Name", "get_top_bots"}},
       rpc::kUnsupportedVersion},
      {"a 2025 version in the modern envelope",
       Call(R"({"io.modelcontextprotocol/protocolVersion":"2025-11-25",
               "io.modelcontextprotocol/clientCapabilities":{}})"),
       {{"MCP-Protocol-Version", "2025-11-25"}, {"Mcp-Method", "tools/call"},
        {"Mcp-Name", "get_top_bots"}},
       rpc::kUnsupportedVersion},
      {"header version differs", Call(good_meta),
       {{"MCP-Protocol-Version", "2025-11-25"}, {"Mcp-Method", "tools/call"},
        {"Mcp-Name", "get_top_bots"}},
       rpc::kHeaderMismatch},
      {"no method header", Call(good_meta),
       {{"MCP-Protocol-Version", "2026-07-28"}, {"Mcp-Name", "get_top_bots"}},
       rpc::kHeaderMismatch},
      {"other name", Call(good_meta),
       {{"MCP-Protocol-Version", "2026-07-28"}, {"Mcp-Method", "tools/call"},
        {"Mcp-Name", "get_project"}},
       rpc::kHeaderMismatch},
      {"bad base64", Call(good_meta),
       {{"MCP-Protocol-Version", "2026-07-28"}, {"Mcp-Method", "tools/call"},
        {"Mcp-Name", "=?base64?!!?="}},
       rpc::kHeaderMismatch},
      {"resources/read names its uri", Call(good_meta, "resources/read"),
       {{"MCP-Protocol-Version", "2026-07-28"}, {"Mcp-Method", "resources/read"},
        {"Mcp-Name", "test://x"}},
       0},
      {"bad log level",
       Call(R"({"io.modelcontextprotocol/protocolVersion":"2026-07-28",
               "io.modelcontextprotocol/clientCapabilities":{},
               "io.modelcontextprotocol/logLevel":"loud"})"),
       good, rpc::kInvalidParams},
  };
  for (const EnvelopeCase& c : cases) {
    SCOPED_TRACE(c.name);
    core::HttpHeaders headers;
    for (const auto& [name, value] : c.headers) headers.Add(name, value);
    auto message = ParseMessage(json::parse(c.body));
    ASSERT_TRUE(message);
    const CheckedEnvelope checked = CheckModernRequest(*message, headers);
    if (c.code == 0) {
      EXPECT_FALSE(checked.refusal) << json::serialize(checked.refusal->message);
      continue;
    }
    ASSERT_TRUE(checked.refusal);
    EXPECT_EQ(checked.refusal->status, 400);
    EXPECT_EQ(CodeOf(*checked.refusal), c.code);
    if (c.code == rpc::kUnsupportedVersion) {
      const json::object& data = checked.refusal->message.at("error").at("data").as_object();
      EXPECT_EQ(json::serialize(data.at("supported")), R"(["2026-07-28"])");
    }
  }
}

TEST(McpEra, ModernResultsAreMarkedCompleteAndCacheable) {
  json::object result{{"tools", json::array()}};
  MarkComplete(result, {{"name", "sightline"}, {"version", "1"}});
  MarkCacheable(result, 60000, "private");
  EXPECT_EQ(result.at("resultType"), "complete");
  EXPECT_EQ(result.at("_meta").at("io.modelcontextprotocol/serverInfo").at("name"), "sightline");
  EXPECT_EQ(result.at("ttlMs"), 60000);
  EXPECT_EQ(result.at("cacheScope"), "private");
}

}  // namespace
}  // namespace sightline::mcp
