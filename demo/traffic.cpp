#include "demo/traffic.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "core/crypto.h"
#include "demo/sample_site.h"
#include "detection/bot_catalog.h"
#include "ingest/enrichment.h"
#include "ingest/event_writer.h"
#include "ingest/tracked_event.h"

namespace sightline::demo {
namespace {

namespace json = boost::json;
using Rng = std::mt19937_64;
constexpr std::int64_t kDayMs = 86'400'000;
constexpr std::int64_t kMinuteMs = 60'000;

template <class T>
struct Weighted {
  T value;
  double weight;
};

template <class T>
const T& Pick(Rng& rng, const std::vector<Weighted<T>>& choices) {
  double total = 0;
  for (const auto& c : choices) total += c.weight;
  double at = std::uniform_real_distribution<double>(0, total)(rng);
  for (const auto& c : choices) {
    if ((at -= c.weight) < 0) return c.value;
  }
  return choices.back().value;
}

double Uniform(Rng& rng) { return std::uniform_real_distribution<double>(0, 1)(rng); }

// Where a visit came from: the referrer the browser sent and the landing page's campaign.
struct Source {
  std::string referrer;
  std::string campaign;  // "?utm_…" appended to the landing URL
  std::string landing;   // "" for any page; else the section it lands in
};

const std::vector<Weighted<Source>>& Sources() {
  static const std::vector<Weighted<Source>> sources = {
      {{"https://www.google.com/", "", ""}, 36},
      {{"", "", "/"}, 22},
      {{"https://www.bing.com/", "", ""}, 5},
      {{"https://duckduckgo.com/", "", "blog"}, 3},
      {{"https://chatgpt.com/", "", "products"}, 5},
      {{"", "?utm_source=chatgpt.com", "products"}, 2},
      {{"https://www.perplexity.ai/", "", "products"}, 3},
      {{"https://claude.ai/", "", "blog"}, 1},
      {{"https://gemini.google.com/", "", "products"}, 1},
      {{"", "?utm_source=newsletter&utm_medium=email&utm_campaign=autumn-sale", "products"}, 5},
      {{"https://t.co/", "", "blog"}, 3},
      {{"https://www.linkedin.com/", "", "company"}, 2},
      {{"https://www.reddit.com/r/Ultralight/", "", "blog"}, 3},
      {{"https://www.youtube.com/", "", "products"}, 2},
      {{"https://trailrunnermag.example/reviews/", "", "products"}, 2},
      {{"https://www.facebook.com/", "?utm_source=facebook&utm_medium=paid-social&utm_campaign=winter-shells", "products"}, 3},
  };
  return sources;
}

struct Place {
  std::string country, region, city;
};

const std::vector<Weighted<Place>>& Places() {
  static const std::vector<Weighted<Place>> places = {
      {{"US", "California", "San Francisco"}, 9}, {{"US", "New York", "New York"}, 8},
      {{"US", "Texas", "Austin"}, 5},             {{"US", "Colorado", "Denver"}, 6},
      {{"US", "Washington", "Seattle"}, 5},       {{"DE", "Bavaria", "Munich"}, 6},
      {{"DE", "Berlin", "Berlin"}, 5},            {{"GB", "England", "London"}, 7},
      {{"GB", "Scotland", "Edinburgh"}, 2},       {{"FR", "Île-de-France", "Paris"}, 5},
      {{"CA", "British Columbia", "Vancouver"}, 4}, {{"IN", "Karnataka", "Bengaluru"}, 5},
      {{"NL", "North Holland", "Amsterdam"}, 3},  {{"CH", "Zurich", "Zurich"}, 3},
      {{"AT", "Tyrol", "Innsbruck"}, 2},          {{"JP", "Tokyo", "Tokyo"}, 3},
      {{"AU", "New South Wales", "Sydney"}, 3},   {{"BR", "São Paulo", "São Paulo"}, 2},
      {{"NZ", "Canterbury", "Christchurch"}, 1},  {{"SE", "Stockholm", "Stockholm"}, 2},
      {{"NO", "Oslo", "Oslo"}, 1},                {{"ES", "Catalonia", "Barcelona"}, 2},
  };
  return places;
}

const std::vector<Weighted<std::string>>& Browsers() {
  static const std::vector<Weighted<std::string>> agents = {
      {"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) "
       "Chrome/131.0.0.0 Safari/537.36", 22},
      {"Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) "
       "Version/18.1 Safari/605.1.15", 12},
      {"Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) "
       "Chrome/131.0.0.0 Safari/537.36", 10},
      {"Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:132.0) Gecko/20100101 Firefox/132.0", 5},
      {"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) "
       "Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0", 5},
      {"Mozilla/5.0 (X11; Linux x86_64; rv:132.0) Gecko/20100101 Firefox/132.0", 2},
      {"Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like "
       "Gecko) Version/18.1 Mobile/15E148 Safari/604.1", 20},
      {"Mozilla/5.0 (Linux; Android 14; SM-S921B) AppleWebKit/537.36 (KHTML, like Gecko) "
       "Chrome/131.0.0.0 Mobile Safari/537.36", 9},
      {"Mozilla/5.0 (Linux; Android 15; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
       "Chrome/131.0.0.0 Mobile Safari/537.36", 7},
      {"Mozilla/5.0 (iPad; CPU OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
       "Version/18.1 Mobile/15E148 Safari/604.1", 4},
  };
  return agents;
}

// A UTC hour's share of a day's visits: quiet nights, busy evenings (Europe and the Americas).
double HourWeight(int hour) {
  static const double kWeights[24] = {3, 2, 2, 1.5, 1.5, 2, 3, 4, 5, 6, 6, 6,
                                      6, 7, 8, 9, 9, 9, 9, 8, 7, 6, 5, 4};
  return kWeights[hour];
}

std::string HexId(Rng& rng) {
  // UUID-shaped, from the seed, so a re-generated demo is the same demo.
  static const char* kHex = "0123456789abcdef";
  std::string out;
  for (int i = 0; i < 32; ++i) {
    if (i == 8 || i == 12 || i == 16 || i == 20) out.push_back('-');
    out.push_back(i == 12 ? '4' : kHex[rng() % 16]);
  }
  return out;
}

std::vector<const SamplePage*> PagesOf(std::string_view section) {
  std::vector<const SamplePage*> out;
  for (const SamplePage& page : SamplePages()) {
    if (!page.noindex && (section.empty() || page.section == section || page.path == section)) {
      out.push_back(&page);
    }
  }
  return out;
}

const SamplePage& AnyOf(Rng& rng, const std::vector<const SamplePage*>& pages) {
  // Skewed: the first pages of a section take most visits, as real sites' do.
  const double u = Uniform(rng);
  return *pages[static_cast<std::size_t>(u * u * static_cast<double>(pages.size()))];
}

std::string Url(const std::string& path) { return std::string(kSampleOrigin) + path; }

// The events of one visit, in time order, as the browser SDK sends them.
class VisitWriter {
 public:
  // Events after `end` (now) are not sent: a visit that has just begun is still going on.
  VisitWriter(const storage::ProjectRecord& project, std::int64_t end,
              std::vector<storage::EventRecord>& out)
      : project_(project), end_(end), out_(out) {}

  void Add(std::string name, std::string channel, std::int64_t at, json::object tags) {
    if (at > end_) return;
    ingest::TrackedEvent event;
    event.event = std::move(name);
    event.channel = std::move(channel);
    event.anonymous_id = visitor;
    event.timestamp_ms = at;
    tags["$url"] = page_url;
    if (!referrer.empty()) tags["$referrer"] = referrer;
    event.tags = std::move(tags);
    ingest::RequestSignals signals;
    signals.user_agent = user_agent;
    signals.location = detection::GeoLocation{place.country, place.region, place.city};
    out_.push_back(ingest::Enrich(event, signals, project_, at, nullptr));
  }

  std::string visitor, user_agent, page_url, referrer;
  Place place;

 private:
  const storage::ProjectRecord& project_;
  const std::int64_t end_;
  std::vector<storage::EventRecord>& out_;
};

struct Generator {
  const storage::ProjectRecord& project;
  std::int64_t end;  // now: nothing is sent after it
  Rng rng;
  std::vector<std::pair<std::string, std::string>> returning;  // visitor id, User-Agent
  std::vector<storage::EventRecord> events;
  TrafficCounts counts;

  void Visit(std::int64_t start, const Source& source, const Place& place) {
    VisitWriter visit(project, end, events);
    if (!returning.empty() && Uniform(rng) < 0.28) {
      const auto& [id, agent] = returning[rng() % returning.size()];
      visit.visitor = id;
      visit.user_agent = agent;
    } else {
      visit.visitor = HexId(rng);
      visit.user_agent = Pick(rng, Browsers());
      returning.emplace_back(visit.visitor, visit.user_agent);
    }
    visit.place = place;
    const SamplePage* page = &AnyOf(rng, PagesOf(source.landing));
    visit.page_url = Url(page->path) + source.campaign;
    visit.referrer = source.referrer;
    std::int64_t at = start;
    visit.Add("session_start", "sessions", at, {});
    const int pages = 1 + static_cast<int>(std::min(7.0, std::floor(-std::log(Uniform(rng) + 1e-9) / 0.75)));
    for (int i = 0; i < pages; ++i) {
      visit.Add("screen_view", "pageviews", at, {});
      Engage(visit, *page, at);
      at += (15 + static_cast<std::int64_t>(rng() % 150)) * 1000;
      if (i + 1 == pages) break;
      visit.referrer = visit.page_url;
      page = &AnyOf(rng, PagesOf(Uniform(rng) < 0.5 ? std::string_view(page->section) : ""));
      visit.page_url = Url(page->path);
    }
    ++counts.visits;
  }

  // Scrolling, and the shop's own events: carts, orders and newsletter sign-ups.
  void Engage(VisitWriter& visit, const SamplePage& page, std::int64_t at) {
    if (Uniform(rng) < 0.45) {
      static const int kDepths[] = {25, 50, 75, 100};
      visit.Add("scroll_depth", "engagement", at + 8000, {{"depth", kDepths[rng() % 4]}});
    }
    const std::string product = page.path.substr(page.path.rfind('/') + 1);
    if (page.product && Uniform(rng) < 0.14) {
      visit.Add("add_to_cart", "shop", at + 20000, {{"product", product}});
      if (Uniform(rng) < 0.38) {
        const std::string saved = visit.page_url;
        visit.page_url = Url("/checkout");
        visit.Add("order_completed", "shop", at + 90000,
                  {{"product", product}, {"value", 60 + static_cast<int>(rng() % 240)},
                   {"currency", "USD"}});
        visit.page_url = saved;
      }
    }
    if (page.section == "blog" && Uniform(rng) < 0.05) {
      visit.Add("newsletter_signup", "marketing", at + 30000, {{"form", "article-footer"}});
    }
  }

  void Day(std::int64_t day_start, double visits, std::int64_t end) {
    std::vector<Weighted<int>> hours;
    for (int h = 0; h < 24; ++h) hours.push_back({h, HourWeight(h)});
    const auto count = static_cast<int>(visits);
    for (int i = 0; i < count; ++i) {
      const std::int64_t start = day_start + Pick(rng, hours) * 3'600'000LL +
                                 static_cast<std::int64_t>(rng() % 3'600'000);
      if (start >= end) continue;
      Visit(start, Pick(rng, Sources()), Pick(rng, Places()));
    }
  }

  // A post reaching Hacker News' front page: a few hours of visits to one article.
  void Spike(std::int64_t start, int visits) {
    const Source hn{"https://news.ycombinator.com/", "", "/blog/best-trail-running-shoes"};
    for (int i = 0; i < visits; ++i) {
      const auto offset = static_cast<std::int64_t>(std::pow(Uniform(rng), 2) * 6 * 3'600'000);
      Visit(start + offset, hn, Pick(rng, Places()));
    }
  }
};

// A crawler as the demo's requests show it: its User-Agent (named by the catalog), how often it
// comes, and how many of its requests come from addresses that are not its vendor's.
struct Crawler {
  std::string user_agent;
  double per_day;
  double spoofed;            // share claiming the name from someone else's address
  bool obeys_robots = true;  // false: fetches what robots.txt forbids it (strangers never obey)
};

const std::vector<Crawler>& Crawlers() {
  static const std::vector<Crawler> crawlers = {
      {"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Googlebot/2.1; "
       "+http://www.google.com/bot.html) Chrome/131.0.0.0 Safari/537.36", 150, 0.04},
      {"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; bingbot/2.0; "
       "+http://www.bing.com/bingbot.htm) Chrome/131.0.0.0 Safari/537.36", 55, 0},
      {"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; "
       "+https://openai.com/gptbot)", 30, 0.7},
      {"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; OAI-SearchBot/1.0; "
       "+https://openai.com/searchbot", 28, 0},
      {"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; "
       "+https://openai.com/bot", 35, 0},
      {"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; "
       "+claudebot@anthropic.com)", 45, 0},
      {"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; PerplexityBot/1.0; "
       "+https://perplexity.ai/perplexitybot)", 22, 0.1},
      {"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Perplexity-User/1.0; "
       "+https://perplexity.ai/perplexity-user)", 12, 0},
      {"Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) "
       "Version/17.4 Safari/605.1.15 (Applebot/0.1; +http://www.apple.com/go/applebot)", 18, 0},
      {"CCBot/2.0 (https://commoncrawl.org/faq/)", 4, 0},
      {"Mozilla/5.0 (Linux; Android 5.0) AppleWebKit/537.36 (KHTML, like Gecko) Mobile "
       "Safari/537.36 (compatible; Bytespider; spider-feedback@bytedance.com)", 25, 0, false},
      {"Mozilla/5.0 (compatible; Amazonbot/0.1; +https://developer.amazon.com/support/amazonbot) "
       "Chrome/119.0.6045.214 Safari/537.36", 12, 0},
      {"python-requests/2.32.3", 15, 0, false},
      {"Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) "
       "HeadlessChrome/131.0.0.0 Safari/537.36", 10, 0, false},
  };
  return crawlers;
}

bool Disallowed(const std::string& path, const detection::BotEntry* bot) {
  for (const std::string& prefix : SampleDisallowedPaths()) {
    if (path.rfind(prefix, 0) == 0) return true;
  }
  if (bot == nullptr) return false;
  const auto& blocked = SampleBlockedCrawlers();
  return std::find(blocked.begin(), blocked.end(), bot->name) != blocked.end() &&
         path != "/robots.txt";
}

std::string CrawledPath(Rng& rng, bool obeys_robots, const detection::BotEntry* bot) {
  static const std::vector<std::string> kFiles = {"/robots.txt", "/sitemap.xml", "/llms.txt"};
  static const std::vector<std::string> kForbidden = {"/cart", "/checkout", "/search?q=tent"};
  for (int attempt = 0; attempt < 8; ++attempt) {
    const double u = Uniform(rng);
    std::string path = u < 0.12   ? kFiles[rng() % kFiles.size()]
                       : u < 0.16 ? kForbidden[rng() % kForbidden.size()]
                                  : AnyOf(rng, PagesOf("")).path;
    if (!obeys_robots || !Disallowed(path, bot)) return path;
  }
  return "/robots.txt";
}

storage::BotRequestRecord BotRequest(Rng& rng, const storage::ProjectRecord& project,
                                     const Crawler& crawler, std::int64_t at) {
  const detection::BotEntry* bot = detection::BotCatalog::Builtin().Match(crawler.user_agent);
  storage::BotRequestRecord row;
  row.id = core::NewUuidV7(at);
  row.project_id = project.id;
  row.occurred_at = row.received_at = at;
  row.user_agent = crawler.user_agent;
  row.method = "GET";
  row.host = std::string(kSampleHost);
  row.actor_type = "suspected_bot";
  row.actor_confidence = 0.60;
  row.country = Uniform(rng) < 0.8 ? "US" : "IE";
  if (bot == nullptr) {
    row.bot_name = crawler.user_agent.substr(0, crawler.user_agent.find('/'));
    row.actor_category = "automation";
    row.path = CrawledPath(rng, crawler.obeys_robots, bot);
    return row;
  }
  row.bot_name = bot->name;
  row.bot_vendor = bot->vendor;
  row.actor_category = bot->category;
  row.is_ai = bot->is_ai;
  if (!bot->Verifiable()) {
    row.path = CrawledPath(rng, crawler.obeys_robots, bot);
    return row;
  }
  // The verdict the classifier gives: the vendor's published ranges or host names confirm the
  // address, or refute a stranger's.
  if (Uniform(rng) < crawler.spoofed) {
    row.actor_type = "spoofed_bot";
    row.actor_confidence = 0.95;
    row.country = Pick(rng, Places()).country;
    // A stranger under a polite crawler's name reads neither robots.txt nor keeps to it.
    row.path = CrawledPath(rng, false, bot);
    if (row.path == "/robots.txt") row.path = AnyOf(rng, PagesOf("")).path;
    return row;
  }
  row.actor_type = "verified_bot";
  row.actor_verified = true;
  row.path = CrawledPath(rng, crawler.obeys_robots, bot);
  row.verification_method = bot->ip_ranges.empty() ? "reverse_dns" : "cidr";
  row.actor_confidence = bot->ip_ranges.empty() ? 0.98 : 0.99;
  return row;
}

std::vector<storage::BotRequestRecord> CrawlerDay(Rng& rng, const storage::ProjectRecord& project,
                                                  std::int64_t day_start, double growth,
                                                  std::int64_t end) {
  std::vector<storage::BotRequestRecord> out;
  for (const Crawler& crawler : Crawlers()) {
    const double mean = crawler.per_day * (crawler.per_day < 40 ? growth * growth : growth);
    const auto count = std::poisson_distribution<int>(mean)(rng);
    for (int i = 0; i < count; ++i) {
      const std::int64_t at = day_start + static_cast<std::int64_t>(rng() % kDayMs);
      if (at < end) out.push_back(BotRequest(rng, project, crawler, at));
    }
  }
  return out;
}

// Hands rows to the writer, waiting while its queue is full, and keeps the first failure.
class Committer {
 public:
  static constexpr std::size_t kMaxQueued = ingest::WriterOptions{}.max_queued_rows;

  explicit Committer(storage::Store& store) : writer_(store, {}) {}

  core::Result<void> Submit(ingest::IngestBatch batch) {
    while (true) {
      {
        std::lock_guard lock(mutex_);
        if (failure_) return *failure_;
      }
      auto done = [this](core::Result<void> committed) {
        std::lock_guard lock(mutex_);
        if (!committed && !failure_) failure_ = committed.error();
      };
      // Submit takes the batch even when it refuses it: wait for room first.
      if (writer_.queued_rows() + batch.RowCount() <= kMaxQueued || writer_.queued_rows() == 0) {
        if (writer_.Submit(std::move(batch), done)) return {};
        return core::Error(core::ErrorCode::kUnavailable, "The event writer refused a batch.");
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  }

  core::Result<void> Finish() {
    writer_.Stop();
    std::lock_guard lock(mutex_);
    if (failure_) return *failure_;
    return {};
  }

 private:
  ingest::EventWriter writer_;
  std::mutex mutex_;
  std::optional<core::Error> failure_;
};

}  // namespace

core::Result<TrafficCounts> GenerateTraffic(storage::Store& store,
                                            const storage::ProjectRecord& project,
                                            const TrafficPlan& plan) {
  Generator generator{project, plan.end_ms, Rng(plan.seed), {}, {}, {}};
  Committer committer(store);
  const std::int64_t first_day = (plan.end_ms / kDayMs - plan.days + 1) * kDayMs;
  for (int d = 0; d < plan.days; ++d) {
    const std::int64_t day_start = first_day + d * kDayMs;
    const double growth = 1.0 + 0.4 * d / std::max(1, plan.days - 1);
    // 1970-01-01 was a Thursday: days 2 and 3 of the week (from Thursday) are the weekend.
    const bool weekend = (day_start / kDayMs) % 7 == 2 || (day_start / kDayMs) % 7 == 3;
    generator.Day(day_start, plan.visits_per_day * growth * (weekend ? 0.62 : 1.0), plan.end_ms);
    if (d == plan.days - 18) generator.Spike(day_start + 14 * 3'600'000LL, 900);
    ingest::IngestBatch batch;
    batch.bot_requests = CrawlerDay(generator.rng, project, day_start, growth, plan.end_ms);
    batch.events = std::move(generator.events);
    generator.events.clear();
    generator.counts.events += static_cast<std::int64_t>(batch.events.size());
    generator.counts.bot_requests += static_cast<std::int64_t>(batch.bot_requests.size());
    if (auto submitted = committer.Submit(std::move(batch)); !submitted) return submitted.error();
  }
  if (auto finished = committer.Finish(); !finished) return finished.error();
  return generator.counts;
}

}  // namespace sightline::demo
