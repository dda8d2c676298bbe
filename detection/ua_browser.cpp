#include "detection/ua_browser.h"

#include <array>

namespace sightline::detection::ua {
namespace {

// Rank: the lower wins when a UA carries several products. Browsers built on Chromium keep
// "Chrome/…" and add their own token, and in-app views add theirs on top of everything, so
// app tokens outrank browser brands, which outrank engines.
enum Rank : int { kInApp = 10, kOwnBrand = 20, kGecko = 40, kChromium = 45, kChrome = 50 };

struct BrowserRule {
  std::string_view product;  // lower-case product name, matched exactly
  std::string_view name;
  int rank;
  bool in_app = false;
};

constexpr std::array kProductRules = std::to_array<BrowserRule>({
    // In-app browsers: we report the app (what analytics users ask about); the engine follows
    // from the OS (WebKit on iOS, the Chromium WebView on Android).
    {"fbav", "Facebook", kInApp, true},
    {"fban", "Facebook", kInApp, true},
    {"fb_iab", "Facebook", kInApp, true},
    {"micromessenger", "WeChat", kInApp, true},
    {"line", "LINE", kInApp, true},
    {"kakaotalk", "KakaoTalk", kInApp, true},
    {"snapchat", "Snapchat", kInApp, true},
    {"pinterest", "Pinterest", kInApp, true},
    {"musical_ly", "TikTok", kInApp, true},
    {"bytedancewebview", "TikTok", kInApp, true},
    {"electron", "Electron", kInApp, true},
    {"baiduboxapp", "Baidu App", kInApp, true},
    {"gsa", "Google App", kInApp, true},
    {"qq", "QQ", kInApp, true},
    {"twitter", "Twitter", kInApp, true},
    // Browsers with their own brand token.
    {"edg", "Edge", kOwnBrand},
    {"edge", "Edge", kOwnBrand},
    {"edga", "Edge", kOwnBrand},
    {"edgios", "Edge", kOwnBrand},
    {"oculusbrowser", "Oculus Browser", kOwnBrand - 1},  // also says SamsungBrowser/4.0
    {"picobrowser", "Pico Browser", kOwnBrand - 1},
    {"opr", "Opera", kOwnBrand},
    {"opios", "Opera", kOwnBrand},
    {"opt", "Opera", kOwnBrand},
    {"opx", "Opera GX", kOwnBrand},
    {"samsungbrowser", "Samsung Internet", kOwnBrand},
    {"ucbrowser", "UC Browser", kOwnBrand},
    {"ucweb", "UC Browser", kOwnBrand},
    {"ucmini", "UC Browser", kOwnBrand},
    {"ucturbo", "UC Browser", kOwnBrand},
    {"yabrowser", "Yandex", kOwnBrand},
    {"yasearchbrowser", "Yandex", kOwnBrand},
    {"vivaldi", "Vivaldi", kOwnBrand},
    {"brave", "Brave", kOwnBrand},
    {"silk", "Silk", kOwnBrand},
    {"huaweibrowser", "Huawei Browser", kOwnBrand},
    {"miuibrowser", "MIUI Browser", kOwnBrand},
    {"crios", "Chrome", kOwnBrand},
    {"fxios", "Firefox", kOwnBrand},
    {"qqbrowser", "QQ Browser", kOwnBrand},
    {"mqqbrowser", "QQ Browser", kOwnBrand},
    {"baidubrowser", "Baidu Browser", kOwnBrand},
    {"bidubrowser", "Baidu Browser", kOwnBrand},
    {"whale", "Whale", kOwnBrand},
    {"duckduckgo", "DuckDuckGo", kOwnBrand},
    {"puffin", "Puffin", kOwnBrand},
    {"maxthon", "Maxthon", kOwnBrand},
    {"mxbrowser", "Maxthon", kOwnBrand},
    {"vivobrowser", "vivo Browser", kOwnBrand},
    {"heytapbrowser", "HeyTap Browser", kOwnBrand},
    {"coc_coc_browser", "Coc Coc", kOwnBrand},
    {"avastsecurebrowser", "Avast Secure Browser", kOwnBrand},
    {"quark", "Quark", kOwnBrand},
    {"seamonkey", "SeaMonkey", kOwnBrand},
    {"palemoon", "Pale Moon", kOwnBrand},
    {"waterfox", "Waterfox", kOwnBrand},
    {"konqueror", "Konqueror", kOwnBrand},
    {"epiphany", "Epiphany", kOwnBrand},
    {"midori", "Midori", kOwnBrand},
    {"nintendobrowser", "Nintendo Browser", kOwnBrand},
    {"netfront", "NetFront", kOwnBrand},
    {"nokiabrowser", "Nokia Browser", kOwnBrand},
    {"browserng", "Nokia Browser", kOwnBrand},
    {"dolfin", "Dolphin", kOwnBrand},
    {"dolphin", "Dolphin", kOwnBrand},
    {"up.browser", "Openwave", kOwnBrand},
    {"iemobile", "IE", kOwnBrand},
    // Engines and the browsers that only show their engine's token.
    {"firefox", "Firefox", kGecko},
    {"fennec", "Firefox", kGecko},
    {"iceweasel", "Firefox", kGecko},
    {"chromium", "Chromium", kChromium},
    {"chrome", "Chrome", kChrome},
    {"chr0me", "Chrome", kChrome},  // LG webOS spells it so
});

struct Match {
  const BrowserRule* rule = nullptr;
  const Product* product = nullptr;
};

Match BestProductMatch(const UaText& ua) {
  Match best;
  for (const Product& product : ua.products()) {
    for (const BrowserRule& rule : kProductRules) {
      if (rule.product != product.name) continue;
      if (best.rule == nullptr || rule.rank < best.rule->rank) best = {&rule, &product};
      break;
    }
  }
  return best;
}

std::string_view ProductVersion(const UaText& ua, std::string_view product) {
  const Product* found = ua.FindProduct(product);
  return found == nullptr ? std::string_view() : MajorMinor(found->version);
}

// The number written after a word, as in "MSIE 8.0" or "Instagram 267.0.0".
std::string_view VersionAfterWord(const UaText& ua, std::string_view word) {
  const std::size_t at = ua.Find(word);
  return at == UaText::npos ? std::string_view() : MajorMinor(ua.NumberAt(at + word.size()));
}

// Browsers whose token is not a "Name/version" product.
bool DetectByPhrase(const UaText& ua, BrowserGuess& out) {
  if (ua.Has("instagram ")) {
    out = {"Instagram", VersionAfterWord(ua, "instagram "), true};
  } else if (ua.Has("opera mini")) {
    out = {"Opera Mini", VersionAfterWord(ua, "opera mini/"), false};
  } else if (ua.Has("naver(inapp")) {
    out = {"Naver", {}, true};
  } else if (ua.Has("lg browser/")) {
    out = {"LG Browser", VersionAfterWord(ua, "lg browser/"), false};
  } else {
    return false;
  }
  return true;
}

BrowserGuess FromRule(const UaText& ua, const Match& match) {
  BrowserGuess guess{match.rule->name, MajorMinor(match.product->version), match.rule->in_app};
  // Facebook's bracket carries the app version in FBAV even when FBAN comes first.
  if (guess.name == "Facebook") guess.version = ProductVersion(ua, "fbav");
  if (guess.version.empty()) {
    const std::string_view version = ProductVersion(ua, "version");
    if (!version.empty()) guess.version = version;
  }
  return guess;
}

// Internet Explorer: "MSIE 10.0", or IE 11's "Trident/7.0; rv:11.0".
bool DetectInternetExplorer(const UaText& ua, BrowserGuess& out) {
  if (ua.Has("msie ")) {
    out = {"IE", VersionAfterWord(ua, "msie "), false};
    return true;
  }
  if (ua.FindProduct("trident") != nullptr && ua.Has("rv:")) {
    out = {"IE", VersionAfterWord(ua, "rv:"), false};
    return true;
  }
  return false;
}

// Chrome-engine results refined by platform: Android's WebView marks itself with "wv" or the
// legacy "Version/4.0 Chrome/…" shape.
BrowserGuess RefineChrome(const UaText& ua, BrowserGuess guess, std::string_view os) {
  const bool android = os == "Android" || os == "Fire OS" || os == "HarmonyOS";
  if (android && (ua.Has("; wv)") || ua.Has(" wv)") || ua.FindProduct("version") != nullptr)) {
    guess.name = "Chrome WebView";
    guess.in_app = true;
  }
  return guess;
}

// No brand or engine token: Safari, iOS web views and the old Android stock browser all
// present as WebKit with or without "Version/… Safari/…".
BrowserGuess DetectWebKitFamily(const UaText& ua, std::string_view os) {
  const bool has_safari = ua.FindProduct("safari") != nullptr;
  const std::string_view version = ProductVersion(ua, "version");
  const bool apple_mobile = os == "iOS" || os == "iPadOS";
  if (apple_mobile && has_safari && !version.empty()) return {"Mobile Safari", version, false};
  if (apple_mobile && ua.FindProduct("applewebkit") != nullptr) return {"WebView", {}, true};
  if (os == "Android" && has_safari) return {"Android Browser", version, false};
  if (os == "macOS" && has_safari && !version.empty()) return {"Safari", version, false};
  // Safari's own networking requests lead with "Safari/…" before CFNetwork.
  if (ua.StartsWithProduct("safari")) return {"Safari", {}, false};
  if (ua.FindProduct("opera") != nullptr) {
    return {"Opera", version.empty() ? ProductVersion(ua, "opera") : version, false};
  }
  if (has_safari && !version.empty()) return {"Safari", version, false};
  return {};
}

}  // namespace

BrowserGuess DetectBrowser(const UaText& ua, std::string_view os) {
  BrowserGuess guess;
  const Match match = BestProductMatch(ua);
  if (match.rule != nullptr && match.rule->rank == kInApp) return FromRule(ua, match);
  if (DetectByPhrase(ua, guess)) return guess;
  if (match.rule != nullptr && match.rule->rank <= kOwnBrand) return FromRule(ua, match);
  if (DetectInternetExplorer(ua, guess)) return guess;
  if (match.rule != nullptr) {
    guess = FromRule(ua, match);
    return match.rule->rank >= kChromium ? RefineChrome(ua, guess, os) : guess;
  }
  return DetectWebKitFamily(ua, os);
}

}  // namespace sightline::detection::ua
