#include "ingest/traffic_sources.h"

#include <algorithm>
#include <array>
#include <optional>
#include <vector>

#include "core/text.h"
#include "core/url.h"

namespace sightline::ingest {
namespace {

// What a named source is, for the channel rules (GA4's source categories, plus AI assistants).
enum class Kind { kNone, kAi, kSearch, kSocial, kVideo, kShopping, kEmail, kOther };

// One named source. `patterns`: space-separated hosts it owns (a host and its subdomains),
// "name.*" for every top-level domain ("google.*": google.de, google.co.uk), an optional path
// prefix ("bing.com/chat") and Android app ids (the referrer of an app, android-app://…).
// `aliases`: extra utm_source spellings; the lower-cased name is always one.
// When several patterns match, the longest wins, so "gemini.google.com" beats "google.*".
struct KnownSource {
  std::string_view name;
  Kind kind;
  std::string_view patterns;
  std::string_view aliases;
};

constexpr std::array kKnownSources = std::to_array<KnownSource>({
    // AI assistants: their links carry the user from an answer to the page.
    {"ChatGPT", Kind::kAi, "chatgpt.com chat.openai.com com.openai.chatgpt", "openai chat-gpt"},
    {"Perplexity", Kind::kAi, "perplexity.ai pplx.ai ai.perplexity.android", ""},
    {"Claude", Kind::kAi, "claude.ai com.anthropic.claude", "anthropic claude.ai"},
    {"Gemini", Kind::kAi,
     "gemini.google.com bard.google.com aistudio.google.com notebooklm.google.com",
     "bard google-gemini"},
    {"Copilot", Kind::kAi,
     "copilot.microsoft.com copilot.cloud.microsoft bing.com/chat edgeservices.bing.com "
     "m365.cloud.microsoft/chat com.microsoft.copilot",
     "bing-chat bingchat microsoft-copilot"},
    {"Meta AI", Kind::kAi, "meta.ai", "meta-ai metaai"},
    {"DeepSeek", Kind::kAi, "chat.deepseek.com deepseek.com", ""},
    {"Mistral", Kind::kAi, "chat.mistral.ai mistral.ai", "le-chat lechat"},
    {"You.com", Kind::kAi, "you.com", "you"},
    {"Phind", Kind::kAi, "phind.com", ""},
    {"Poe", Kind::kAi, "poe.com", ""},
    {"Grok", Kind::kAi, "grok.com x.ai x.com/i/grok", ""},
    {"Kimi", Kind::kAi, "kimi.com kimi.moonshot.cn", ""},
    {"Qwen", Kind::kAi, "chat.qwen.ai tongyi.aliyun.com", ""},
    {"Doubao", Kind::kAi, "doubao.com", ""},
    {"HuggingChat", Kind::kAi, "huggingface.co/chat", ""},
    {"Pi", Kind::kAi, "pi.ai", ""},
    // Search engines.
    {"Google", Kind::kSearch, "google.* com.google.android.googlequicksearchbox", ""},
    {"Bing", Kind::kSearch, "bing.com cn.bing.com", "msn"},
    {"DuckDuckGo", Kind::kSearch, "duckduckgo.com ddg.gg", "ddg"},
    {"Yahoo!", Kind::kSearch, "yahoo.* search.yahoo.*", "yahoo"},
    {"Yandex", Kind::kSearch, "yandex.* ya.ru", ""},
    {"Baidu", Kind::kSearch, "baidu.com m.baidu.com", ""},
    {"Ecosia", Kind::kSearch, "ecosia.org", ""},
    {"Brave Search", Kind::kSearch, "search.brave.com", "brave"},
    {"Startpage", Kind::kSearch, "startpage.com", ""},
    {"Qwant", Kind::kSearch, "qwant.com", ""},
    {"Naver", Kind::kSearch, "naver.com", ""},
    {"Seznam", Kind::kSearch, "seznam.cz", ""},
    {"Sogou", Kind::kSearch, "sogou.com", ""},
    {"So.com", Kind::kSearch, "so.com", ""},
    {"Kagi", Kind::kSearch, "kagi.com", ""},
    {"Ask", Kind::kSearch, "ask.com", ""},
    {"AOL Search", Kind::kSearch, "search.aol.com", ""},
    {"Daum", Kind::kSearch, "daum.net", ""},
    {"Mojeek", Kind::kSearch, "mojeek.com", ""},
    {"Coc Coc", Kind::kSearch, "coccoc.com", ""},
    {"Petal Search", Kind::kSearch, "petalsearch.com", ""},
    // Email (webmail and mail apps).
    {"Gmail", Kind::kEmail, "mail.google.com com.google.android.gm", ""},
    {"Outlook", Kind::kEmail,
     "outlook.live.com outlook.office.com outlook.office365.com outlook.com "
     "com.microsoft.office.outlook",
     "hotmail"},
    {"Yahoo! Mail", Kind::kEmail, "mail.yahoo.*", "yahoo-mail yahoomail"},
    {"Proton Mail", Kind::kEmail, "mail.proton.me mail.protonmail.com", "protonmail proton"},
    {"iCloud Mail", Kind::kEmail, "icloud.com/mail", ""},
    {"AOL Mail", Kind::kEmail, "mail.aol.com", ""},
    {"Fastmail", Kind::kEmail, "fastmail.com", ""},
    {"GMX", Kind::kEmail, "gmx.*", ""},
    {"Web.de", Kind::kEmail, "web.de", ""},
    {"Yandex Mail", Kind::kEmail, "mail.yandex.*", ""},
    {"Zoho Mail", Kind::kEmail, "mail.zoho.*", ""},
    {"Mail.ru", Kind::kEmail, "e.mail.ru", ""},
    {"Tuta", Kind::kEmail, "app.tuta.com mail.tutanota.com", ""},
    // Social networks and communities.
    {"Facebook", Kind::kSocial, "facebook.com fb.com fb.me com.facebook.katana", "fb meta"},
    {"Instagram", Kind::kSocial, "instagram.com com.instagram.android", "ig insta"},
    {"X", Kind::kSocial, "x.com twitter.com t.co com.twitter.android", "twitter tw x-twitter"},
    {"LinkedIn", Kind::kSocial, "linkedin.com lnkd.in com.linkedin.android", "li"},
    {"Reddit", Kind::kSocial, "reddit.com redd.it com.reddit.frontpage", ""},
    {"TikTok", Kind::kSocial, "tiktok.com", ""},
    {"Pinterest", Kind::kSocial, "pinterest.* pin.it", ""},
    {"Hacker News", Kind::kSocial, "news.ycombinator.com", "hackernews hn ycombinator"},
    {"Snapchat", Kind::kSocial, "snapchat.com", ""},
    {"Threads", Kind::kSocial, "threads.net threads.com", ""},
    {"Bluesky", Kind::kSocial, "bsky.app", "bsky"},
    {"Mastodon", Kind::kSocial, "mastodon.social mastodon.online", ""},
    {"Tumblr", Kind::kSocial, "tumblr.com", ""},
    {"Quora", Kind::kSocial, "quora.com", ""},
    {"Medium", Kind::kSocial, "medium.com", ""},
    {"VK", Kind::kSocial, "vk.com", "vkontakte"},
    {"Weibo", Kind::kSocial, "weibo.com", ""},
    {"WhatsApp", Kind::kSocial, "whatsapp.com wa.me", ""},
    {"Telegram", Kind::kSocial, "t.me telegram.org org.telegram.messenger", ""},
    {"Discord", Kind::kSocial, "discord.com discord.gg discordapp.com", ""},
    {"Slack", Kind::kSocial, "slack.com", ""},
    {"Line", Kind::kSocial, "line.me", ""},
    {"Product Hunt", Kind::kSocial, "producthunt.com", "producthunt"},
    {"Lobsters", Kind::kSocial, "lobste.rs", ""},
    // Video.
    {"YouTube", Kind::kVideo, "youtube.com youtu.be com.google.android.youtube", "yt"},
    {"Vimeo", Kind::kVideo, "vimeo.com", ""},
    {"Twitch", Kind::kVideo, "twitch.tv", ""},
    {"Dailymotion", Kind::kVideo, "dailymotion.com", ""},
    // Shopping.
    {"Amazon", Kind::kShopping, "amazon.*", ""},
    {"eBay", Kind::kShopping, "ebay.*", ""},
    {"Etsy", Kind::kShopping, "etsy.com", ""},
    {"Shop", Kind::kShopping, "shop.app", ""},
    {"AliExpress", Kind::kShopping, "aliexpress.com", ""},
    {"Walmart", Kind::kShopping, "walmart.com", ""},
    {"Mercado Libre", Kind::kShopping, "mercadolibre.*", ""},
    {"Google Shopping", Kind::kShopping, "shopping.google.com", ""},
    // Named referrers that are none of the above (their channel is Referral).
    {"GitHub", Kind::kOther, "github.com", ""},
    {"Stack Overflow", Kind::kOther, "stackoverflow.com", ""},
    {"Wikipedia", Kind::kOther, "wikipedia.org", ""},
});

// Second-level suffixes under which a registrable domain has three labels (a small subset of the
// Public Suffix List: the ones referrers show most).
constexpr std::array<std::string_view, 24> kTwoLabelSuffixes = {
    "co.uk",  "org.uk", "ac.uk",  "gov.uk", "com.au", "net.au", "org.au", "co.jp",
    "ne.jp",  "co.nz",  "co.in",  "com.br", "com.mx", "com.ar", "com.tr", "com.cn",
    "com.tw", "com.hk", "co.kr",  "co.za",  "com.sg", "github.io", "vercel.app", "netlify.app"};

std::string_view WithoutWww(std::string_view host) {
  return host.starts_with("www.") ? host.substr(4) : host;
}

std::size_t CountLabels(std::string_view host) {
  return host.empty() ? 0 : 1 + static_cast<std::size_t>(std::ranges::count(host, '.'));
}

// "google.*": `base` then one or two top-level labels, with any subdomains before it.
bool MatchesWildcard(std::string_view host, std::string_view base) {
  for (std::size_t at = 0; at < host.size();) {
    const std::string_view rest = host.substr(at);
    if (rest.starts_with(base) && rest.size() > base.size() && rest[base.size()] == '.') {
      const std::size_t tld_labels = CountLabels(rest.substr(base.size() + 1));
      if (tld_labels >= 1 && tld_labels <= 2) return true;
    }
    const std::size_t dot = host.find('.', at);
    if (dot == std::string_view::npos) break;
    at = dot + 1;
  }
  return false;
}

bool MatchesHost(std::string_view host, std::string_view pattern) {
  if (pattern.ends_with(".*")) return MatchesWildcard(host, pattern.substr(0, pattern.size() - 2));
  return host == pattern ||
         (host.size() > pattern.size() && host.ends_with(pattern) &&
          host[host.size() - pattern.size() - 1] == '.');
}

// How specifically `pattern` matches (its length), or 0 when it does not.
std::size_t MatchLength(std::string_view host, std::string_view path, std::string_view pattern) {
  const std::size_t slash = pattern.find('/');
  const std::string_view host_part = pattern.substr(0, slash);
  if (!MatchesHost(host, host_part)) return 0;
  if (slash != std::string_view::npos && !path.starts_with(pattern.substr(slash))) return 0;
  return pattern.size();
}

// The known source a referrer host (and path) belongs to, the most specific match.
const KnownSource* FindByHost(std::string_view host, std::string_view path) {
  const KnownSource* best = nullptr;
  std::size_t best_length = 0;
  for (const KnownSource& known : kKnownSources) {
    for (const std::string& pattern : core::SplitList(known.patterns, ' ')) {
      const std::size_t length = MatchLength(host, path, pattern);
      if (length > best_length) {
        best = &known;
        best_length = length;
      }
    }
  }
  return best;
}

// The known source a utm_source names: its name or an alias, else a host it owns.
const KnownSource* FindByUtmSource(std::string_view utm_source) {
  const std::string wanted = core::ToLowerAscii(core::TrimSpaces(utm_source));
  for (const KnownSource& known : kKnownSources) {
    if (core::ToLowerAscii(known.name) == wanted) return &known;
    const auto aliases = core::SplitList(known.aliases, ' ');
    if (std::ranges::find(aliases, wanted) != aliases.end()) return &known;
  }
  if (wanted.find('.') == std::string::npos) return nullptr;
  const std::string host = core::HostOfUrl("https://" + wanted);
  const auto slash = wanted.find('/');
  return FindByHost(host, slash == std::string::npos ? "/" : wanted.substr(slash));
}

// "news.example.co.uk" → "example.co.uk".
std::string RegistrableDomain(std::string_view host) {
  host = WithoutWww(host);
  std::size_t keep = 2;
  for (std::string_view suffix : kTwoLabelSuffixes) {
    if (MatchesHost(host, suffix) && host != suffix) keep = 3;
  }
  std::size_t start = host.size();
  for (std::size_t labels = 0; labels < keep && start != std::string_view::npos; ++labels) {
    start = start == 0 ? std::string_view::npos : host.rfind('.', start - 1);
  }
  return std::string(start == std::string_view::npos ? host : host.substr(start + 1));
}

std::string_view PathOfUrl(std::string_view url) {
  const std::size_t scheme = url.find("://");
  if (scheme == std::string_view::npos) return "/";
  const std::size_t slash = url.find('/', scheme + 3);
  if (slash == std::string_view::npos) return "/";
  return url.substr(slash, url.find_first_of("?#", slash) - slash);
}

// Referrers that say nothing about where a visitor came from: the site itself (internal
// navigation, or a visit resumed after 30 minutes: the page's host, or one of the project's own
// domains) and local development hosts.
bool IsInternal(std::string_view host, std::string_view page_host,
                std::span<const std::string> own_domains) {
  if (host.empty() || host == "localhost" || host == "127.0.0.1" || host == "[::1]") return true;
  if (host.ends_with(".localhost")) return true;
  if (core::IsWithinDomains(host, own_domains)) return true;
  return !page_host.empty() && WithoutWww(host) == WithoutWww(core::ToLowerAscii(page_host));
}

// ---- The channel rules (GA4's default channel group, in its order, AI assistants first) ----

bool IsOneOf(std::string_view value, std::initializer_list<std::string_view> options) {
  return std::ranges::find(options, value) != options.end();
}

// GA4: ^(.*cp.*|ppc|retargeting|paid.*)$
bool IsPaidMedium(std::string_view medium) {
  return medium.find("cp") != std::string_view::npos || medium == "ppc" ||
         medium == "retargeting" || medium.starts_with("paid");
}

// GA4: ^(.*(([^a-df-z]|^)shop|shopping).*)$ (so "shop" but not "workshop").
bool IsShoppingCampaign(std::string_view campaign) {
  for (std::size_t at = campaign.find("shop"); at != std::string_view::npos;
       at = campaign.find("shop", at + 1)) {
    if (at == 0) return true;
    const char before = campaign[at - 1];
    if (!(before >= 'a' && before <= 'z') || before == 'e') return true;
  }
  return false;
}

bool MentionsEmail(std::string_view text) {
  for (std::string_view word : {"email", "e-mail", "e_mail", "e mail", "newsletter"}) {
    if (text.find(word) != std::string_view::npos) return true;
  }
  return false;
}

struct Signals {
  Kind kind = Kind::kNone;
  bool direct = false;        // no external referrer and no campaign parameters
  bool has_referrer = false;  // an external referrer
  std::string source, medium, campaign;  // lower-cased utm values
};

std::optional<std::string_view> PaidChannel(const Signals& s) {
  if (!IsPaidMedium(s.medium)) return std::nullopt;
  if (s.kind == Kind::kShopping || IsShoppingCampaign(s.campaign)) return "Paid Shopping";
  if (s.kind == Kind::kSearch) return "Paid Search";
  if (s.kind == Kind::kSocial) return "Paid Social";
  if (s.kind == Kind::kVideo) return "Paid Video";
  return std::nullopt;
}

std::string_view OrganicChannel(const Signals& s) {
  const std::string_view m = s.medium;
  if (s.kind == Kind::kShopping || IsShoppingCampaign(s.campaign)) return "Organic Shopping";
  if (s.kind == Kind::kSocial ||
      IsOneOf(m, {"social", "social-network", "social-media", "sm", "social network",
                  "social media"})) {
    return "Organic Social";
  }
  if (s.kind == Kind::kVideo || m.find("video") != std::string_view::npos) return "Organic Video";
  if (s.kind == Kind::kSearch || m == "organic") return "Organic Search";
  if (IsOneOf(m, {"referral", "app", "link"})) return "Referral";
  if (s.kind == Kind::kEmail || MentionsEmail(s.source) || MentionsEmail(m)) return "Email";
  if (m == "affiliate" || m == "affiliates") return "Affiliates";
  if (m == "audio") return "Audio";
  if (s.source == "sms" || m == "sms") return "SMS";
  if (m.ends_with("push") || m.find("mobile") != std::string_view::npos ||
      m.find("notification") != std::string_view::npos || s.source == "firebase") {
    return "Mobile Push Notifications";
  }
  if (s.has_referrer || s.kind == Kind::kOther) return "Referral";
  return "Unassigned";
}

std::string ChannelOf(const Signals& s) {
  if (s.kind == Kind::kAi) return "AI Assistants";
  if (s.campaign.find("cross-network") != std::string::npos) return "Cross-network";
  if (s.direct) return "Direct";
  if (auto paid = PaidChannel(s)) return std::string(*paid);
  if (IsOneOf(s.medium, {"display", "banner", "expandable", "interstitial", "cpm"})) {
    return "Display";
  }
  if (IsPaidMedium(s.medium)) return "Paid Other";
  return std::string(OrganicChannel(s));
}

}  // namespace

TrafficSource ClassifyTrafficSource(std::string_view referrer_url, std::string_view page_host,
                                    std::string_view utm_source, std::string_view utm_medium,
                                    std::string_view utm_campaign,
                                    std::span<const std::string> own_domains) {
  Signals s;
  s.source = core::ToLowerAscii(core::TrimSpaces(utm_source));
  s.medium = core::ToLowerAscii(core::TrimSpaces(utm_medium));
  s.campaign = core::ToLowerAscii(core::TrimSpaces(utm_campaign));
  const std::string host = core::HostOfUrl(core::TrimSpaces(referrer_url));
  s.has_referrer = !IsInternal(host, page_host, own_domains);
  s.direct = !s.has_referrer && s.source.empty() && s.medium.empty() && s.campaign.empty();

  TrafficSource out;
  const KnownSource* known = nullptr;
  if (!s.source.empty()) {
    known = FindByUtmSource(utm_source);
    out.source = known ? std::string(known->name) : std::string(core::TrimSpaces(utm_source));
  } else if (s.has_referrer) {
    known = FindByHost(host, PathOfUrl(referrer_url));
    out.source = known ? std::string(known->name) : RegistrableDomain(host);
  } else {
    out.source = "Direct";
  }
  s.kind = known ? known->kind : Kind::kNone;
  out.channel = ChannelOf(s);
  return out;
}

bool IsAiAssistantChannel(std::string_view channel) { return channel == "AI Assistants"; }

}  // namespace sightline::ingest
