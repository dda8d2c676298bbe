// End-to-end: AI visibility against the real binary on every backend, with scripted engines on
// loopback (tests/interop/scripted_engine_server.mjs) speaking OpenAI's, Anthropic's and
// Perplexity's wire formats. Every expected figure is counted by hand from the scripts below.
#include "harness.h"

#include "api_client.h"
#include "sample_agents.h"

#include <gtest/gtest.h>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <chrono>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <thread>

namespace sightline::e2e {
namespace {

namespace json = boost::json;
using namespace std::chrono_literals;

constexpr char kOpenAiKey[] = "sk-openai-0123456789";
constexpr char kAnthropicKey[] = "sk-ant-abcdefghijkl";

// The scripted engines: the test posts answers per prompt, then reads what was asked.
class ScriptedEngines {
 public:
  ScriptedEngines() {
    process_ = std::make_unique<ChildProcess>(
        "node", std::vector<std::string>{
                    (SourceDir() / "tests/interop/scripted_engine_server.mjs").string()});
    port_ = static_cast<unsigned short>(
        json::parse(process_->FirstLine()).at("port").as_int64());
  }
  std::string Url(const std::string& path = "") const {
    return "http://127.0.0.1:" + std::to_string(port_) + path;
  }
  void Script(const std::string& script) {
    HttpConnection connection(port_);
    const Response r = connection.Send("POST", "/__script", {}, script);
    ASSERT_EQ(r.status, 200) << r.body;
  }
  json::array Requests() {
    HttpConnection connection(port_);
    return connection.Send("GET", "/__requests").Json().as_array();
  }

 private:
  std::unique_ptr<ChildProcess> process_;
  unsigned short port_ = 0;
};

class AiVisibility : public BackendTest {
 protected:
  void SetUp() override {
    BackendTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    creds_ = Bootstrap(GetParam(), Unique("aivis"), "Site");
    server_ = StartServer();
  }

  // On PostgreSQL every node is given the key file; on SQLite the default one is made in the
  // data directory at first start.
  std::unique_ptr<ServerProcess> StartServer(std::vector<std::string> extra = {}) {
    std::vector<std::string> args{"--ai-engines-private-urls", "--ai-visibility-interval", "1"};
    if (!GetParam().database_url.empty()) {
      const auto key = keys_.path() / "encryption.key";
      if (!std::filesystem::exists(key)) std::ofstream(key) << std::string(64, 'a') << "\n";
      args.insert(args.end(), {"--encryption-key-file", key.string()});
    }
    args.insert(args.end(), extra.begin(), extra.end());
    return std::make_unique<ServerProcess>(GetParam(), args);
  }

  ApiClient api() const { return ApiClient(*server_); }
  std::string Path(const std::string& rest) const {
    return creds_.ProjectPath() + "/ai-visibility/" + rest;
  }
  json::value Call(const std::string& method, const std::string& target,
                   const std::string& body = "", int status = 200) {
    const Response r = api().Call(method, target, creds_.private_api_key, body);
    EXPECT_EQ(r.status, status) << method << " " << target << ": " << r.body;
    return r.body.empty() ? json::value() : r.Json();
  }
  std::string Create(const std::string& what, const std::string& body) {
    const json::value made = Call("POST", Path(what), body, 201);
    return made.is_object() && made.as_object().contains("id")
               ? std::string(made.at("id").as_string())
               : "";
  }
  std::string OpenAiEngine() {
    return Create("engines", R"({"provider":"openai","model":"gpt-test","baseUrl":")" +
                                 engines_.Url("/v1") + R"(","apiKey":")" + kOpenAiKey +
                                 R"(","webSearch":true,"inputPrice":2.5,"outputPrice":10})");
  }
  std::string PerplexityEngine() {
    return Create("engines", R"({"provider":"perplexity","model":"sonar","baseUrl":")" +
                                 engines_.Url() + R"("})");
  }
  // Starts a run and waits until it finished; the finished run.
  json::object RunToTheEnd(const std::string& body = "{}") {
    const json::value run = Call("POST", Path("runs"), body, 202);
    return WaitForRun(std::string(run.at("id").as_string()));
  }
  json::object WaitForRun(const std::string& id) {
    const auto deadline = std::chrono::steady_clock::now() + 60s;
    json::object run;
    while (std::chrono::steady_clock::now() < deadline) {
      run = Call("GET", Path("runs/" + id)).as_object();
      if (!run.at("finishedAt").is_null()) return run;
      std::this_thread::sleep_for(200ms);
    }
    ADD_FAILURE() << "the run did not finish: " << json::serialize(run);
    return run;
  }
  json::object Report(const std::string& target) {
    const std::string separator = target.find('?') == std::string::npos ? "?" : "&";
    return Call("GET", target + separator + "projectId=" + creds_.project_id).as_object();
  }
  static const json::object& BrandRow(const json::object& report, const std::string& name) {
    for (const json::value& row : report.at("brands").as_array()) {
      if (row.at("name").as_string() == name) return row.as_object();
    }
    throw std::runtime_error("no brand " + name);
  }

  TempDir keys_{"sightline-aivis-keys-"};
  Credentials creds_;
  ScriptedEngines engines_;
  std::unique_ptr<ServerProcess> server_;
};

// Wilson's 95% interval, written out again here rather than taken from the server.
std::pair<double, double> Wilson(double x, double n) {
  const double z = 1.959963984540054, p = x / n, d = 1 + z * z / n;
  const double c = (p + z * z / (2 * n)) / d;
  const double h = z / d * std::sqrt(p * (1 - p) / n + z * z / (4 * n * n));
  return {c - h, c + h};
}

TEST_P(AiVisibility, RunsAskEveryEngineAndTheReportsCountWhatTheAnswersSaid) {
  Create("brands", R"({"name":"Acme Analytics","aliases":["Acme"],"domains":["https://acme.example/"],"own":true})");
  Create("brands", R"({"name":"Globex","domains":["globex.example"]})");
  Create("brands", R"({"name":"Initech"})");
  const json::value prompts = Call("POST", Path("prompts/bulk"), R"({"prompts":[
      {"text":"best privacy-friendly web analytics","topic":"analytics"},
      {"text":"how do I see AI crawlers on my site","topic":"crawlers","country":"de"},
      {"text":"enterprise BI suites","topic":"analytics","tags":["enterprise"]}]})", 201);
  ASSERT_EQ(prompts.at("prompts").as_array().size(), 3u);
  EXPECT_EQ(prompts.at("prompts").at(1).at("country").as_string(), "DE");
  const std::string openai = OpenAiEngine();
  Create("engines", R"({"provider":"anthropic","model":"claude-test","baseUrl":")" +
                        engines_.Url() + R"(","apiKey":")" + kAnthropicKey +
                        R"(","webSearch":true})");
  PerplexityEngine();
  Call("PATCH", Path("settings"), R"({"repetitions":2})");
  // Answers vary: the first prompt's six requests get A, B, A, B, … in arrival order.
  engines_.Script(R"({"answers":{
    "best privacy-friendly web analytics":[
      {"text":"1. **Globex** is popular.\n2. ACME analytics respects privacy: [pricing](https://www.acme.example/pricing?utm_source=chatgpt.com).",
       "citations":[{"url":"https://globex.example/blog","title":"Globex blog"}]},
      {"text":"Initech and Globex are both fine choices."}],
    "how do I see AI crawlers on my site":[
      {"text":"Acme shows verified AI crawlers: https://acme.example/docs/crawlers."}],
    "enterprise BI suites":[{"text":"Initech leads, followed by Globex."}]}})");

  const json::object run = RunToTheEnd();
  EXPECT_EQ(run.at("status").as_string(), "completed");
  const json::object& progress = run.at("progress").as_object();
  EXPECT_EQ(progress.at("total").as_int64(), 18) << "3 prompts × 3 engines × 2";
  EXPECT_EQ(progress.at("done").as_int64(), 18);
  EXPECT_EQ(progress.at("inputTokens").as_int64(), 18 * 120);
  // Only the OpenAI engine has prices: 6 × (120 × $2.50 + 80 × $10) per million tokens.
  EXPECT_NEAR(progress.at("costUsd").to_number<double>(), 6 * 0.0011, 1e-9);

  // Each engine was asked in its own wire format, with its key and web search.
  std::map<std::string, int> by_path;
  for (const json::value& request : engines_.Requests()) {
    const std::string path(request.at("path").as_string());
    ++by_path[path];
    const json::object& headers = request.at("headers").as_object();
    const json::object& body = request.at("body").as_object();
    if (path == "/v1/chat/completions") {
      EXPECT_EQ(headers.at("authorization").as_string(), std::string("Bearer ") + kOpenAiKey);
      EXPECT_TRUE(body.contains("web_search_options"));
    } else if (path == "/v1/messages") {
      EXPECT_EQ(headers.at("x-api-key").as_string(), kAnthropicKey);
      EXPECT_EQ(body.at("tools").at(0).at("type").as_string(), "web_search_20250305");
    } else {
      EXPECT_FALSE(headers.contains("authorization")) << "no key given, none sent";
    }
    if (json::serialize(body).find("AI crawlers") != std::string::npos) {
      EXPECT_NE(json::serialize(body).find("The user is in DE"), std::string::npos);
    }
  }
  EXPECT_EQ(by_path, (std::map<std::string, int>{
                         {"/chat/completions", 6}, {"/v1/chat/completions", 6}, {"/v1/messages", 6}}));

  // The first reports build the day rollups: asked at once, one builds them and every one
  // answers with the same figures.
  std::vector<std::thread> readers;
  std::vector<Response> answers_at_once(4);
  for (std::size_t i = 0; i < answers_at_once.size(); ++i) {
    readers.emplace_back([&, i] {
      answers_at_once[i] = api().Call("GET", "/ai-visibility?projectId=" + creds_.project_id,
                                      creds_.private_api_key);
    });
  }
  for (std::thread& reader : readers) reader.join();
  for (const Response& r : answers_at_once) {
    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(r.Json().at("answers").at("answers").as_int64(), 18);
  }

  // Acme is named in the 3 A answers (second, after Globex) and the 6 crawler answers (first);
  // Globex in A (first), B and the BI answers (second); Initech in B and the BI answers (first).
  const json::object report = Report("/ai-visibility");
  EXPECT_EQ(report.at("answers").at("answers").as_int64(), 18);
  const json::object& acme = BrandRow(report, "Acme Analytics");
  EXPECT_TRUE(acme.at("own").as_bool());
  EXPECT_EQ(acme.at("mentioned").as_int64(), 9);
  EXPECT_DOUBLE_EQ(acme.at("visibility").to_number<double>(), 0.5);
  EXPECT_NEAR(acme.at("interval").at("low").to_number<double>(), Wilson(9, 18).first, 1e-9);
  EXPECT_NEAR(acme.at("interval").at("high").to_number<double>(), Wilson(9, 18).second, 1e-9);
  EXPECT_NEAR(acme.at("averagePosition").to_number<double>(), 12.0 / 9, 1e-9);
  EXPECT_NEAR(acme.at("shareOfVoice").to_number<double>(), 9.0 / 30, 1e-9);
  EXPECT_TRUE(acme.at("sentiment").is_null()) << "no judge: nothing judged";
  EXPECT_TRUE(acme.at("change").is_null()) << "nothing in the comparison window to compare";
  const json::object& globex = BrandRow(report, "Globex");
  EXPECT_EQ(globex.at("mentioned").as_int64(), 12);
  EXPECT_NEAR(globex.at("averagePosition").to_number<double>(), 21.0 / 12, 1e-9);
  EXPECT_NEAR(globex.at("shareOfVoice").to_number<double>(), 12.0 / 30, 1e-9);
  EXPECT_EQ(BrandRow(report, "Initech").at("mentioned").as_int64(), 9);
  EXPECT_DOUBLE_EQ(BrandRow(report, "Initech").at("averagePosition").to_number<double>(), 1.0);
  // Citations: A cites Globex's blog (provider fields) and Acme's pricing (a link); the
  // crawler answers Acme's docs page. 9 of 18 answers cite something, all 9 an owned page.
  const json::object& answers = report.at("answers").as_object();
  EXPECT_EQ(answers.at("citedAnswers").as_int64(), 9);
  EXPECT_EQ(answers.at("ownedCitedAnswers").as_int64(), 9);
  EXPECT_EQ(answers.at("citations").as_int64(), 12);
  EXPECT_EQ(answers.at("ownedCitations").as_int64(), 9);

  // `query` over the same answers agrees with the report: the own brand's figures, every
  // brand's row, and the rates' Wilson intervals.
  const Response asked = api().Call(
      "POST", creds_.ProjectPath() + "/query", creds_.private_api_key,
      R"({"dataset":"ai_visibility","date_range":"7d","metrics":["answers","mentions","citations",
          "mention_rate","citation_rate","share_of_voice","average_position"]})");
  ASSERT_EQ(asked.status, 200) << asked.body;
  const json::value own = asked.Json().at("results").at(0);
  EXPECT_EQ(own.at("metrics").at(0).as_int64(), 18);
  EXPECT_EQ(own.at("metrics").at(1), acme.at("mentioned"));
  EXPECT_EQ(own.at("metrics").at(2), answers.at("ownedCitedAnswers"));
  EXPECT_DOUBLE_EQ(own.at("metrics").at(3).to_number<double>(), 0.5);
  EXPECT_NEAR(own.at("intervals").at(3).at(0).to_number<double>(), Wilson(9, 18).first, 1e-9);
  EXPECT_NEAR(own.at("intervals").at(3).at(1).to_number<double>(), Wilson(9, 18).second, 1e-9);
  EXPECT_TRUE(own.at("intervals").at(0).is_null()) << "a count has no interval";
  EXPECT_NEAR(own.at("metrics").at(5).to_number<double>(), 9.0 / 30, 1e-9);
  EXPECT_NEAR(own.at("metrics").at(6).to_number<double>(), 12.0 / 9, 1e-9);
  const Response brands = api().Call(
      "POST", creds_.ProjectPath() + "/query", creds_.private_api_key,
      R"({"dataset":"ai_visibility","date_range":"7d","metrics":["mentions","average_position"],
          "dimensions":["ai:brand"]})");
  ASSERT_EQ(brands.status, 200) << brands.body;
  std::map<std::string, std::int64_t> mentioned;
  const json::value brand_rows = brands.Json().at("results");
  for (const json::value& row : brand_rows.as_array()) {
    mentioned[std::string(row.at("dimensions").at(0).as_string())] = row.at("metrics").at(0).as_int64();
  }
  EXPECT_EQ(mentioned, (std::map<std::string, std::int64_t>{
                           {"Acme Analytics", 9}, {"Globex", 12}, {"Initech", 9}}));
  const Response crawlers_topic = api().Call(
      "POST", creds_.ProjectPath() + "/query", creds_.private_api_key,
      R"({"dataset":"ai_visibility","date_range":"7d","metrics":["answers","mentions"],
          "filters":[["is","ai:topic",["crawlers"]]]})");
  ASSERT_EQ(crawlers_topic.status, 200) << crawlers_topic.body;
  EXPECT_EQ(json::serialize(crawlers_topic.Json().at("results").at(0).at("metrics")), "[6,6]");

  const json::object by_topic = Report("/ai-visibility?groupBy=topic");
  std::map<std::string, std::pair<std::int64_t, std::int64_t>> topics;
  for (const json::value& group : by_topic.at("groups").as_array()) {
    topics[std::string(group.at("key").as_string())] = {
        group.at("answers").at("answers").as_int64(),
        BrandRow(group.as_object(), "Acme Analytics").at("mentioned").as_int64()};
  }
  EXPECT_EQ(topics, (std::map<std::string, std::pair<std::int64_t, std::int64_t>>{
                        {"analytics", {12, 3}}, {"crawlers", {6, 6}}}));
  const json::object by_engine = Report("/ai-visibility?groupBy=engine");
  ASSERT_EQ(by_engine.at("groups").as_array().size(), 3u);
  std::int64_t acme_over_engines = 0;
  for (const json::value& group : by_engine.at("groups").as_array()) {
    EXPECT_EQ(group.at("answers").at("answers").as_int64(), 6);
    acme_over_engines += BrandRow(group.as_object(), "Acme Analytics").at("mentioned").as_int64();
  }
  EXPECT_EQ(acme_over_engines, 9);

  // Filters: a topic (from the rollups), and one engine's answers per prompt (from the answers:
  // the rollups keep engines and prompts apart).
  const json::object crawlers = Report("/ai-visibility?topic=crawlers");
  EXPECT_EQ(crawlers.at("answers").at("answers").as_int64(), 6);
  EXPECT_EQ(BrandRow(crawlers, "Acme Analytics").at("mentioned").as_int64(), 6);
  const json::object one_engine = Report("/ai-visibility?groupBy=prompt&engineId=" + openai);
  EXPECT_EQ(one_engine.at("answers").at("answers").as_int64(), 6);
  ASSERT_EQ(one_engine.at("groups").as_array().size(), 3u);
  for (const json::value& group : one_engine.at("groups").as_array()) {
    EXPECT_EQ(group.at("answers").at("answers").as_int64(), 2);
    if (group.at("label").as_string() == "how do I see AI crawlers on my site") {
      EXPECT_EQ(BrandRow(group.as_object(), "Acme Analytics").at("mentioned").as_int64(), 2);
    }
  }

  const json::object domains = Report("/ai-visibility/sources");
  ASSERT_EQ(domains.at("sources").as_array().size(), 2u);
  EXPECT_EQ(domains.at("sources").at(0).at("value").as_string(), "acme.example");
  EXPECT_EQ(domains.at("sources").at(0).at("citations").as_int64(), 9);
  EXPECT_TRUE(domains.at("sources").at(0).at("owned").as_bool());
  EXPECT_EQ(domains.at("sources").at(1).at("value").as_string(), "globex.example");
  EXPECT_FALSE(domains.at("sources").at(1).at("brandId").is_null());
  const json::object pages = Report("/ai-visibility/sources?by=page");
  EXPECT_EQ(pages.at("sources").at(0).at("value").as_string(), "https://acme.example/docs/crawlers");
  EXPECT_EQ(pages.at("sources").at(0).at("citations").as_int64(), 6);

  const json::object gaps = Report("/ai-visibility/gaps");
  ASSERT_EQ(gaps.at("gaps").as_array().size(), 1u);
  const json::object& gap = gaps.at("gaps").at(0).as_object();
  EXPECT_EQ(gap.at("text").as_string(), "enterprise BI suites");
  std::set<std::string> competitors;
  for (const json::value& c : gap.at("competitors").as_array()) {
    competitors.insert(std::string(c.at("name").as_string()));
    EXPECT_DOUBLE_EQ(c.at("visibility").to_number<double>(), 1.0);
  }
  EXPECT_EQ(competitors, (std::set<std::string>{"Globex", "Initech"}));

  // The answer's text writes numbers as people do (Boost.JSON alone wrote 5E-1 and 1E0).
  const Response text = api().Call("GET", "/ai-visibility?projectId=" + creds_.project_id,
                                   creds_.private_api_key);
  EXPECT_NE(text.body.find(R"("mentioned":9,"visibility":0.5,"interval":{"low":0.)"),
            std::string::npos) << text.body;
  EXPECT_NE(text.body.find(R"("averagePosition":1,)"), std::string::npos) << text.body;
  EXPECT_FALSE(std::regex_search(text.body, std::regex(R"(:-?[0-9.]+E-?[0-9]+[,}\]])")))
      << text.body;
  // A period without answers has no rates: null, not 0 within [0, 1].
  const json::object empty = Report("/ai-visibility?from=2020-01-01&to=2020-01-07");
  const json::object& none = empty.at("answers").as_object();
  EXPECT_EQ(none.at("answers").as_int64(), 0);
  for (const char* rate : {"citationRate", "citationInterval", "ownedCitationRate",
                           "ownedCitationInterval"}) {
    EXPECT_TRUE(none.at(rate).is_null()) << rate;
  }
  for (const char* rate : {"visibility", "interval", "shareOfVoice", "averagePosition"}) {
    EXPECT_TRUE(BrandRow(empty, "Acme Analytics").at(rate).is_null()) << rate;
  }

  // The rollups are built now; a second run adds itself to them as its answers are stored, and
  // rebuilding them in another reporting zone from the answers gives the same figures.
  RunToTheEnd();
  const json::object twice = Report("/ai-visibility?groupBy=topic");
  EXPECT_EQ(twice.at("answers").at("answers").as_int64(), 36);
  EXPECT_EQ(twice.at("answers").at("ownedCitations").as_int64(), 18);
  EXPECT_EQ(BrandRow(twice, "Acme Analytics").at("mentioned").as_int64(), 18);
  EXPECT_EQ(Report("/ai-visibility/sources").at("sources").at(0).at("citations").as_int64(), 18);
  Call("PATCH", creds_.ProjectPath(), R"({"reportingTimezone":"Pacific/Kiritimati"})");
  const json::object rebuilt = Report("/ai-visibility?groupBy=topic");
  EXPECT_EQ(json::serialize(rebuilt.at("answers")), json::serialize(twice.at("answers")));
  EXPECT_EQ(json::serialize(rebuilt.at("brands")), json::serialize(twice.at("brands")));
  EXPECT_EQ(json::serialize(rebuilt.at("groups")), json::serialize(twice.at("groups")));

  // The evidence: every answer with its mentions and citations; one with its raw response.
  const json::value listed =
      Call("GET", Path("answers?runId=" + std::string(run.at("id").as_string()) + "&limit=100"));
  ASSERT_EQ(listed.at("answers").as_array().size(), 18u);
  std::string crawler_answer;
  for (const json::value& a : listed.at("answers").as_array()) {
    if (a.at("answer").as_string().starts_with("Acme shows")) crawler_answer = a.at("id").as_string();
  }
  const json::value one = Call("GET", Path("answers/" + crawler_answer));
  EXPECT_EQ(one.at("mentions").at(0).at("rank").as_int64(), 1);
  EXPECT_EQ(one.at("mentions").at(0).at("offset").as_int64(), 0);
  EXPECT_EQ(one.at("citations").at(0).at("url").as_string(), "https://acme.example/docs/crawlers");
  EXPECT_TRUE(one.at("citations").at(0).at("owned").as_bool());
  EXPECT_NE(one.at("rawResponse").as_string().find("\"usage\""), std::string::npos);
}

TEST_P(AiVisibility, AJudgeModelRatesTheMentionsAndIsNamedWithEachJudgement) {
  Create("brands", R"({"name":"Acme","own":true})");
  Create("brands", R"({"name":"Globex"})");
  Create("prompts", R"({"text":"which tool"})");
  PerplexityEngine();
  const std::string judge = OpenAiEngine();
  Call("PATCH", Path("settings"), R"({"repetitions":1,"judgeEngineId":")" + judge + R"("})");
  engines_.Script(R"({"answers":{"which tool":[{"text":"Pick Acme. Avoid Globex."}]},
    "judge":{"text":"```json\n{\"brands\":[{\"name\":\"Acme\",\"recommended\":true,\"sentiment\":90},{\"name\":\"Globex\",\"recommended\":false,\"sentiment\":15}]}\n```"}})");
  // One answer per engine (the judge is an engine too), each judged by the OpenAI engine.
  const json::object run = RunToTheEnd();
  EXPECT_EQ(run.at("progress").at("done").as_int64(), 2);
  const json::value listed = Call("GET", Path("answers"));
  for (const json::value& answer : listed.at("answers").as_array()) {
    EXPECT_EQ(answer.at("judgeModel").as_string(), "openai/gpt-test");
    for (const json::value& mention : answer.at("mentions").as_array()) {
      const bool acme = mention.at("rank").as_int64() == 1;
      EXPECT_EQ(mention.at("recommended").as_bool(), acme);
      EXPECT_DOUBLE_EQ(mention.at("sentiment").to_number<double>(), acme ? 90 : 15);
    }
  }
  const json::object report = Report("/ai-visibility");
  EXPECT_DOUBLE_EQ(BrandRow(report, "Acme").at("sentiment").to_number<double>(), 90);
  EXPECT_DOUBLE_EQ(BrandRow(report, "Acme").at("recommendedRate").to_number<double>(), 1.0);
  EXPECT_DOUBLE_EQ(BrandRow(report, "Globex").at("recommendedRate").to_number<double>(), 0.0);
  // The judge's tokens count: each answer is its own 200 plus the judge's 200.
  EXPECT_EQ(run.at("progress").at("inputTokens").as_int64() +
                run.at("progress").at("outputTokens").as_int64(),
            2 * 400);
}

TEST_P(AiVisibility, EngineKeysAreSealedNeverShownAndPrivateUrlsNeedTheOperatorsLeave) {
  const std::string id = OpenAiEngine();
  const json::value engines = Call("GET", Path("engines"));
  const json::object& engine = engines.at("engines").at(0).as_object();
  EXPECT_TRUE(engine.at("hasApiKey").as_bool());
  EXPECT_EQ(engine.at("apiKeyHint").as_string(), "6789");
  EXPECT_EQ(json::serialize(engines).find(kOpenAiKey), std::string::npos);
  Call("PATCH", Path("engines/" + id), R"({"apiKey":""})");
  EXPECT_FALSE(Call("GET", Path("engines")).at("engines").at(0).at("hasApiKey").as_bool());
  Call("PATCH", Path("engines/" + id), std::string(R"({"apiKey":")") + kOpenAiKey + R"("})");
  server_->Stop();
  EXPECT_EQ(server_->Log().find(kOpenAiKey), std::string::npos) << "never logged";
  if (GetParam().database_url.empty()) {
    for (const char* file : {"sightline.db", "sightline.db-wal"}) {
      std::ifstream in(GetParam().data_dir / file, std::ios::binary);
      std::stringstream bytes;
      bytes << in.rdbuf();
      EXPECT_EQ(bytes.str().find(kOpenAiKey), std::string::npos) << file << " holds the key";
    }
  }
  // Without --ai-engines-private-urls, loopback and private base URLs are refused.
  server_ = std::make_unique<ServerProcess>(
      GetParam(), GetParam().database_url.empty()
                      ? std::vector<std::string>{}
                      : std::vector<std::string>{"--encryption-key-file",
                                                 (keys_.path() / "encryption.key").string()});
  for (const char* url : {"http://127.0.0.1:9/v1", "http://localhost/v1", "https://10.1.2.3/v1",
                          "http://[::1]:8080/"}) {
    const Response r = api().Call("POST", Path("engines"), creds_.private_api_key,
                                  std::string(R"({"provider":"openai","model":"m","baseUrl":")") +
                                      url + "\"}");
    EXPECT_EQ(r.status, 400) << url << ": " << r.body;
    EXPECT_NE(r.body.find("VAL_003"), std::string::npos);
  }
  const Response bad = api().Call("POST", Path("engines"), creds_.private_api_key,
                                  R"({"provider":"gemini","model":"m"})");
  EXPECT_EQ(bad.status, 400) << bad.body;
  // The stored key still opens after the restart: the run reaches the engine with it.
  EXPECT_EQ(Call("GET", Path("engines")).at("engines").at(0).at("apiKeyHint").as_string(), "6789");
}

TEST_P(AiVisibility, RateLimitsAreWaitedOutFailuresRecordedAndTimeoutsRetried) {
  server_ = StartServer({"--llm-timeout", "1"});
  Create("brands", R"({"name":"Acme","own":true})");
  Create("prompts", R"({"text":"retry me"})");
  Create("prompts", R"({"text":"refused"})");
  Create("prompts", R"({"text":"slow"})");
  OpenAiEngine();
  Call("PATCH", Path("settings"), R"({"repetitions":1})");
  engines_.Script(R"({"answers":{
    "retry me":[{"status":429,"retryAfter":1,"error":"slow down"},{"text":"Acme after waiting"}],
    "refused":[{"status":401,"error":"Incorrect API key provided"}],
    "slow":[{"stallMs":2500,"text":"too late"},{"text":"Acme in time"}]}})");
  const json::object run = RunToTheEnd();
  EXPECT_EQ(run.at("status").as_string(), "completed") << "two of three answered";
  EXPECT_EQ(run.at("progress").at("done").as_int64(), 2);
  EXPECT_EQ(run.at("progress").at("failed").as_int64(), 1);
  const json::value listed = Call("GET", Path("answers?limit=10"));
  std::map<std::string, json::object> by_text;
  for (const json::value& a : listed.at("answers").as_array()) {
    by_text[a.at("status").as_string() == "failed" ? "failed" : std::string(a.at("answer").as_string())] =
        a.as_object();
  }
  EXPECT_EQ(by_text.at("Acme after waiting").at("attempts").as_int64(), 2);
  EXPECT_EQ(by_text.at("Acme in time").at("attempts").as_int64(), 2);
  const json::object& failed = by_text.at("failed");
  EXPECT_EQ(failed.at("attempts").as_int64(), 1) << "a refused key is not retried";
  EXPECT_EQ(failed.at("error").at("code").as_string(), "AGENT_003");
  EXPECT_NE(failed.at("error").at("message").as_string().find("Incorrect API key"),
            std::string::npos);
}

TEST_P(AiVisibility, BudgetsStopRunsAndRefuseNewOnes) {
  Create("brands", R"({"name":"Acme","own":true})");
  for (const char* text : {"q1", "q2", "q3"}) Create("prompts", std::string(R"({"text":")") + text + "\"}");
  PerplexityEngine();
  Call("PATCH", Path("settings"), R"({"repetitions":1,"maxRunsPerDay":2,"maxTokensPerDay":300})");
  const std::string answer = R"([{"text":"Acme","usage":{"input":150,"output":50}}])";
  engines_.Script(R"({"answers":{"q1":)" + answer + R"(,"q2":)" + answer + R"(,"q3":)" + answer + "}}");
  // 200 tokens each: the third answer finds 400 of 300 spent and the run stops there.
  const json::object run = RunToTheEnd();
  EXPECT_EQ(run.at("status").as_string(), "budget_exhausted");
  EXPECT_EQ(run.at("progress").at("done").as_int64(), 2);
  EXPECT_EQ(run.at("progress").at("skipped").as_int64(), 1);
  const Response tokens = api().Call("POST", Path("runs"), creds_.private_api_key, "{}");
  EXPECT_EQ(tokens.status, 429) << tokens.body;
  EXPECT_EQ(tokens.Json().at("error").at("code").as_string(), "AIV_002");
  EXPECT_EQ(tokens.Json().at("error").at("details").at("budget").as_string(), "tokens");
  Call("PATCH", Path("settings"), R"({"maxTokensPerDay":1000000})");
  EXPECT_EQ(RunToTheEnd().at("status").as_string(), "completed");
  const Response runs = api().Call("POST", Path("runs"), creds_.private_api_key, "{}");
  EXPECT_EQ(runs.status, 429) << runs.body;
  EXPECT_EQ(runs.Json().at("error").at("details").at("budget").as_string(), "runs");
  // Nothing to run: no active prompt.
  Call("PATCH", Path("settings"), R"({"maxRunsPerDay":10})");
  const json::value prompts = Call("GET", Path("prompts"));
  for (const json::value& p : prompts.at("prompts").as_array()) {
    Call("PATCH", Path("prompts/" + std::string(p.at("id").as_string())), R"({"active":false})");
  }
  const Response nothing = api().Call("POST", Path("runs"), creds_.private_api_key, "{}");
  EXPECT_EQ(nothing.status, 409) << nothing.body;
  EXPECT_EQ(nothing.Json().at("error").at("code").as_string(), "AIV_001");
}

TEST_P(AiVisibility, TwoNodesMakeTheScheduledRunOnceAndAskEachAnswerOnce) {
  Create("brands", R"({"name":"Acme","own":true})");
  Create("prompts", R"({"text":"p1"})");
  Create("prompts", R"({"text":"p2"})");
  PerplexityEngine();
  engines_.Script(R"({"answers":{"p1":[{"text":"Acme","stallMs":300}],"p2":[{"text":"no","stallMs":300}]}})");
  auto second = StartServer();
  Call("PATCH", Path("settings"), R"({"schedule":"daily","repetitions":3})");
  const auto deadline = std::chrono::steady_clock::now() + 60s;
  json::array runs;
  while (std::chrono::steady_clock::now() < deadline) {
    runs = Call("GET", Path("runs")).at("runs").as_array();
    if (!runs.empty() && !runs.at(0).at("finishedAt").is_null()) break;
    std::this_thread::sleep_for(300ms);
  }
  std::this_thread::sleep_for(2500ms);  // both nodes look again: nothing more may happen
  runs = Call("GET", Path("runs")).at("runs").as_array();
  ASSERT_EQ(runs.size(), 1u) << json::serialize(runs);
  EXPECT_EQ(runs.at(0).at("trigger").as_string(), "schedule");
  EXPECT_TRUE(runs.at(0).at("slot").as_string().starts_with("day:"));
  EXPECT_EQ(runs.at(0).at("status").as_string(), "completed");
  EXPECT_EQ(runs.at(0).at("progress").at("done").as_int64(), 6);
  EXPECT_EQ(engines_.Requests().size(), 6u) << "each answer asked exactly once";
}

TEST_P(AiVisibility, RolesSeparateViewingFromManaging) {
  const std::string owner = api().SignIn(creds_.owner_email);
  const Member analyst = api().AddMember(creds_.org_slug, owner, Unique("analyst") + "@example.com", "analyst");
  const Member support = api().AddMember(creds_.org_slug, owner, Unique("support") + "@example.com", "support");
  EXPECT_EQ(api().Call("GET", Path("brands"), analyst.access_token).status, 200);
  EXPECT_EQ(api().Call("GET", "/ai-visibility?projectId=" + creds_.project_id, analyst.access_token).status, 200);
  EXPECT_EQ(api().Call("POST", Path("brands"), analyst.access_token, R"({"name":"X"})").status, 403);
  EXPECT_EQ(api().Call("POST", Path("runs"), analyst.access_token, "{}").status, 403);
  EXPECT_EQ(api().Call("GET", Path("brands"), support.access_token).status, 403);
  // Another project's run or answer is not found from here.
  EXPECT_EQ(api().Call("GET", Path("runs/01234567-89ab-7def-8123-456789abcdef"), owner).status, 404);
}

TEST_P(AiVisibility, TheLoopJoinsCitationsCrawlerFetchesAndVisitsPerOwnedPage) {
  TempDir ranges("sightline-aivis-ranges-");
  std::ofstream(ranges.path() / "gptbot.json")
      << R"({"creationTime":"2026-11-01T00:00:00","prefixes":[{"ipv4Prefix":"192.0.2.0/24"}]})";
  server_ = StartServer({"--bot-ranges-dir", ranges.path().string()});
  Create("brands", R"({"name":"Acme","domains":["acme.example"],"own":true})");
  Create("prompts", R"({"text":"cheap analytics"})");
  PerplexityEngine();
  Call("PATCH", Path("settings"), R"({"repetitions":2})");
  engines_.Script(R"({"answers":{"cheap analytics":[
      {"text":"Acme: see pricing.","citations":[{"url":"https://acme.example/pricing"}]},
      {"text":"Acme again https://www.acme.example/pricing?plan=pro and https://acme.example/"}]}})");
  RunToTheEnd();

  // GPTBot fetched /pricing twice from OpenAI's range (verified) and once from elsewhere
  // (spoofed); a person came to /pricing from ChatGPT, another to /blog from Google.
  const std::int64_t now = std::chrono::duration_cast<std::chrono::milliseconds>(
                               std::chrono::system_clock::now().time_since_epoch()).count();
  auto item = [&](const std::string& ip, const std::string& path) {
    return R"({"user_agent":")" + std::string(kGptBot) + R"(","ip_address":")" + ip +
           R"(","path":")" + path + R"(","client_timestamp":)" + std::to_string(now - 60000) + "}";
  };
  const Response ingested = api().Call(
      "POST", "/ingest/v1/server", creds_.private_api_key,
      R"({"events":[)" + item("192.0.2.10", "/pricing") + "," + item("192.0.2.11", "/pricing?x=1") +
          "," + item("203.0.113.5", "/pricing") + "]}");
  ASSERT_EQ(ingested.status, 202) << ingested.body;
  auto view = [](const std::string& visitor, const std::string& url, const std::string& referrer) {
    return R"({"event":"screen_view","channel":"web","anonymous_id":")" + visitor +
           R"(","tags":{"$url":"https://acme.example)" + url + R"(","$referrer":")" + referrer +
           R"("}})";
  };
  const Response sent = server_->Request(
      "POST", "/sdk/v1/logs/batch",
      {{"x-sdk-key", creds_.sdk_key}, {"Content-Type", "application/json"},
       {"User-Agent", "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0"}},
      R"({"events":[)" + view("0b0e7a1c-35a4-4f6e-9c1d-3f2a5b6c7d81", "/pricing", "https://chatgpt.com/") + "," +
          view("0b0e7a1c-35a4-4f6e-9c1d-3f2a5b6c7d82", "/blog", "https://www.google.com/") + "]}");
  ASSERT_EQ(sent.status, 202) << sent.body;
  ASSERT_EQ(sent.Json().at("accepted").as_int64(), 2) << sent.body;

  const json::object loop = Report("/ai-visibility/loop");
  const json::array& pages = loop.at("pages").as_array();
  ASSERT_FALSE(pages.empty());
  const json::object& pricing = pages.at(0).as_object();
  EXPECT_EQ(pricing.at("path").as_string(), "/pricing");
  EXPECT_EQ(pricing.at("citations").as_int64(), 2) << "one per answer: provider field, link";
  EXPECT_EQ(pricing.at("citingAnswers").as_int64(), 2);
  EXPECT_EQ(pricing.at("fetches").as_int64(), 3) << "the query string is not another page";
  EXPECT_EQ(pricing.at("verifiedFetches").as_int64(), 2);
  EXPECT_EQ(pricing.at("spoofedFetches").as_int64(), 1);
  EXPECT_EQ(pricing.at("fetchesByPurpose").at("ai_training").as_int64(), 3);
  EXPECT_EQ(pricing.at("fetchesByVendor").at("OpenAI").as_int64(), 3);
  EXPECT_EQ(pricing.at("visits").as_int64(), 1) << "Google's visitor is not an AI visit";
  EXPECT_EQ(pricing.at("visitsBySource").at("ChatGPT").as_int64(), 1);
  EXPECT_EQ(pricing.at("previous").at("citations").as_int64(), 0);
  // The home page is cited once; /blog has no AI signal at all.
  std::set<std::string> paths;
  for (const json::value& page : pages) paths.insert(std::string(page.at("path").as_string()));
  EXPECT_EQ(paths, (std::set<std::string>{"/pricing", "/"}));
  // The series add up to the totals, and one page's series are that page's.
  auto sum = [](const json::value& values) {
    std::int64_t total = 0;
    for (const json::value& v : values.as_array()) total += v.as_int64();
    return total;
  };
  EXPECT_EQ(sum(loop.at("series").at("citations")), 3);
  EXPECT_EQ(sum(loop.at("series").at("fetches")), 3);
  EXPECT_EQ(sum(loop.at("series").at("visits")), 1);
  const json::object one = Report("/ai-visibility/loop?path=%2F");
  EXPECT_EQ(sum(one.at("series").at("citations")), 1);
  EXPECT_EQ(sum(one.at("series").at("fetches")), 0);
  EXPECT_EQ(one.at("buckets").as_array().size(), loop.at("buckets").as_array().size());
}

TEST_P(AiVisibility, BadInputIsRefusedWithTheFieldAndNothingIsStored) {
  auto refused = [&](const std::string& method, const std::string& target, const std::string& body,
                     int status, const std::string& code, const std::string& field = "") {
    const Response r = api().Call(method, target, creds_.private_api_key, body);
    EXPECT_EQ(r.status, status) << target << " " << body << ": " << r.body;
    if (r.status != status) return;
    EXPECT_EQ(r.Json().at("error").at("code").as_string(), code) << r.body;
    if (!field.empty()) {
      EXPECT_EQ(r.Json().at("error").at("details").at("field").as_string(), field) << r.body;
    }
  };
  refused("POST", Path("brands"), R"({"name":"Acme","domains":["not a domain"]})", 400, "VAL_003",
          "domains");
  refused("POST", Path("brands"), R"({"name":""})", 400, "VAL_003");
  refused("POST", Path("prompts"), R"({"text":"q","country":"DEU"})", 400, "VAL_003");
  refused("POST", Path("prompts"), R"({"text":"   "})", 400, "VAL_003", "text");
  std::string many = R"({"prompts":[)";
  for (int i = 0; i < 501; ++i) many += std::string(i ? "," : "") + R"({"text":"q"})";
  refused("POST", Path("prompts/bulk"), many + "]}", 400, "VAL_003");
  // All or nothing: the third prompt is empty, so the two before it are not stored either.
  const Response bulk = api().Call("POST", Path("prompts/bulk"), creds_.private_api_key,
                                   R"({"prompts":[{"text":"a"},{"text":"b"},{"text":" "}]})");
  EXPECT_EQ(bulk.status, 400) << bulk.body;
  EXPECT_EQ(bulk.Json().at("error").at("details").at("index").as_int64(), 2);
  EXPECT_TRUE(Call("GET", Path("prompts")).at("prompts").as_array().empty());
  refused("PATCH", Path("settings"), R"({"repetitions":0})", 400, "VAL_003");
  refused("PATCH", Path("settings"), R"({"schedule":"hourly"})", 400, "VAL_003");
  refused("PATCH", Path("settings"), R"({"judgeEngineId":"nope"})", 404, "REQ_004");
  refused("DELETE", Path("brands/nope"), "", 404, "REQ_004");
  refused("DELETE", Path("engines/nope"), "", 404, "REQ_004");
  refused("POST", Path("runs/nope/cancel"), "", 404, "REQ_004");
  refused("GET", Path("answers/nope"), "", 404, "REQ_004");
  refused("GET", "/ai-visibility?projectId=" + creds_.project_id + "&groupBy=country", "", 400,
          "VAL_003");
  refused("GET", "/ai-visibility/loop?projectId=" + creds_.project_id + "&interval=year", "", 400,
          "VAL_003");
  refused("POST", Path("runs"), "{}", 409, "AIV_001");
}

INSTANTIATE_TEST_SUITE_P(Backends, AiVisibility, ::testing::ValuesIn(AvailableBackends()),
                         [](const auto& info) { return info.param.name; });

}  // namespace
}  // namespace sightline::e2e
