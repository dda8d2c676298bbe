#include "detection/ua_bots.h"

#include <array>

namespace sightline::detection::ua {
namespace {

struct LibraryRule {
  std::string_view product;  // lower-case product name, matched exactly
  bool anywhere;             // false: only when the UA starts with it (the client's own name)
};

// HTTP libraries, command-line clients and browser-automation tools. Generic runtimes
// ("Java/", "okhttp/", "Python/") count only as the leading product: Android apps append
// okhttp, and a human's app may mention its runtime after its own name.
constexpr std::array kLibraryRules = std::to_array<LibraryRule>({
    {"headlesschrome", true},
    {"phantomjs", true},
    {"puppeteer", true},
    {"playwright", true},
    {"selenium", true},
    {"scrapy", true},
    {"python-requests", true},
    {"python-urllib", true},
    {"python-httpx", true},
    {"aiohttp", true},
    {"httpx", true},
    {"go-http-client", true},
    {"node-fetch", true},
    {"undici", true},
    {"axios", true},
    {"libwww-perl", true},
    {"lwp-trivial", true},
    {"curl", true},
    {"wget", true},
    {"apache-httpclient", true},
    {"guzzlehttp", true},
    {"postmanruntime", true},
    {"restsharp", true},
    {"http_request2", true},
    {"commons-httpclient", true},
    {"httrack", true},
    {"heritrix", true},
    {"zgrab", true},
    {"masscan", true},
    {"nikto", true},
    {"sqlmap", true},
    {"colly", true},
    {"okhttp", false},
    {"java", false},
    {"python", false},
    {"ruby", false},
    {"php", false},
    {"dart", false},
    {"libcurl", false},
    {"reqwest", false},
    {"got", false},
    {"winhttp", false},
    {"powershell", false},
    {"node", false},
});

// Crawler and tool vocabulary: words browsers never put in a User-Agent. Short, common words
// must end a word: "bot" in "Googlebot/2.1" but not "Botech", "scan" in "cyberscan.io" but not
// the "CamScanner" app, "check" in "check_http" but not "Checkout". The rest may sit anywhere
// in a word ("Baiduspider", "W3C_Validator", "RuxitSynthetic"). Words that also name human
// apps ("Health", "Verify") are left to the crawler catalog.
struct WordRule {
  std::string_view word;
  bool must_end_word;
};
constexpr std::array kCrawlerWords = std::to_array<WordRule>({
    {"bot", true},
    {"crawl", false},
    {"spider", false},
    {"slurp", false},
    {"scraper", false},
    {"fetcher", false},
    {"monitor", false},
    {"headless", false},
    {"archiver", false},
    {"check", true},
    {"checker", false},
    {"validat", false},
    {"preview", false},
    {"scan", true},
    {"probe", false},
    {"synthetic", false},
    {"inspect", false},
    {"nutch", false},
    {"analyz", false},
    {"analys", false},
    {"prefetch", false},
    {"transcod", false},
    {"parser", false},
    {"lighthouse", false},
    {"pagespeed", false},
    {"page speed", false},
    {"research", false},
    {"audit", false},
    {"uptime", false},
    {"screenshot", false},
    {"extractor", false},
    {"wordpress", false},
    {"feedreader", false},
    {"feed reader", false},
    {"feedburner", false},
    {"sitemap", false},
    {"onebox", false},
    {"webhook", false},
    {"httpclient", false},
    {"grpc-", false},
    // Probes carrying an injection payload instead of a client name, and scripts that sent
    // an unfilled template or a library object instead of a User-Agent.
    {"${", false},
    {"{{", false},
    {"fake_useragent", false},
    {"load_file(", false},
    {"union select", false},
    {"<script", false},
});

// Phone brands whose names contain crawler vocabulary.
constexpr std::array<std::string_view, 1> kBrandsContainingBot = {"cubot"};

bool IsNameChar(char c) { return IsAlnum(c) || c == '-' || c == '_' || c == '.' || c == '!'; }

// The word of the original text around [at, at+length): "Googlebot" for the "bot" in
// "Googlebot/2.1".
std::string_view WordAround(std::string_view text, std::size_t at, std::size_t length) {
  std::size_t begin = at;
  while (begin > 0 && IsNameChar(text[begin - 1])) --begin;
  std::size_t end = at + length;
  while (end < text.size() && IsNameChar(text[end])) ++end;
  while (end > begin && text[end - 1] == '.') --end;
  return text.substr(begin, end - begin);
}

// The first word of the text: "Datadog" of "Datadog Agent/5.10.1".
std::string_view LeadingWord(std::string_view text) {
  std::size_t end = 0;
  while (end < text.size() && IsNameChar(text[end])) ++end;
  return text.substr(0, end);
}

// Position of something shaped like "name@host.tld", or npos.
std::size_t FindEmailAddress(std::string_view lower) {
  for (std::size_t at = lower.find('@'); at != std::string_view::npos;
       at = lower.find('@', at + 1)) {
    if (at == 0 || !IsAlnum(lower[at - 1])) continue;
    std::size_t end = at + 1;
    while (end < lower.size() && (IsAlnum(lower[end]) || lower[end] == '-')) ++end;
    if (end > at + 1 && end + 1 < lower.size() && lower[end] == '.' && IsAlpha(lower[end + 1])) {
      return at;
    }
  }
  return std::string_view::npos;
}

bool InsideModel(const ModelSpan& model, std::size_t at) {
  return model.offset != UaText::npos && at >= model.offset &&
         at < model.offset + model.text.size();
}

bool IsBrandContainingBot(std::string_view lower, std::size_t at) {
  for (std::string_view brand : kBrandsContainingBot) {
    const std::size_t offset = brand.find("bot");
    if (at >= offset && lower.substr(at - offset, brand.size()) == brand) return true;
  }
  return false;
}

BotGuess FromLibraries(const UaText& ua) {
  // Some runtimes send their bare name: Node's fetch says "undici" or "node".
  for (const LibraryRule& rule : kLibraryRules) {
    if (ua.lower() == rule.product) return {true, ua.text()};
  }
  for (const Product& product : ua.products()) {
    for (const LibraryRule& rule : kLibraryRules) {
      if (rule.product != product.name) continue;
      if (rule.anywhere || product.offset == 0) {
        return {true, ua.text().substr(product.offset, product.name.size())};
      }
    }
  }
  return {};
}

BotGuess FromCrawlerWords(const UaText& ua, const ModelSpan& model) {
  const std::string_view lower = ua.lower();
  for (const WordRule& rule : kCrawlerWords) {
    for (std::size_t at = ua.Find(rule.word); at != UaText::npos;
         at = lower.find(rule.word, at + 1)) {
      const std::size_t end = at + rule.word.size();
      if (rule.must_end_word && end < lower.size() && IsAlpha(lower[end])) continue;
      if (InsideModel(model, at) || IsBrandContainingBot(lower, at)) continue;
      return {true, WordAround(ua.text(), at, rule.word.size())};
    }
  }
  return {};
}

// Bots announce a home page ("+http://…") or a contact address; browsers put neither in their
// UA. A bare URL counts only when neither a browser nor an OS was recognised: toolbars and
// podcast apps embed their home page too, but they name the platform they run on.
BotGuess FromContactUrl(const UaText& ua, bool platform_known) {
  std::size_t at = ua.Find("+http");
  if (at == UaText::npos && !platform_known) at = ua.Find("http://");
  if (at == UaText::npos && !platform_known) at = ua.Find("https://");
  if (at == UaText::npos) at = FindEmailAddress(ua.lower());
  if (at == UaText::npos) return {};
  for (const Product& product : ua.products()) {
    if (product.name != "mozilla" && product.offset < at) {
      return {true, ua.text().substr(product.offset, product.name.size())};
    }
  }
  return {true, LeadingWord(ua.text())};
}

// "Mozilla/5.0 (compatible; Name/1.0)" with no platform and no engine: the compatibility
// prefix with no browser behind it is how crawlers have introduced themselves since the
// 1990s. Compatible-mode browsers (MSIE, Konqueror, handset stacks) name a platform or an
// engine, or write a phrase ("Teleca Q7") rather than a "Name/version" product.
BotGuess FromBarePrefix(const UaText& ua, std::string_view os) {
  if (os != "unknown" || !StartsWithIgnoringCase(ua.PlatformComment(), "compatible")) return {};
  for (std::string_view engine : {"applewebkit", "gecko", "khtml", "presto", "trident", "msie"}) {
    if (ua.Has(engine)) return {};
  }
  std::string_view rest = ua.PlatformComment().substr(10);
  while (!rest.empty() && (rest.front() == ';' || rest.front() == ' ')) rest.remove_prefix(1);
  // "Mozilla/5.0 (compatible)" and nothing else: no browser writes an empty compatibility
  // comment.
  if (rest.empty() && ua.products().size() == 1) return {true, ua.text().substr(0, 7)};
  std::size_t end = 0;
  while (end < rest.size() && IsNameChar(rest[end])) ++end;
  const bool product = end < rest.size() && rest[end] == '/';
  const bool alone =
      rest.find(';') == std::string_view::npos && rest.find(' ') == std::string_view::npos;
  if (end == 0 || (!product && !alone)) return {};
  return {true, rest.substr(0, end)};
}

}  // namespace

BotGuess DetectBot(const UaText& ua, const ModelSpan& model, std::string_view os,
                   bool browser_known) {
  // Every browser sends a User-Agent; a request without one comes from a script.
  if (ua.empty()) return {true, {}};
  BotGuess guess = FromLibraries(ua);
  if (!guess.is_bot) guess = FromCrawlerWords(ua, model);
  if (!guess.is_bot) guess = FromContactUrl(ua, browser_known || os != "unknown");
  if (!guess.is_bot) guess = FromBarePrefix(ua, os);
  return guess;
}

}  // namespace sightline::detection::ua
