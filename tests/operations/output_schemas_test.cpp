// Every operation of the registry, called successfully in process on each store, and its result
// checked against the output schema it declares: with the project's validator (what MCP's
// outputSchema and the OpenAPI responses promise), and for drift (a member the schema does not
// declare). Steps() is the explicit list of how each operation is called; an operation with no
// successful step fails the suite, so a new operation must be added there.
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "site_audit/page_facts.h"
#include "site_audit/site_files.h"
#include "site_audit/site_survey.h"
#include "core/json_util.h"
#include "features/all_operations.h"
#include "identity/totp.h"
#include "tests/operations/operation_fixture.h"
#include "tests/operations/schema_drift.h"
#include "tests/support/software_authenticator.h"
#include "tools/schema.h"

namespace sightline::operations {
namespace {

using storage::conformance::Backend;

// What the steps share: the bootstrap's organization and project, and what earlier results
// gave later steps (ids, tokens, challenges).
struct Scenario {
  std::string org;
  std::string project;
  std::string owner_id;
  core::ManualClock* clock = nullptr;
  storage::Store* store = nullptr;
  std::map<std::string, std::string, std::less<>> saved;
  testing::Authenticator passkey = testing::Authenticator::Make(testing::kEs256);

  const std::string& operator[](std::string_view key) const { return saved.at(std::string(key)); }
  json::object Org(json::object more = {}) const {
    more["orgSlug"] = org;
    return more;
  }
  json::object Project(json::object more = {}) const {
    more["orgSlug"] = org;
    more["projectId"] = project;
    return more;
  }
  // A fresh TOTP code of the saved secret: the clock moves on a step first, since a code is
  // single-use.
  std::string TotpCode() const {
    clock->Advance(std::chrono::seconds(identity::kTotpPeriodSeconds));
    const auto key = identity::Base32Decode((*this)["totpSecret"]);
    return identity::Hotp(*key, identity::TotpStep(clock->NowMillis() / 1000));
  }
};

using Args = std::function<json::object(Scenario&)>;
using Then = std::function<void(Scenario&, const json::value&)>;

// One successful call: who calls which operation with what, and what later steps need from
// its result.
struct Step {
  std::string_view operation;
  Caller caller;
  Args args;
  Then then = nullptr;
};

// Saves result[member] (a string) as `key`.
Then Save(std::string key, std::string member) {
  return [key, member](Scenario& s, const json::value& result) {
    s.saved[key] = std::string(result.at(member).as_string());
  };
}

json::object None(Scenario&) { return {}; }

std::string Text(const json::value& value) { return std::string(value.as_string()); }

// The crawl's start page as the crawler describes a rich HTML answer, and the site as the survey
// describes its robots.txt: get_crawl_page's `details` and the summary's `site` are checked
// against what the crawler writes, not an empty row.
constexpr std::string_view kCrawledHtml = R"(<!doctype html><html lang="en"><head>
<title>Example</title><meta name="description" content="An example page.">
<meta name="viewport" content="width=device-width"><meta name="robots" content="max-snippet:50">
<link rel="canonical" href="/"><link rel="alternate" hreflang="de" href="/de/">
<script type="application/ld+json">{"@context":"https://schema.org","@type":"Article"}</script>
<script src="http://cdn.example.com/a.js"></script></head><body><h1>One</h1><h1>Two</h1>
<img src="/a.png"><img src="/b.png" alt="B"><a href="/pricing">Pricing</a><a href="/x"> </a>
</body></html>)";

void StoreCrawledPageAndSurvey(Scenario& s, const storage::SiteAuditPageRecord& queued) {
  site_audit::FetchResult answer{.status = 200, .body = std::string(kCrawledHtml), .ttfb_ms = 12,
                            .total_ms = 30};
  answer.headers.Add("Content-Type", "text/html; charset=utf-8");
  answer.headers.Add("Strict-Transport-Security", "max-age=60");
  answer.headers.Add("X-Robots-Tag", "noarchive");
  const site_audit::PageOutcome crawled = site_audit::DescribePage(queued, answer);
  site_audit::RobotsFetch robots{.url = "https://www.example.com/robots.txt", .status = 200,
                            .body = "User-agent: GPTBot\nDisallow: /\nContent-Signal: ai-train=no, "
                                    "search=yes\n\nUser-agent: *\nAllow: /\nCrawl-delay: 2\n"
                                    "Sitemap: https://www.example.com/sitemap.xml\n",
                            .policy = "rules"};
  robots.rules = site_audit::RobotsTxt::Parse(robots.body);
  const json::object site{
      {"robots", site_audit::DescribeRobots(robots, {{"GPTBot", "training"}, {"ClaudeBot", "training"}})}};
  ASSERT_TRUE(Ok(s.store->Write([&](storage::Transaction& tx) -> core::Result<void> {
    if (auto saved = tx.site_audit().SaveAuditPage(crawled.page); !saved) return saved;
    return tx.site_audit().SaveAuditCrawlSummary(queued.crawl_id,
                                            core::ToJson(json::object{{"site", site}}));
  })));
}

// ---- Arguments that take more than a line -------------------------------------------------

json::object ScreenView(std::string_view path, std::int64_t at) {
  return {{"event", "screen_view"},
          {"channel", "web"},
          {"anonymous_id", "6f1c1d64-7a0e-4c55-9a0a-3f1f3b8f2a11"},
          {"timestamp", at},
          {"tags",
           {{"$url", "https://shop.example" + std::string(path) + "?utm_source=news"},
            {"$referrer", "https://news.example/today"}}}};
}

json::object TrackBatch(Scenario& s) {
  const std::int64_t now = s.clock->NowMillis();
  return {{"events", json::array{ScreenView("/pricing", now - 60000), ScreenView("/docs", now),
                                 json::object{{"channel", "web"}}}}};  // no event: reported
}

json::object ServerEvents(Scenario&) {
  return {{"events",
           json::array{
               json::object{{"user_agent",
                             "Mozilla/5.0 (compatible; GPTBot/1.2; +https://openai.com/gptbot)"},
                            {"ip_address", "20.171.207.1"},
                            {"method", "GET"},
                            {"path", "/docs"}},
               json::object{{"user_agent",
                             "Mozilla/5.0 (compatible; Googlebot/2.1; "
                             "+http://www.google.com/bot.html)"},
                            {"ip_address", "66.249.66.1"},
                            {"path", "/pricing"}}}}};
}

json::object VercelDrain(Scenario& s) {
  const std::string at = std::to_string(s.clock->NowMillis() - 1000);
  return {{"source", "vercel"},
          {"body", R"([{"id":"1","source":"edge","proxy":{"timestamp":)" + at +
                       R"(,"method":"GET","path":"/blog","clientIp":"40.77.167.1",)"
                       R"drain("userAgent":"Mozilla/5.0 (compatible; bingbot/2.0; )drain"
                       R"drain(+http://www.bing.com/bingbot.htm)"}}])drain"}};
}

// The PublicKeyCredential JSON a browser sends for the scenario's authenticator.
json::object Credential(const Scenario& s, json::object response) {
  const std::string id = core::Base64UrlEncode(s.passkey.credential_id);
  return {{"id", id}, {"rawId", id}, {"type", "public-key"}, {"response", std::move(response)}};
}

json::object RegisterPasskey(Scenario& s) {
  const std::string challenge = *core::Base64UrlDecode(s["passkeyChallenge"]);
  const std::string client = testing::ClientDataJson("webauthn.create", challenge, kPasskeyOrigin);
  const std::string attestation =
      testing::AttestationObject(s.passkey, "none", "localhost", client);
  return {{"challengeId", s["passkeyChallengeId"]},
          {"label", "Laptop"},
          {"credential", Credential(s, {{"clientDataJSON", core::Base64UrlEncode(client)},
                                        {"attestationObject", core::Base64UrlEncode(attestation)},
                                        {"transports", json::array{"internal"}}})}};
}

json::object PasskeyAssertion(Scenario& s) {
  const std::string challenge = *core::Base64UrlDecode(s["passkeyChallenge"]);
  const std::string client = testing::ClientDataJson("webauthn.get", challenge, kPasskeyOrigin);
  const std::string auth = testing::AuthenticatorDataFor(
      "localhost", testing::kUserPresent | testing::kUserVerified, 1, nullptr);
  const std::string signature = s.passkey.Sign(auth + core::Sha256(client));
  return {{"challengeId", s["passkeyChallengeId"]},
          {"credential", Credential(s, {{"clientDataJSON", core::Base64UrlEncode(client)},
                                        {"authenticatorData", core::Base64UrlEncode(auth)},
                                        {"signature", core::Base64UrlEncode(signature)},
                                        {"userHandle", core::Base64UrlEncode(s.owner_id)}})}};
}

void SaveCeremony(Scenario& s, const json::value& result) {
  s.saved["passkeyChallengeId"] = Text(result.at("challengeId"));
  s.saved["passkeyChallenge"] = Text(result.at("publicKey").at("challenge"));
}

// The call the assistant proposed and that waits for the user's decision.
void SavePendingToolCall(Scenario& s, const json::value& answer) {
  for (const json::value& message : answer.at("messages").as_array()) {
    if (message.at("role") == "tool_call" && message.at("toolName") == "update_project") {
      s.saved["toolCallId"] = Text(message.at("toolCallId"));
    }
  }
}

// ---- The explicit list --------------------------------------------------------------------

// In order: later steps use what earlier ones created; destructive steps come last in their
// group. Callers vary so that every kind of principal reaches the dispatcher.
const std::vector<Step>& Steps() {
  static const std::vector<Step> steps = {
      // Sign-in and the signed-in user.
      {"login", Caller::kAnonymous,
       [](Scenario&) {
         return json::object{{"email", "owner@example.com"}, {"password", kOwnerPassword}};
       },
       Save("refreshToken", "refreshToken")},
      {"refresh_token", Caller::kAnonymous,
       [](Scenario& s) {
         return json::object{{"refreshToken", s["refreshToken"]}};
       },
       Save("refreshToken", "refreshToken")},
      {"logout", Caller::kAnonymous,
       [](Scenario& s) {
         return json::object{{"refreshToken", s["refreshToken"]}};
       }},
      {"get_current_user", Caller::kOwner, None},
      {"update_current_user", Caller::kOwner,
       [](Scenario&) {
         return json::object{{"firstName", "Grace"}, {"lastName", "Hopper"}};
       }},
      {"get_current_user_in_organization", Caller::kOwner, [](Scenario& s) { return s.Org(); }},

      // Organizations, members and invitations.
      {"create_organization", Caller::kOwner,
       [](Scenario&) {
         return json::object{{"name", "Scratch Co"}};
       },
       Save("scratchOrg", "slug")},
      {"list_organizations", Caller::kOwner, None},
      {"get_organization", Caller::kPrivateKey, [](Scenario& s) { return s.Org(); }},
      {"update_organization", Caller::kOwner,
       [](Scenario& s) {
         return s.Org({{"name", "Acme Incorporated"}});
       }},
      {"list_roles", Caller::kAnalyst, [](Scenario& s) { return s.Org(); }},
      {"list_members", Caller::kMcpGrant, [](Scenario& s) { return s.Org(); }},
      {"create_invitation", Caller::kOwner,
       [](Scenario& s) {
         return s.Org({{"email", "dev@example.com"}, {"role", "developer"}});
       },
       Save("invitationToken", "token")},
      {"list_invitations", Caller::kOwner, [](Scenario& s) { return s.Org(); }},
      {"accept_invitation", Caller::kAnonymous,
       [](Scenario& s) {
         return json::object{{"token", s["invitationToken"]},
                             {"password", "a new member's password"},
                             {"firstName", "Dev"}};
       },
       [](Scenario& s, const json::value& r) {
         s.saved["memberId"] = Text(r.at("user").at("id"));
       }},
      {"update_member", Caller::kOwner,
       [](Scenario& s) {
         return s.Org({{"userId", s["memberId"]}, {"role", "support"}});
       }},
      {"create_invitation", Caller::kOwner,
       [](Scenario& s) {
         return s.Org({{"email", "later@example.com"}, {"role", "analyst"}});
       },
       Save("invitationId", "id")},
      {"revoke_invitation", Caller::kOwner,
       [](Scenario& s) {
         return s.Org({{"invitationId", s["invitationId"]}});
       }},
      {"remove_member", Caller::kOwner,
       [](Scenario& s) {
         return s.Org({{"userId", s["memberId"]}});
       }},

      // Projects and their keys.
      {"create_project", Caller::kOwner,
       [](Scenario& s) {
         return s.Org({{"name", "Scratch"}, {"reportingTimezone", "Europe/Berlin"}});
       },
       Save("scratchProject", "id")},
      {"list_projects", Caller::kAnalyst, [](Scenario& s) { return s.Org(); }},
      {"get_project", Caller::kReadOnlyGrant, [](Scenario& s) { return s.Project(); }},
      {"update_project", Caller::kMcpGrant,
       [](Scenario& s) {
         return s.Project({{"ipLogging", true}});
       }},
      {"delete_project", Caller::kOwner,
       [](Scenario& s) {
         return s.Org({{"projectId", s["scratchProject"]}});
       }},
      {"create_sdk_key", Caller::kOwner,
       [](Scenario& s) {
         return s.Project({{"name", "Site"}});
       },
       Save("sdkKeyId", "id")},
      {"list_sdk_keys", Caller::kOwner, [](Scenario& s) { return s.Project(); }},
      {"revoke_sdk_key", Caller::kOwner,
       [](Scenario& s) {
         return s.Project({{"keyId", s["sdkKeyId"]}});
       }},
      {"create_private_api_key", Caller::kOwner,
       [](Scenario& s) {
         return s.Project({{"name", "CI"}});
       },
       Save("privateKeyId", "id")},
      {"list_private_api_keys", Caller::kOwner, [](Scenario& s) { return s.Project(); }},
      {"revoke_private_api_key", Caller::kOwner,
       [](Scenario& s) {
         return s.Project({{"keyId", s["privateKeyId"]}});
       }},

      // Ingestion, and what it stored.
      {"sdk_track_event", Caller::kSdkKey,
       [](Scenario&) {
         return json::object{{"event", "Signed up"}, {"channel", "signups"},
                             {"icon", "🎉"},          {"notify", true},
                             {"user_id", "user-42"}, {"tags", {{"plan", "pro"}, {"seats", 3}}}};
       }},
      {"sdk_track_events", Caller::kSdkKey, TrackBatch},
      {"sdk_identify", Caller::kSdkKey,
       [](Scenario&) {
         return json::object{{"anonymous_id", "6f1c1d64-7a0e-4c55-9a0a-3f1f3b8f2a11"},
                             {"user_id", "user-42"},
                             {"traits", {{"plan", "pro"}}}};
       }},
      {"classify_request", Caller::kPrivateKey,
       [](Scenario&) {
         return json::object{
             {"user_agent", "Mozilla/5.0 (compatible; ClaudeBot/1.0; +claudebot@anthropic.com)"},
             {"ip_address", "160.79.104.10"}};
       }},
      {"ingest_server_events", Caller::kPrivateKey, ServerEvents},
      {"ingest_log_drain", Caller::kPrivateKey, VercelDrain},
      {"list_events", Caller::kAnalyst, [](Scenario& s) { return s.Project(); }},
      {"get_usage", Caller::kReadOnlyGrant, [](Scenario& s) { return s.Project(); }},
      {"list_notifications", Caller::kOwner, [](Scenario& s) { return s.Project(); }},
      {"stream_notifications", Caller::kOwner, [](Scenario& s) { return s.Project(); }},

      // Reports: a key's project is implied; grants name theirs.
      {"get_bot_timeline", Caller::kPrivateKey, None},
      {"get_top_bots", Caller::kMcpGrant,
       [](Scenario& s) {
         return json::object{{"projectId", s.project}};
       }},
      {"get_bot_countries", Caller::kPrivateKey, None},
      {"get_bot_categories", Caller::kReadOnlyGrant,
       [](Scenario& s) {
         return json::object{{"projectId", s.project}};
       }},
      {"get_bot_top_paths", Caller::kPrivateKey, None},
      {"get_web_analytics", Caller::kPrivateKey, None},
      {"get_web_timeline", Caller::kPrivateKey,
       [](Scenario&) {
         return json::object{{"interval", "hour"}};
       }},
      {"get_web_breakdown", Caller::kMcpGrant,
       [](Scenario& s) {
         return json::object{{"projectId", s.project}, {"dimension", "top_page"}};
       }},
      {"get_page_durations", Caller::kPrivateKey, None},
      {"get_web_realtime", Caller::kMcpGrant,
       [](Scenario& s) { return json::object{{"projectId", s.project}}; }},
      {"get_web_dimension_timeline", Caller::kPrivateKey,
       [](Scenario&) {
         return json::object{{"dimension", "utm_source"}};
       }},
      {"query", Caller::kAnalyst,
       [](Scenario& s) {
         return s.Project({{"metrics", json::array{"visitors", "pageviews", "bounce_rate"}},
                           {"date_range", "7d"},
                           {"dimensions", json::array{"event:page", "time:day"}},
                           {"filters", json::array{json::array{"is_not", "visit:country",
                                                               json::array{"ZZ"}}}},
                           {"include", json::object{{"time_labels", true},
                                                    {"total_rows", true},
                                                    {"comparisons",
                                                     json::object{{"mode", "previous_period"}}}}}});
       }},
      {"get_property_keys", Caller::kAnalyst, [](Scenario& s) { return s.Project(); }},
      {"query_v2", Caller::kPrivateKey,
       [](Scenario& s) {
         return json::object{{"site_id", s.project},
                             {"metrics", json::array{"visitors", "events"}},
                             {"dimensions", json::array{"event:props:plan"}}};
       }},
      {"list_audit_log", Caller::kOwner, [](Scenario& s) { return s.Org(); }},

      // The assistant, over the scripted model (see the test body).
      {"get_agent_status", Caller::kOwner, [](Scenario& s) { return s.Project(); }},
      {"create_agent_conversation", Caller::kOwner,
       [](Scenario& s) {
         return s.Project({{"id", core::NewUuidV4()}, {"title", "Crawlers this month"}});
       },
       Save("conversationId", "id")},
      {"list_agent_conversations", Caller::kOwner, [](Scenario& s) { return s.Project(); }},
      {"send_agent_message", Caller::kOwner,
       [](Scenario& s) {
         return s.Project({{"conversationId", s["conversationId"]},
                           {"content", "Which crawlers came, and rename the project please."}});
       },
       SavePendingToolCall},
      {"decide_agent_tool_call", Caller::kOwner,
       [](Scenario& s) {
         return s.Project({{"conversationId", s["conversationId"]},
                           {"toolCallId", s["toolCallId"]},
                           {"approved", true}});
       }},
      {"get_agent_conversation", Caller::kOwner,
       [](Scenario& s) {
         return s.Project({{"conversationId", s["conversationId"]}});
       }},
      {"cancel_agent_answer", Caller::kOwner,
       [](Scenario& s) {
         return s.Project({{"conversationId", s["conversationId"]}});
       }},
      {"delete_agent_conversations", Caller::kOwner, [](Scenario& s) { return s.Project(); }},

      // Two-factor authentication, on the owner.
      {"setup_two_factor", Caller::kOwner, None, Save("totpSecret", "secret")},
      {"enable_two_factor", Caller::kOwner,
       [](Scenario& s) {
         return json::object{{"code", s.TotpCode()}};
       }},
      {"get_two_factor_status", Caller::kOwner, None},
      {"regenerate_backup_codes", Caller::kOwner, None},
      {"login", Caller::kAnonymous,
       [](Scenario&) {
         return json::object{{"email", "owner@example.com"}, {"password", kOwnerPassword}};
       },
       Save("twoFactorToken", "twoFactorToken")},
      {"login_two_factor", Caller::kAnonymous,
       [](Scenario& s) {
         return json::object{{"twoFactorToken", s["twoFactorToken"]}, {"code", s.TotpCode()}};
       }},
      {"disable_two_factor", Caller::kOwner,
       [](Scenario& s) {
         return json::object{{"password", kOwnerPassword}, {"code", s.TotpCode()}};
       }},

      // Passkeys, with a software authenticator.
      {"create_passkey_registration_options", Caller::kOwner, None, SaveCeremony},
      {"register_passkey", Caller::kOwner, RegisterPasskey, Save("passkeyId", "id")},
      {"list_passkeys", Caller::kOwner, None},
      {"rename_passkey", Caller::kOwner,
       [](Scenario& s) {
         return json::object{{"passkeyId", s["passkeyId"]}, {"label", "Work laptop"}};
       }},
      {"create_passkey_sign_in_options", Caller::kAnonymous, None, SaveCeremony},
      {"sign_in_with_passkey", Caller::kAnonymous, PasskeyAssertion},
      {"delete_passkey", Caller::kOwner,
       [](Scenario& s) {
         return json::object{{"passkeyId", s["passkeyId"]}};
       }},

      // Connected MCP clients; revoking ends the read-only grant, so it comes last.
      {"list_mcp_clients", Caller::kOwner, None,
       [](Scenario& s, const json::value& r) {
         s.saved["clientConnectionId"] = Text(r.at("clients").as_array().back().at("id"));
       }},
      {"revoke_mcp_client", Caller::kOwner,
       [](Scenario& s) {
         return json::object{{"clientConnectionId", s["clientConnectionId"]}};
       }},
      // A command-line login: started and collected anonymously, approved (then listed and
      // revoked) by the owner; a second one denied.
      {"start_cli_login", Caller::kAnonymous,
       [](Scenario&) {
         return json::object{{"clientName", "sightline"}, {"hostname", "build-box"},
                             {"os", "linux"}, {"permissions", json::array{"analytics.view"}}};
       },
       [](Scenario& s, const json::value& r) {
         s.saved["cliSession"] = Text(r.at("id"));
         s.saved["cliUserCode"] = Text(r.at("userCode"));
         s.saved["cliDeviceCode"] = Text(r.at("deviceCode"));
       }},
      {"get_cli_login", Caller::kOwner,
       [](Scenario& s) { return json::object{{"userCode", s["cliUserCode"]}}; }},
      {"approve_cli_login", Caller::kOwner,
       [](Scenario& s) {
         return json::object{{"sessionId", s["cliSession"]}, {"userCode", s["cliUserCode"]},
                             {"organization", s.org}, {"projectId", s.project},
                             {"permissions", json::array{"analytics.view"}}};
       }},
      {"poll_cli_login", Caller::kAnonymous,
       [](Scenario& s) {
         return json::object{{"sessionId", s["cliSession"]}, {"deviceCode", s["cliDeviceCode"]}};
       }},
      {"list_cli_sessions", Caller::kOwner, None},
      {"revoke_cli_session", Caller::kOwner,
       [](Scenario& s) { return json::object{{"sessionId", s["cliSession"]}}; }},
      {"start_cli_login", Caller::kAnonymous,
       [](Scenario&) { return json::object{{"clientName", "sightline"}}; },
       [](Scenario& s, const json::value& r) {
         s.saved["cliSession"] = Text(r.at("id"));
         s.saved["cliUserCode"] = Text(r.at("userCode"));
       }},
      {"deny_cli_login", Caller::kOwner,
       [](Scenario& s) {
         return json::object{{"sessionId", s["cliSession"]}, {"userCode", s["cliUserCode"]}};
       }},
      // AI visibility: configuration, a run (queued: no runner in this suite), its answers
      // and the reports over them.
      {"create_ai_brand", Caller::kOwner,
       [](Scenario& s) {
         return s.Project({{"name", "Acme"}, {"aliases", json::array{"ACME Inc"}},
                           {"domains", json::array{"acme.example"}}, {"own", true}});
       },
       Save("aiBrand", "id")},
      {"update_ai_brand", Caller::kOwner,
       [](Scenario& s) { return s.Project({{"brandId", s["aiBrand"]}, {"name", "Acme Co"}}); }},
      {"list_ai_brands", Caller::kOwner, [](Scenario& s) { return s.Project(); }},
      {"create_ai_prompt", Caller::kOwner,
       [](Scenario& s) { return s.Project({{"text", "best analytics"}, {"topic", "tools"}}); },
       Save("aiPrompt", "id")},
      {"create_ai_prompts", Caller::kOwner,
       [](Scenario& s) {
         return s.Project({{"prompts", json::array{json::object{{"text", "cheap analytics"}},
                                                   json::object{{"text", "GDPR analytics"},
                                                                {"country", "DE"}}}}});
       }},
      {"update_ai_prompt", Caller::kOwner,
       [](Scenario& s) { return s.Project({{"promptId", s["aiPrompt"]}, {"topic", "analytics"}}); }},
      {"list_ai_prompts", Caller::kOwner, [](Scenario& s) { return s.Project(); }},
      {"create_ai_engine", Caller::kOwner,
       [](Scenario& s) {
         return s.Project({{"provider", "perplexity"}, {"model", "sonar"},
                           {"params", json::object{{"temperature", 0.2}}}});
       },
       Save("aiEngine", "id")},
      {"update_ai_engine", Caller::kOwner,
       [](Scenario& s) { return s.Project({{"engineId", s["aiEngine"]}, {"webSearch", true}}); }},
      {"list_ai_engines", Caller::kOwner, [](Scenario& s) { return s.Project(); }},
      {"update_ai_visibility_settings", Caller::kOwner,
       [](Scenario& s) { return s.Project({{"repetitions", 2}, {"schedule", "weekly"}}); }},
      {"get_ai_visibility_settings", Caller::kOwner, [](Scenario& s) { return s.Project(); }},
      {"start_ai_visibility_run", Caller::kOwner, [](Scenario& s) { return s.Project(); },
       Save("aiRun", "id")},
      {"list_ai_visibility_runs", Caller::kOwner, [](Scenario& s) { return s.Project(); }},
      {"get_ai_visibility_run", Caller::kOwner,
       [](Scenario& s) { return s.Project({{"runId", s["aiRun"]}}); }},
      {"list_ai_answers", Caller::kOwner,
       [](Scenario& s) { return s.Project({{"runId", s["aiRun"]}}); },
       [](Scenario& s, const json::value& r) {
         s.saved["aiAnswer"] = Text(r.at("answers").as_array().front().at("id"));
       }},
      {"get_ai_answer", Caller::kOwner,
       [](Scenario& s) { return s.Project({{"answerId", s["aiAnswer"]}}); }},
      {"get_ai_visibility", Caller::kOwner,
       [](Scenario& s) { return json::object{{"projectId", s.project}, {"groupBy", "engine"}}; }},
      {"get_ai_visibility_sources", Caller::kOwner,
       [](Scenario& s) { return json::object{{"projectId", s.project}, {"by", "page"}}; }},
      {"get_ai_visibility_gaps", Caller::kOwner,
       [](Scenario& s) { return json::object{{"projectId", s.project}}; }},
      {"get_ai_visibility_loop", Caller::kOwner,
       [](Scenario& s) { return json::object{{"projectId", s.project}, {"interval", "week"}}; }},
      {"cancel_ai_visibility_run", Caller::kOwner,
       [](Scenario& s) { return s.Project({{"runId", s["aiRun"]}}); }},
      {"delete_ai_prompt", Caller::kOwner,
       [](Scenario& s) { return s.Project({{"promptId", s["aiPrompt"]}}); }},
      {"delete_ai_engine", Caller::kOwner,
       [](Scenario& s) { return s.Project({{"engineId", s["aiEngine"]}}); }},
      {"delete_ai_brand", Caller::kOwner,
       [](Scenario& s) { return s.Project({{"brandId", s["aiBrand"]}}); }},
      {"list_audit_rules", Caller::kAnalyst, [](Scenario& s) { return s.Project(); }},
      {"add_audit_site", Caller::kOwner,
       [](Scenario& s) { return s.Project({{"url", "https://www.example.com/shop"}}); },
       Save("auditSite", "id")},
      {"list_audit_sites", Caller::kOwner, [](Scenario& s) { return s.Project(); }},
      {"verify_audit_site", Caller::kOwner,
       [](Scenario& s) { return s.Project({{"siteId", s["auditSite"]}, {"method", "file"}}); }},
      {"get_audit_site", Caller::kPrivateKey,
       [](Scenario& s) { return s.Project({{"siteId", s["auditSite"]}}); }},
      {"start_site_crawl", Caller::kOwner,
       [](Scenario& s) { return s.Project({{"siteId", s["auditSite"]}, {"maxPages", 10}}); },
       [](Scenario& s, const json::value& crawl) {
         // No runner here: the crawl stays queued; one page of it, as a crawler stores it.
         s.saved["auditCrawl"] = std::string(crawl.at("id").as_string());
         const storage::SiteAuditPageRecord page{
             .crawl_id = s["auditCrawl"], .url = "https://www.example.com/", .seq = 1,
             .source = "start", .state = "queued"};
         ASSERT_TRUE(Ok(s.store->Write([&](storage::Transaction& tx) {
           return tx.site_audit().AddAuditUrls(std::span(&page, 1));
         })));
         StoreCrawledPageAndSurvey(s, page);
       }},
      {"list_site_crawls", Caller::kOwner, [](Scenario& s) { return s.Project(); }},
      {"get_site_crawl", Caller::kOwner,
       [](Scenario& s) { return s.Project({{"crawlId", s["auditCrawl"]}}); }},
      {"list_crawl_pages", Caller::kOwner,
       [](Scenario& s) { return s.Project({{"crawlId", s["auditCrawl"]}}); }},
      {"get_crawl_page", Caller::kOwner,
       [](Scenario& s) {
         return s.Project({{"crawlId", s["auditCrawl"]}, {"url", "https://www.example.com/"}});
       }},
      {"list_crawl_issues", Caller::kOwner,
       [](Scenario& s) { return s.Project({{"crawlId", s["auditCrawl"]}, {"state", "fixed"}}); }},
      {"get_site_audit_summary", Caller::kOwner,
       [](Scenario& s) { return s.Project({{"crawlId", s["auditCrawl"]}}); }},
      {"get_robots_traffic_report", Caller::kOwner,
       [](Scenario& s) { return s.Project({{"siteId", s["auditSite"]}}); }},
      {"get_crawler_access", Caller::kOwner,
       [](Scenario& s) { return json::object{{"projectId", s.project}}; }},
      {"cancel_site_crawl", Caller::kOwner,
       [](Scenario& s) { return s.Project({{"crawlId", s["auditCrawl"]}}); }},
      {"delete_audit_site", Caller::kOwner,
       [](Scenario& s) { return s.Project({{"siteId", s["auditSite"]}}); }},
      {"delete_organization", Caller::kOwner,
       [](Scenario& s) {
         return json::object{{"orgSlug", s["scratchOrg"]}};
       }},
      // Last: it ends the owner's other sessions (to the same password, so nothing else changes).
      {"change_password", Caller::kOwner,
       [](Scenario&) {
         return json::object{{"currentPassword", kOwnerPassword}, {"newPassword", kOwnerPassword}};
       }},
  };
  return steps;
}

// Operations whose answer is a stream: the output schema describes the SSE text, so what is
// checked instead is each event's data against the schema of the same items in a listing.
struct StreamItems {
  std::string_view listing;  // an operation returning the same items
  std::string_view member;   // the array member holding them
};
const std::map<std::string_view, StreamItems>& StreamedAs() {
  static const std::map<std::string_view, StreamItems> streams = {
      {"stream_notifications", {"list_notifications", "notifications"}},
  };
  return streams;
}

class OperationOutputs : public OperationFixture {
 protected:
  void SetUp() override {
    OperationFixture::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    scenario_.org = bootstrap_.organization_slug;
    scenario_.project = bootstrap_.project_id;
    scenario_.owner_id = bootstrap_.user_id;
    scenario_.clock = &clock_;
    scenario_.store = &store();
    // The assistant's answer: a read-only call (runs at once), a write (waits for approval),
    // then, once approved, the final text.
    model_->Queue(ScriptedModel::Calls("call_read", "get_top_bots", "{}"));
    model_->Queue(ScriptedModel::Calls("call_write", "update_project",
                                       R"json({"name": "Website (renamed)"})json"));
    model_->Queue(ScriptedModel::Says("GPTBot and Googlebot came; the project is renamed."));
  }

  // Validates `result` against the operation's output schema, then looks for drift.
  void ExpectMatchesOutputSchema(std::string_view operation, const json::value& result) {
    const tools::RegisteredOperation& registered = *registry_.Find(operation);
    if (registered.spec->success_status == 204) {
      EXPECT_TRUE(result.is_null()) << "a 204 answer has no body: " << json::serialize(result);
      return;
    }
    ExpectMatches(registered.output_schema, result);
  }

  static void ExpectMatches(const json::object& schema, const json::value& value) {
    auto valid = tools::Validate(schema, value);
    EXPECT_TRUE(valid) << (valid ? "" : valid.error().message()) << "\n" << json::serialize(value);
    if (auto undeclared = UndeclaredMember(schema, value)) {
      ADD_FAILURE() << "the schema does not declare '" << *undeclared << "'\n"
                    << json::serialize(value);
    }
  }

  // Opens the stream, reads what it has, and checks each event's data.
  void ExpectStreamedItemsMatch(const Step& step, const StreamItems& items) {
    auto stream = OpenStream(step.operation, step.caller, step.args(scenario_));
    ASSERT_TRUE(Ok(stream));
    const json::object& item_schema = registry_.Find(items.listing)
                                          ->output_schema.at("properties")
                                          .at(items.member)
                                          .at("items")
                                          .as_object();
    std::size_t events = 0;
    const std::optional<std::string> chunk = (*stream)->Poll();
    ASSERT_TRUE(chunk.has_value());
    std::size_t at = 0;
    while ((at = chunk->find("data: ", at)) != std::string::npos) {
      const std::size_t end = chunk->find('\n', at);
      ExpectMatches(item_schema, json::parse(chunk->substr(at + 6, end - at - 6)));
      ++events;
      at = end;
    }
    EXPECT_GT(events, 0u) << "the stream carried no event to check:\n" << *chunk;
  }

  void Run(const Step& step) {
    if (auto streamed = StreamedAs().find(step.operation); streamed != StreamedAs().end()) {
      return ExpectStreamedItemsMatch(step, streamed->second);
    }
    auto result = Call(step.operation, step.caller, step.args(scenario_));
    ASSERT_TRUE(Ok(result));
    ExpectMatchesOutputSchema(step.operation, *result);
    if (step.then) step.then(scenario_, *result);
  }

  Scenario scenario_;
};

TEST_P(OperationOutputs, EveryOperationSucceedsAndMatchesItsOutputSchema) {
  std::set<std::string_view> called;
  for (const Step& step : Steps()) {
    SCOPED_TRACE(std::string(step.operation));
    ASSERT_NO_FATAL_FAILURE(Run(step));
    called.insert(step.operation);
  }
  for (const tools::OperationSpec& spec : tools::AllOperations()) {
    EXPECT_TRUE(called.contains(spec.name))
        << spec.name << " has no successful call: add one to Steps()";
  }
}

INSTANTIATE_TEST_SUITE_P(Sqlite, OperationOutputs, ::testing::Values(Backend::kSqlite));
INSTANTIATE_TEST_SUITE_P(Postgres, OperationOutputs, ::testing::Values(Backend::kPostgres));

}  // namespace
}  // namespace sightline::operations
