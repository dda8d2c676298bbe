// Measures detection/user_agent.h against the labelled User-Agent corpus and times it.
//
//   ua_bench [corpus_dir] [--misses=device|browser|os|fp|recall|catalog|combined|catalog_fp|name|
//                                   category]
//
// corpus_dir holds humans.dev.jsonl and bots.dev.jsonl (default: ../shared/corpus/ua beside
// the repository). Prints bot recall, false positives on humans (label_conflict rows left
// out), device accuracy (device ∈ device_accept; rows with device null skipped), browser- and
// OS-family agreement (through the alias tables below) and uncached single-thread parses per
// second, best of 3 over the whole corpus. --misses lists the rows behind one figure.
#include <algorithm>
#include <boost/json.hpp>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "detection/bot_catalog.h"
#include "detection/ua_cache.h"
#include "detection/user_agent.h"

namespace {

namespace json = boost::json;
using sightline::detection::ClientHints;
using sightline::detection::ParseUserAgent;
using sightline::detection::UserAgentInfo;

struct Row {
  std::string ua;
  ClientHints hints;
  bool bot = false;
  bool label_conflict = false;
  std::vector<std::string> device_accept;  // empty: not scored
  std::string browser, browser_family, os, os_family;
  // Bots only: accepted names (expected_name, alt_names, canonical_name; lower-case) and
  // accepted categories (empty: not scored).
  std::vector<std::string> names, category_accept;
  std::string expected_category;
  std::string category_source;  // "curated", "matomo", "crawler-user-agents tag"
};

std::string Lower(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

std::string Str(const json::object& row, std::string_view key) {
  const json::value* value = row.if_contains(key);
  return value != nullptr && value->is_string() ? std::string(value->as_string()) : "";
}

// The JavaScript NavigatorUAData shape ([{brand, version}]) rendered as the header it mirrors.
std::string BrandListHeader(const json::value& value) {
  if (value.is_string()) return std::string(value.as_string());
  std::string out;
  if (!value.is_array()) return out;
  for (const json::value& entry : value.as_array()) {
    if (!entry.is_object()) continue;
    if (!out.empty()) out += ", ";
    out += "\"" + Str(entry.as_object(), "brand") + "\";v=\"" + Str(entry.as_object(), "version") +
           "\"";
  }
  return out;
}

std::string PlainValue(const json::value& value) {
  if (value.is_string()) return std::string(value.as_string());
  if (value.is_bool()) return value.as_bool() ? "?1" : "?0";
  if (value.is_int64()) return value.as_int64() != 0 ? "?1" : "?0";
  if (value.is_array()) {
    std::string out;
    for (const json::value& entry : value.as_array()) {
      if (!out.empty()) out += ", ";
      out += "\"" + PlainValue(entry) + "\"";
    }
    return out;
  }
  return "";
}

// Headers as captured (any case), or the JavaScript getHighEntropyValues() field names.
ClientHints ReadHints(const json::object& headers) {
  ClientHints hints;
  for (const auto& [raw_key, value] : headers) {
    if (value.is_null()) continue;
    const std::string key = Lower(std::string(raw_key));
    if (key == "sec-ch-ua" || key == "brands") hints.brands = BrandListHeader(value);
    if (key == "sec-ch-ua-full-version-list" || key == "fullversionlist") {
      hints.full_version_list = BrandListHeader(value);
    }
    if (key == "sec-ch-ua-mobile" || key == "mobile") {
      const std::string mobile = PlainValue(value);
      hints.mobile = mobile == "1" || mobile == "?1" || mobile == "true" ? "?1" : "?0";
    }
    if (key == "sec-ch-ua-platform" || key == "platform") hints.platform = PlainValue(value);
    if (key == "sec-ch-ua-platform-version" || key == "platformversion") {
      hints.platform_version = PlainValue(value);
    }
    if (key == "sec-ch-ua-model" || key == "model") hints.model = PlainValue(value);
    if (key == "sec-ch-ua-form-factors" || key == "formfactors") {
      hints.form_factors = PlainValue(value);
    }
  }
  return hints;
}

void ReadBotLabels(const json::object& object, Row& row) {
  for (std::string_view key : {"expected_name", "canonical_name"}) {
    if (const std::string name = Str(object, key); !name.empty()) row.names.push_back(Lower(name));
  }
  if (const json::value* alt = object.if_contains("alt_names"); alt && alt->is_array()) {
    for (const json::value& name : alt->as_array()) {
      if (name.is_string()) row.names.push_back(Lower(std::string(name.as_string())));
    }
  }
  if (const json::value* accept = object.if_contains("category_accept");
      accept && accept->is_array()) {
    for (const json::value& category : accept->as_array()) {
      if (category.is_string()) row.category_accept.emplace_back(category.as_string());
    }
  }
  row.expected_category = Str(object, "expected_category");
  row.category_source = Str(object, "category_source");
}

std::vector<Row> ReadCorpus(const std::string& path) {
  std::vector<Row> rows;
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open " + path);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    const json::object object = json::parse(line).as_object();
    Row row;
    row.ua = Str(object, "ua");
    row.bot = object.at("bot").as_bool();
    const json::value* conflict = object.if_contains("label_conflict");
    // true, or the reason as a string ("matches crawler-user-agents pattern …").
    row.label_conflict = conflict != nullptr && !conflict->is_null() &&
                         !(conflict->is_bool() && !conflict->as_bool());
    if (const json::value* headers = object.if_contains("headers");
        headers && headers->is_object()) {
      row.hints = ReadHints(headers->as_object());
    }
    const json::value* accept = object.if_contains("device_accept");
    const json::value* device = object.if_contains("device");
    if (accept != nullptr && accept->is_array() && device != nullptr && !device->is_null()) {
      for (const json::value& entry : accept->as_array())
        row.device_accept.emplace_back(entry.as_string());
    }
    row.browser = Str(object, "browser");
    row.browser_family = Str(object, "browser_family");
    row.os = Str(object, "os");
    row.os_family = Str(object, "os_family");
    ReadBotLabels(object, row);
    rows.push_back(std::move(row));
  }
  return rows;
}

// ---- Alias tables: the corpus uses Matomo's and uap-core's names, we use our own.
std::string Strip(std::string name) {
  name = Lower(std::move(name));
  for (std::string_view word :
       {" mobile", "mobile ", " browser", " webview", " lite", " internet"}) {
    for (std::size_t at = name.find(word); at != std::string::npos; at = name.find(word)) {
      name.erase(at, word.size());
    }
  }
  static const std::vector<std::pair<std::string, std::string>> kAliases = {
      {"internet explorer", "ie"},
      {"microsoft edge", "edge"},
      {"mi", "miui"},
      {"opera devices", "opera"},
      {"opera gx", "opera"},
      {"opera next", "opera"},
      {"opera touch", "opera"},
      {"facebook messenger", "facebook"},
      {"wechat", "wechat"},
      {"mac", "macos"},
      {"mac os x", "macos"},
      {"gnu/linux", "linux"},
      {"chrome os", "chromeos"},
      {"chromium os", "chromeos"},
      {"ipados", "ios"},
      {"windows mobile", "windows phone"},
      {"google search app", "google app"},
      {"baidu box app", "baidu app"},
      {"openwave", "openwave"},
      {"openwave mobile", "openwave"},
      {"windows ce", "windows phone"},
      {"oculus", "oculus"},
      {"yandex search app", "yandex"},
  };
  for (const auto& [from, to] : kAliases) {
    if (name == from) return to;
  }
  return name;
}

// The family our names belong to, in the corpus's terms.
std::string OurFamily(const std::string& name) {
  static const std::set<std::string> kChromeFamily = {"Chrome",
                                                      "Chromium",
                                                      "Chrome WebView",
                                                      "Samsung Internet",
                                                      "Yandex",
                                                      "Silk",
                                                      "Huawei Browser",
                                                      "MIUI Browser",
                                                      "Brave",
                                                      "Vivaldi",
                                                      "Edge",
                                                      "Oculus Browser",
                                                      "Pico Browser",
                                                      "DuckDuckGo",
                                                      "Whale",
                                                      "Quark",
                                                      "HeyTap Browser",
                                                      "vivo Browser",
                                                      "Avast Secure Browser",
                                                      "Coc Coc",
                                                      "Puffin"};
  static const std::vector<std::pair<std::string, std::string>> kOsFamilies = {
      {"Fire OS", "android"},
      {"HarmonyOS", "android"},
      {"watchOS", "ios"},
      {"tvOS", "ios"},
      {"iPadOS", "ios"},
      {"KaiOS", "firefox os"},
      {"Java ME", "real-time os"},
      {"webOS", "other mobile"},
      {"Tizen", "other mobile"},
      {"Bada", "other mobile"},
      {"FreeBSD", "unix"},
      {"OpenBSD", "unix"},
      {"NetBSD", "unix"},
      {"Xbox", "windows"},
      {"PlayStation", "gaming console"},
      {"Nintendo", "gaming console"},
      {"BlackBerry OS", "blackberry"}};
  if (kChromeFamily.contains(name)) return "chrome";
  for (const auto& [ours, family] : kOsFamilies) {
    if (ours == name) return family;
  }
  if (name == "Mobile Safari" || name == "WebView") return "safari";
  return Strip(name);
}

bool Agrees(const std::string& ours, const std::string& label, const std::string& family) {
  const std::set<std::string> mine = {Strip(ours), OurFamily(ours)};
  return mine.contains(Strip(label)) || (!family.empty() && mine.contains(Strip(family)));
}

struct Tally {
  long hit = 0, total = 0;
  double Percent() const { return total == 0 ? 0.0 : 100.0 * hit / total; }
  void Add(bool ok) {
    hit += ok;
    ++total;
  }
};

void PrintMiss(const char* what, const Row& row, const UserAgentInfo& info) {
  std::cout << what << "\t" << sightline::detection::DeviceTypeName(info.device) << "|"
            << info.browser << "|" << info.os << "|" << info.bot_name << "|" << info.model << "\t"
            << (row.device_accept.empty() ? "-" : row.device_accept.front()) << "|" << row.browser
            << "|" << row.os << "\t" << row.ua << "\n";
}

double BestParsesPerSecond(const std::vector<Row>& humans, const std::vector<Row>& bots) {
  double best = 0;
  for (int round = 0; round < 3; ++round) {
    std::size_t sink = 0;
    const auto start = std::chrono::steady_clock::now();
    for (const auto* rows : {&humans, &bots}) {
      for (const Row& row : *rows) sink += ParseUserAgent(row.ua, row.hints).browser.size();
    }
    const std::chrono::duration<double> seconds = std::chrono::steady_clock::now() - start;
    volatile std::size_t observed = sink;  // keeps the parses from being optimised away
    (void)observed;
    best = std::max(best, static_cast<double>(humans.size() + bots.size()) / seconds.count());
  }
  return best;
}

struct Scores {
  Tally recall, false_positive, device, browser, os;
  // The bot catalog (detection/bot_catalog.h) next to the UA rules.
  Tally catalog_recall, combined_recall, catalog_name, catalog_category, catalog_fp;
  std::map<std::string, Tally> category_rows;  // by expected_category, scored rows only
  std::map<std::string, Tally> category_sources;  // by where the label came from
};

// Catalog figures for one bot row: recall (catalog alone, and catalog OR the UA rules), name
// agreement over every row the catalog names, category agreement where category_accept is set.
void ScoreCatalogBot(const Row& row, bool rules_say_bot, const std::string& misses,
                     Scores& scores) {
  const sightline::detection::BotEntry* entry =
      sightline::detection::BotCatalog::Builtin().Match(row.ua);
  scores.catalog_recall.Add(entry != nullptr);
  scores.combined_recall.Add(entry != nullptr || rules_say_bot);
  if (misses == "catalog" && entry == nullptr) std::cout << "catalog\t" << row.ua << "\n";
  if (misses == "combined" && entry == nullptr && !rules_say_bot) {
    std::cout << "combined\t" << row.ua << "\n";
  }
  if (entry == nullptr) return;
  const bool name_ok = std::ranges::find(row.names, Lower(entry->name)) != row.names.end();
  scores.catalog_name.Add(name_ok);
  if (misses == "name" && !name_ok) {
    std::cout << "name\t" << entry->name << "\t" << (row.names.empty() ? "" : row.names[0])
              << "\t" << row.ua << "\n";
  }
  if (row.category_accept.empty()) return;
  const bool ok = std::ranges::find(row.category_accept, entry->category) !=
                  row.category_accept.end();
  scores.catalog_category.Add(ok);
  scores.category_rows[row.expected_category].Add(ok);
  scores.category_sources[row.category_source].Add(ok);
  if (misses == "category" && !ok) {
    std::cout << "category\t" << entry->name << "\t" << entry->category << "\t"
              << row.expected_category << "\t" << row.ua << "\n";
  }
}

// Catalog-only matches per second over the whole corpus (uncached, single thread, best of 3).
double BestCatalogMatchesPerSecond(const std::vector<Row>& humans, const std::vector<Row>& bots) {
  const auto& catalog = sightline::detection::BotCatalog::Builtin();
  double best = 0;
  for (int round = 0; round < 3; ++round) {
    std::size_t sink = 0;
    const auto start = std::chrono::steady_clock::now();
    for (const auto* rows : {&humans, &bots}) {
      for (const Row& row : *rows) sink += catalog.Match(row.ua) != nullptr;
    }
    const std::chrono::duration<double> seconds = std::chrono::steady_clock::now() - start;
    volatile std::size_t observed = sink;
    (void)observed;
    best = std::max(best, static_cast<double>(humans.size() + bots.size()) / seconds.count());
  }
  return best;
}

// Full classifications (parse + catalog) through the cache once warm: the corpus is classified
// once to fill it, then timed. Rows with client hints bypass the cache, as in production.
double BestCachedPerSecond(const std::vector<Row>& humans, const std::vector<Row>& bots) {
  sightline::detection::UserAgentCache cache(sightline::detection::BotCatalog::Builtin(), 1 << 20);
  double best = 0;
  for (int round = 0; round < 4; ++round) {
    std::size_t sink = 0;
    const auto start = std::chrono::steady_clock::now();
    for (const auto* rows : {&humans, &bots}) {
      for (const Row& row : *rows) sink += cache.Classify(row.ua, row.hints).info.is_bot;
    }
    const std::chrono::duration<double> seconds = std::chrono::steady_clock::now() - start;
    volatile std::size_t observed = sink;
    (void)observed;
    if (round > 0) {  // round 0 fills the cache
      best = std::max(best, static_cast<double>(humans.size() + bots.size()) / seconds.count());
    }
  }
  return best;
}

void ScoreBots(const std::vector<Row>& bots, const std::string& misses, Scores& scores) {
  for (const Row& row : bots) {
    const UserAgentInfo info = ParseUserAgent(row.ua, row.hints);
    scores.recall.Add(info.is_bot);
    if (misses == "recall" && !info.is_bot) PrintMiss("recall", row, info);
    ScoreCatalogBot(row, info.is_bot, misses, scores);
  }
}

void ScoreHuman(const Row& row, const std::string& misses, Scores& scores) {
  const UserAgentInfo info = ParseUserAgent(row.ua, row.hints);
  if (!row.label_conflict) scores.false_positive.Add(info.is_bot);
  const sightline::detection::BotEntry* entry =
      sightline::detection::BotCatalog::Builtin().Match(row.ua);
  if (!row.label_conflict) scores.catalog_fp.Add(entry != nullptr || info.is_bot);
  if (misses == "catalog_fp" && !row.label_conflict && entry != nullptr) {
    std::cout << "catalog_fp\t" << entry->name << "\t" << row.ua << "\n";
  }
  if (misses == "fp" && !row.label_conflict && info.is_bot) PrintMiss("fp", row, info);
  if (!row.device_accept.empty()) {
    const std::string ours(sightline::detection::DeviceTypeName(info.device));
    const bool ok = std::ranges::find(row.device_accept, ours) != row.device_accept.end();
    scores.device.Add(ok);
    if (misses == "device" && !ok) PrintMiss("device", row, info);
  }
  if (!row.browser.empty()) {
    const bool ok = Agrees(info.browser, row.browser, row.browser_family);
    scores.browser.Add(ok);
    if (misses == "browser" && !ok) PrintMiss("browser", row, info);
  }
  if (!row.os.empty()) {
    const bool ok = Agrees(info.os, row.os, row.os_family);
    scores.os.Add(ok);
    if (misses == "os" && !ok) PrintMiss("os", row, info);
  }
}

void PrintFigure(const char* label, const Tally& tally, const char* unit = "") {
  std::printf("%-22s %7.3f%%  (%ld / %ld%s)\n", label, tally.Percent(), tally.hit, tally.total,
              unit);
}

}  // namespace

int main(int argc, char** argv) {
  std::string dir = std::string(SIGHTLINE_SOURCE_DIR) + "/../shared/corpus/ua";
  std::string misses;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.starts_with("--misses=")) {
      misses = arg.substr(9);
    } else {
      dir = arg;
    }
  }
  const std::vector<Row> humans = ReadCorpus(dir + "/humans.dev.jsonl");
  const std::vector<Row> bots = ReadCorpus(dir + "/bots.dev.jsonl");
  Scores scores;
  ScoreBots(bots, misses, scores);
  for (const Row& row : humans) ScoreHuman(row, misses, scores);

  std::printf("corpus: %zu humans, %zu bots (%s)\n", humans.size(), bots.size(), dir.c_str());
  PrintFigure("bot recall:", scores.recall);
  PrintFigure("false positives:", scores.false_positive, " humans");
  PrintFigure("device accuracy:", scores.device);
  PrintFigure("browser agreement:", scores.browser);
  PrintFigure("OS agreement:", scores.os);
  std::printf("%-22s %.0f  (single thread, uncached, best of 3)\n",
              "parses per second:", BestParsesPerSecond(humans, bots));
  std::printf("-- bot catalog (%zu entries)\n",
              sightline::detection::BotCatalog::Builtin().entries().size());
  PrintFigure("catalog recall:", scores.catalog_recall);
  PrintFigure("catalog|rules recall:", scores.combined_recall);
  PrintFigure("catalog|rules FP:", scores.catalog_fp, " humans");
  PrintFigure("catalog name:", scores.catalog_name, " catalog matches");
  PrintFigure("catalog category:", scores.catalog_category, " scored matches");
  for (const auto& [category, tally] : scores.category_rows) {
    PrintFigure(("  " + category + ":").c_str(), tally);
  }
  // The labels' sources disagree with each other: crawler-user-agents tags put webhooks and
  // uptime checkers under "seo", Matomo files every Google fetcher under "Search bot".
  for (const auto& [source, tally] : scores.category_sources) {
    PrintFigure(("  labels from " + source + ":").c_str(), tally);
  }
  std::printf("%-22s %.0f  (single thread, uncached, best of 3)\n",
              "catalog matches/s:", BestCatalogMatchesPerSecond(humans, bots));
  std::printf("%-22s %.0f  (single thread, warm cache, parse + catalog, best of 3)\n",
              "cached classify/s:", BestCachedPerSecond(humans, bots));
  return 0;
}
