#include "fixture_site.h"

#include <gtest/gtest.h>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <fstream>
#include <thread>

namespace sightline::e2e {

namespace json = boost::json;

namespace {

unsigned short PortOf(const json::object& ports, const char* name) {
  return static_cast<unsigned short>(ports.at(name).as_int64());
}

}  // namespace

FixtureSite::FixtureSite(const std::vector<std::string>& options) {
  std::vector<std::string> args{(SourceDir() / "tests/interop/fixture_site.mjs").string()};
  args.insert(args.end(), options.begin(), options.end());
  process_ = std::make_unique<ChildProcess>("node", args);
  const json::object ports = json::parse(process_->FirstLine()).as_object();
  port_ = PortOf(ports, "port");
  external_port_ = PortOf(ports, "externalPort");
  dead_port_ = PortOf(ports, "deadPort");
}

std::string FixtureSite::Origin() const { return "http://127.0.0.1:" + std::to_string(port_); }

std::string FixtureSite::Url(const std::string& path) const { return Origin() + path; }

std::string FixtureSite::ExternalUrl(const std::string& path) const {
  return "http://127.0.0.1:" + std::to_string(external_port_) + path;
}

std::string FixtureSite::DeadUrl(const std::string& path) const {
  return "http://127.0.0.1:" + std::to_string(dead_port_) + path;
}

Response FixtureSite::Control(const std::string& method, const std::string& path,
                              const std::string& body) {
  HttpConnection connection(port_);
  Response r = connection.Send(method, path, {{"Content-Type", "application/json"}}, body);
  EXPECT_LT(r.status, 300) << method << " " << path << ": " << r.body;
  return r;
}

json::array FixtureSite::Requests() { return Control("GET", "/__requests").Json().as_array(); }

void FixtureSite::ClearRequests() { Control("DELETE", "/__requests"); }

void FixtureSite::Publish(const std::string& file, const std::string& meta) {
  json::object proof{{"file", nullptr}, {"meta", nullptr}};
  if (!file.empty()) proof["file"] = file;
  if (!meta.empty()) proof["meta"] = meta;
  Control("PUT", "/__proof", json::serialize(proof));
}

void FixtureSite::Change(const std::string& path) {
  Control("POST", "/__change", json::serialize(json::object{{"path", path}}));
}

IssueSet FixtureSite::ExpectedIssues(const std::string& origin) {
  const std::string base = origin.empty() ? Origin() : origin;
  IssueSet out;
  const json::value expected = Control("GET", "/__expected").Json();
  for (const json::value& issue : expected.at("issues").as_array()) {
    const std::string path(issue.at("path").as_string());
    out.emplace(std::string(issue.at("ruleId").as_string()), path.empty() ? "" : base + path);
  }
  return out;
}

json::array FixtureSite::ExpectedPages() {
  return Control("GET", "/__expected").Json().at("pages").as_array();
}

std::vector<std::string> SiteAuditServerArgs(const Backend& backend,
                                             const std::filesystem::path& keys,
                                             std::vector<std::string> extra) {
  std::vector<std::string> args{"--audit-private-addresses", "--audit-interval=1"};
  // The crawler's signing key is sealed: on PostgreSQL every node is given the key file; on
  // SQLite the default one is made in the data directory at first start.
  if (!backend.database_url.empty()) {
    const auto key = keys / "encryption.key";
    if (!std::filesystem::exists(key)) std::ofstream(key) << std::string(64, 'a') << "\n";
    args.insert(args.end(), {"--encryption-key-file", key.string()});
  }
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

Response SiteAuditApi::Raw(const std::string& method, const std::string& rest,
                           const std::string& body) const {
  Headers headers = Bearer(creds_->private_api_key);
  if (!body.empty()) headers["Content-Type"] = "application/json";
  return server_->Request(method, creds_->ProjectPath() + "/site-audit/" + rest, headers, body);
}

json::value SiteAuditApi::Call(const std::string& method, const std::string& rest,
                               const std::string& body, int status) const {
  const Response r = Raw(method, rest, body);
  EXPECT_EQ(r.status, status) << method << " " << rest << ": " << r.body;
  if (r.body.empty()) return nullptr;
  boost::system::error_code ec;
  json::value parsed = json::parse(r.body, ec);
  EXPECT_FALSE(ec) << "not JSON: " << r.body;
  return parsed;
}

json::object SiteAuditApi::AddSite(const std::string& url) const {
  const json::value site = Call("POST", "sites", json::serialize(json::object{{"url", url}}), 201);
  return site.is_object() ? site.as_object() : json::object();
}

std::string SiteAuditApi::AddVerifiedSite(FixtureSite& fixture) const {
  const json::object site = AddSite(fixture.Url("/"));
  if (!site.contains("proofs")) {
    ADD_FAILURE() << "no proofs in " << json::serialize(site);
    return "";
  }
  fixture.Publish(std::string(site.at("proofs").at("file").at("content").as_string()), "");
  const std::string id(site.at("id").as_string());
  const json::value verified = Call("POST", "sites/" + id + "/verify", R"({"method":"file"})");
  EXPECT_TRUE(verified.is_object() && verified.at("verified").as_bool()) << verified;
  return id;
}

json::object SiteAuditApi::StartCrawl(const std::string& site_id, const std::string& body) const {
  const json::value crawl = Call("POST", "sites/" + site_id + "/crawls", body, 202);
  return crawl.is_object() ? crawl.as_object() : json::object();
}

json::object SiteAuditApi::WaitForCrawl(const std::string& crawl_id,
                                        std::chrono::seconds limit) const {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  json::object crawl;
  while (std::chrono::steady_clock::now() < deadline) {
    const json::value got = Call("GET", "crawls/" + crawl_id);
    if (!got.is_object()) break;
    crawl = got.as_object();
    const json::string& status = crawl.at("status").as_string();
    if (status == "completed" || status == "failed" || status == "cancelled") return crawl;
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  ADD_FAILURE() << "the crawl did not finish: " << json::serialize(crawl);
  return crawl;
}

json::object SiteAuditApi::Crawl(const std::string& site_id, const std::string& body) const {
  const json::object started = StartCrawl(site_id, body);
  if (!started.contains("id")) return started;
  return WaitForCrawl(std::string(started.at("id").as_string()));
}

json::array SiteAuditApi::AllRows(const std::string& rest, const std::string& member,
                                  const std::string& query) const {
  constexpr int kLimit = 100;
  json::array rows;
  for (int offset = 0; offset < 100000; offset += kLimit) {
    const json::value page =
        Call("GET", rest + "?limit=" + std::to_string(kLimit) +
                        "&offset=" + std::to_string(offset) + (query.empty() ? "" : "&" + query));
    if (!page.is_object()) break;
    const json::array& got = page.at(member).as_array();
    rows.insert(rows.end(), got.begin(), got.end());
    if (got.size() < static_cast<std::size_t>(kLimit)) break;
  }
  return rows;
}

json::array SiteAuditApi::Issues(const std::string& crawl_id, const std::string& query) const {
  return AllRows("crawls/" + crawl_id + "/issues", "issues", query);
}

json::array SiteAuditApi::Pages(const std::string& crawl_id, const std::string& query) const {
  return AllRows("crawls/" + crawl_id + "/pages", "pages", query);
}

IssueSet IssueKeys(const json::array& issues) {
  IssueSet out;
  for (const json::value& issue : issues) {
    out.emplace(std::string(issue.at("ruleId").as_string()),
                std::string(issue.at("url").as_string()));
  }
  return out;
}

std::string Difference(const IssueSet& a, const IssueSet& b) {
  std::string out;
  for (const auto& entry : a) {
    if (!b.contains(entry)) out += "  " + entry.first + " " + entry.second + "\n";
  }
  return out.empty() ? "  (none)\n" : out;
}

json::value Dig(const json::value& value, std::initializer_list<std::string_view> path) {
  const json::value* at = &value;
  for (std::string_view step : path) {
    if (const json::object* object = at->if_object()) {
      at = object->if_contains(step);
    } else if (const json::array* array = at->if_array()) {
      const std::size_t index = std::stoul(std::string(step));
      at = index < array->size() ? &(*array)[index] : nullptr;
    } else {
      at = nullptr;
    }
    if (at == nullptr) return nullptr;
  }
  return *at;
}

json::array List(const json::value& value, std::initializer_list<std::string_view> path) {
  const json::value found = Dig(value, path);
  return found.is_array() ? found.as_array() : json::array();
}

std::string Text(const json::value& value) {
  return value.is_string() ? std::string(value.as_string()) : "";
}

json::value FindIssue(const json::array& issues, const std::string& rule_id,
                      const std::string& url) {
  for (const json::value& issue : issues) {
    if (issue.at("ruleId").as_string() == rule_id && issue.at("url").as_string() == url) {
      return issue;
    }
  }
  ADD_FAILURE() << "no " << rule_id << " at '" << url << "'";
  return nullptr;
}

json::value FindPage(const json::array& pages, const std::string& url) {
  for (const json::value& page : pages) {
    if (page.at("url").as_string() == url) return page;
  }
  return nullptr;
}

std::set<std::string> Strings(const json::value& array, const std::string& member) {
  std::set<std::string> out;
  if (!array.is_array()) return out;
  for (const json::value& entry : array.as_array()) {
    const json::value* value = &entry;
    if (!member.empty())
      value = entry.is_object() ? entry.as_object().if_contains(member) : nullptr;
    if (value != nullptr && value->is_string()) out.emplace(value->as_string());
  }
  return out;
}

}  // namespace sightline::e2e
