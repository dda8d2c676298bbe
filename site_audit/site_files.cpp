#include "site_audit/site_files.h"

#include <set>

#include "site_audit/crawl_url.h"
#include "site_audit/page_fetcher.h"
#include "site_audit/sitemap.h"
#include "core/clock.h"
#include "core/compression.h"
#include "core/http_types.h"
#include "storage/site_audit_repository.h"
#include "storage/store.h"

namespace sightline::site_audit {
namespace {

constexpr std::int64_t kRobotsCacheMillis = 24LL * 60 * 60 * 1000;
constexpr int kMaxRobotsRedirects = 5;
constexpr std::size_t kRobotsBytes = 512000;

// Applies RFC 9309 §2.3.1's outcomes to the last answer.
void DecidePolicy(RobotsFetch& robots) {
  if (robots.status >= 200 && robots.status < 300) {
    robots.policy = "rules";
    robots.rules = RobotsTxt::Parse(robots.body);
  } else if ((robots.status >= 400 && robots.status < 500) ||
             (robots.status >= 300 && robots.status < 400)) {
    robots.policy = "allow_all";  // 4xx, or more redirects than RFC 9309 asks a crawler to follow
    robots.rules = RobotsTxt::AllowAll();
  } else {
    robots.policy = "disallow_all";  // 5xx or unreachable
    robots.rules = RobotsTxt::DisallowAll();
  }
}

void FetchRobotsNow(const PageFetcher& fetcher, RobotsFetch& robots, const Cancelled& cancelled) {
  std::string url = robots.url;
  for (;;) {
    FetchRequest request{.url = url};
    FetchResult answer = fetcher.Fetch(request, cancelled);
    robots.status = answer.status;
    robots.error = answer.error;
    robots.body = answer.body.substr(0, kRobotsBytes);
    const auto location = answer.headers.Get("Location");
    if (answer.status < 300 || answer.status >= 400 || !location) return;
    if (robots.redirects == kMaxRobotsRedirects) return;
    auto next = ResolveUrl(url, *location);
    if (!next) return;
    ++robots.redirects;
    url = *next;
  }
}

bool IsGzipName(std::string_view url) {
  return url.size() > 3 && url.substr(url.size() - 3) == ".gz";
}

struct SitemapBody {
  int status = 0;
  std::string body;
  std::vector<std::string> problems;
};

SitemapBody FetchSitemapBody(const PageFetcher& fetcher, const std::string& url,
                             const Cancelled& cancelled) {
  SitemapBody out;
  FetchResult answer =
      fetcher.Fetch(FetchRequest{.url = url, .max_bytes = kSitemapMaxBytes}, cancelled);
  out.status = answer.status;
  if (answer.status == 0) out.problems.push_back("unreachable: " + answer.error);
  if (answer.truncated) out.problems.push_back("larger than 50 MB: the rest was ignored");
  if (LooksGzipped(answer.body)) {
    auto inflated = core::Gunzip(answer.body, kSitemapMaxBytes);
    if (!inflated) {
      out.problems.push_back("gzip: " + inflated.error().message());
      return out;
    }
    out.body = std::move(*inflated);
  } else {
    if (IsGzipName(url)) out.problems.push_back("named .gz but not gzip-compressed");
    out.body = std::move(answer.body);
  }
  return out;
}

std::string KindName(SitemapParse::Kind kind) {
  switch (kind) {
    case SitemapParse::Kind::kUrlSet: return "urlset";
    case SitemapParse::Kind::kIndex: return "index";
    case SitemapParse::Kind::kText: return "text";
    case SitemapParse::Kind::kInvalid: return "invalid";
  }
  return "invalid";
}

class SitemapWalk {
 public:
  SitemapWalk(const PageFetcher& fetcher, std::string_view origin, const Cancelled& cancelled)
      : fetcher_(fetcher), origin_(origin), cancelled_(cancelled) {}

  void Visit(const std::string& url, bool listed, int level) {
    if (!seen_files_.insert(url).second || harvest_.files.size() >= kMaxSitemapFiles) return;
    if (cancelled_ && cancelled_()) return;
    SitemapFile file{.url = url, .listed_in_robots = listed};
    SitemapBody body = FetchSitemapBody(fetcher_, url, cancelled_);
    file.status = body.status;
    file.problems = std::move(body.problems);
    if (body.status < 200 || body.status >= 300) {
      file.kind = body.status == 0 ? "unreachable" : "invalid";
      harvest_.files.push_back(std::move(file));
      return;
    }
    SitemapParse parse = ParseSitemap(body.body);
    file.kind = KindName(parse.kind);
    file.urls = static_cast<std::int64_t>(parse.locations.size());
    file.problems.insert(file.problems.end(), parse.problems.begin(), parse.problems.end());
    harvest_.files.push_back(file);
    for (const std::string& location : parse.locations) {
      auto absolute = ResolveUrl(url, location);
      if (!absolute) continue;
      if (parse.kind == SitemapParse::Kind::kIndex) {
        if (level == 0) Visit(*absolute, listed, level + 1);
      } else {
        AddPage(*absolute);
      }
    }
  }

  SitemapHarvest Take() { return std::move(harvest_); }

 private:
  void AddPage(const std::string& url) {
    if (!SameSite(url, origin_ + "/")) return;
    if (harvest_.page_urls.size() >= kMaxSitemapPageUrls) {
      harvest_.truncated = true;
      return;
    }
    if (seen_pages_.insert(url).second) harvest_.page_urls.push_back(url);
  }

  const PageFetcher& fetcher_;
  std::string origin_;
  const Cancelled& cancelled_;
  SitemapHarvest harvest_;
  std::set<std::string> seen_files_, seen_pages_;
};

}  // namespace

RobotsFetch LoadRobots(const PageFetcher& fetcher, storage::Store& store, const core::Clock& clock,
                       std::string_view origin, const Cancelled& cancelled) {
  RobotsFetch robots;
  robots.url = std::string(origin) + "/robots.txt";
  const std::int64_t now = clock.NowMillis();
  auto cached = store.Read([&](storage::Transaction& tx) {
    return tx.site_audit().FindRobotsCache(origin);
  });
  // Only answers are kept: a 5xx or an unreachable host is asked again by the next crawl, so an
  // owner who mends robots.txt does not wait a day (a crawl keeps its own copy while it runs).
  const bool usable = cached && *cached && now - (*cached)->fetched_at < kRobotsCacheMillis &&
                      (*cached)->http_status > 0 && (*cached)->http_status < 500;
  if (usable) {
    robots.status = static_cast<int>((*cached)->http_status);
    robots.body = (*cached)->body;
    robots.fetched_at = (*cached)->fetched_at;
    robots.from_cache = true;
  } else {
    FetchRobotsNow(fetcher, robots, cancelled);
    robots.fetched_at = now;
    // A failure to cache only costs a fetch next time.
    (void)store.WriteOne([&](storage::Transaction& tx) {
      return tx.site_audit().SaveRobotsCache(
          {std::string(origin), now, robots.status, robots.body});
    });
  }
  DecidePolicy(robots);
  return robots;
}

SitemapHarvest LoadSitemaps(const PageFetcher& fetcher, const RobotsFetch& robots,
                            std::string_view origin, const Cancelled& cancelled) {
  SitemapWalk walk(fetcher, origin, cancelled);
  for (const std::string& listed : robots.rules.sitemaps()) {
    if (auto url = NormalizeUrl(listed)) walk.Visit(*url, true, 0);
  }
  for (std::string_view usual : {"/sitemap.xml", "/sitemap_index.xml"}) {
    const std::string url = std::string(origin) + std::string(usual);
    if (robots.rules.IsAllowed(kAuditBotToken, usual)) walk.Visit(url, false, 0);
  }
  SitemapHarvest harvest = walk.Take();
  // A usual place that is simply absent is not a finding.
  std::erase_if(harvest.files,
                [](const SitemapFile& f) { return !f.listed_in_robots && f.status == 404; });
  return harvest;
}

LlmsTxtFetch LoadLlmsTxt(const PageFetcher& fetcher, std::string_view origin,
                         const Cancelled& cancelled) {
  LlmsTxtFetch llms;
  llms.url = std::string(origin) + "/llms.txt";
  FetchResult answer = fetcher.Fetch(FetchRequest{.url = llms.url}, cancelled);
  llms.status = answer.status;
  const std::string type(core::MediaTypeOf(answer.headers.Get("Content-Type").value_or("")));
  llms.present = answer.status >= 200 && answer.status < 300 && type != "text/html";
  if (llms.present) llms.report = CheckLlmsTxt(answer.body);
  return llms;
}

}  // namespace sightline::site_audit
