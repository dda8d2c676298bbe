#include "detection/client_hints.h"

#include <array>

#include "detection/ua_model.h"
#include "detection/ua_model_classes.h"
#include "detection/ua_os.h"
#include "detection/ua_text.h"

namespace sightline::detection::ua {
namespace {

using enum DeviceType;

std::string LowerCopy(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = ToLower(c);
  return out;
}

// A structured-field string or token, without quotes: "\"Android\"" → "Android".
std::string_view Unquote(std::string_view value) {
  value = Trim(value);
  if (value.size() >= 2 && value.front() == '"' && value.back() == '"') {
    value = value.substr(1, value.size() - 2);
  }
  return Trim(value);
}

struct FormFactor {
  std::string_view name;  // lower-case
  DeviceType type;
};

// Most specific first: a watch that also reports "EInk" is a watch.
constexpr std::array kFormFactors = std::to_array<FormFactor>({
    {"watch", kWearable},
    {"xr", kXr},
    {"automotive", kAutomotive},
    {"eink", kEReader},
    {"tablet", kTablet},
    {"mobile", kMobile},
    {"desktop", kDesktop},
});

DeviceType ReadFormFactors(std::string_view header) {
  const std::string lower = LowerCopy(header);
  for (const FormFactor& factor : kFormFactors) {
    for (std::size_t at = lower.find(factor.name); at != std::string::npos;
         at = lower.find(factor.name, at + 1)) {
      const std::size_t end = at + factor.name.size();
      if ((at == 0 || !IsAlpha(lower[at - 1])) && (end == lower.size() || !IsAlpha(lower[end]))) {
        return factor.type;
      }
    }
  }
  return kUnknown;
}

struct BrandName {
  std::string_view brand;  // lower-case, as Chromium browsers send it
  std::string_view name;   // ours
};

constexpr std::array kBrandNames = std::to_array<BrandName>({
    {"google chrome", "Chrome"},
    {"microsoft edge", "Edge"},
    {"opera", "Opera"},
    {"opera gx", "Opera"},
    {"brave", "Brave"},
    {"yandex", "Yandex"},
    {"yabrowser", "Yandex"},
    {"vivaldi", "Vivaldi"},
    {"chromium", "Chromium"},
    {"samsung internet", "Samsung Internet"},
    {"duckduckgo", "DuckDuckGo"},
    {"android webview", "Chrome WebView"},
    {"huaweibrowser", "Huawei Browser"},
    {"headlesschrome", "HeadlessChrome"},
});

// How specific a brand is: a browser's own brand (0) beats "Google Chrome" (1), which beats
// the engine "Chromium" (2). GREASE entries ("Not A;Brand") are skipped.
int BrandSpecificity(std::string_view lower_brand) {
  if (lower_brand == "chromium") return 2;
  if (lower_brand == "google chrome") return 1;
  return 0;
}

bool IsGrease(std::string_view lower_brand) {
  return lower_brand.find("not") != std::string_view::npos &&
         lower_brand.find("brand") != std::string_view::npos;
}

std::string_view OurBrandName(std::string_view lower_brand, std::string_view original) {
  for (const BrandName& entry : kBrandNames) {
    if (entry.brand == lower_brand) return entry.name;
  }
  return original;
}

// Parses `"Brand";v="1.2", "Other";v="3"` (quotes may hold ';' and ',') and keeps the most
// specific non-GREASE brand.
void ReadBrandList(std::string_view header, std::string& browser, std::string& version) {
  int best = 3;
  std::size_t at = 0;
  while ((at = header.find('"', at)) != std::string_view::npos) {
    const std::size_t close = header.find('"', at + 1);
    if (close == std::string_view::npos) return;
    const std::string_view brand = header.substr(at + 1, close - at - 1);
    std::string_view brand_version;
    const std::size_t comma = header.find(',', close);
    const std::size_t v = header.find("v=\"", close);
    if (v != std::string_view::npos && (comma == std::string_view::npos || v < comma)) {
      const std::size_t v_end = header.find('"', v + 3);
      brand_version = header.substr(v + 3, v_end == std::string_view::npos ? 0 : v_end - v - 3);
      at = v_end == std::string_view::npos ? header.size() : v_end + 1;
    } else {
      at = close + 1;
    }
    const std::string lower = LowerCopy(Trim(brand));
    if (IsGrease(lower) || BrandSpecificity(lower) >= best) continue;
    best = BrandSpecificity(lower);
    browser = OurBrandName(lower, Trim(brand));
    version = MajorMinor(brand_version);
  }
}

bool IsDesktopPlatform(std::string_view platform) {
  return platform == "Windows" || platform == "macOS" || platform == "Linux" ||
         platform == "Chrome OS" || platform == "Chromium OS";
}

// The class Sec-CH-UA-Mobile and -Platform settle on their own. Chrome on Android tablets
// sends "?0", so "not mobile" on Android means tablet unless the UA knows better (a TV).
DeviceType LowEntropyClass(const HintSignals& hints) {
  if (hints.mobile == 1) return kMobile;
  if (hints.mobile == 0 && IsDesktopPlatform(hints.platform)) return kDesktop;
  if (hints.mobile == 0 && hints.platform == "Android") return kTablet;
  return kUnknown;
}

// True when the UA's class is a narrower reading of what the hints said: "?0" on Android is
// also what TVs, headsets and car units send, "?1" what watches and handhelds send.
bool UaRefinesHint(DeviceType ua_class, DeviceType hint_class) {
  switch (ua_class) {
    case kSmartTv:
    case kSetTopBox:
    case kGameConsole:
    case kAutomotive:
    case kXr:
      return hint_class != kMobile || ua_class == kXr;
    case kEReader:
    case kVoice:
    case kHomeAppliance:
      return hint_class == kTablet;
    case kWearable:
    case kHandheldGameConsole:
    case kTablet:
      return hint_class == kMobile;
    default:
      return false;
  }
}

DeviceVerdict Verdict(DeviceType type, SignalSource source) {
  if (source == SignalSource::kFormFactors) return {type, source, 0.95};
  if (source == SignalSource::kLowEntropyHints) return {type, source, 0.85};
  return {type, source, type == kUnknown ? 0.60 : 0.75};
}

std::string_view OsOfPlatform(std::string_view platform) {
  if (platform == "Windows" || platform == "macOS" || platform == "Android" ||
      platform == "Linux" || platform == "iOS" || platform == "Fuchsia") {
    return platform;
  }
  if (platform == "Chrome OS" || platform == "Chromium OS") return "ChromeOS";
  return {};
}

// Sec-CH-UA-Platform-Version on Windows: 13 and up is Windows 11, 1–10 Windows 10, and the
// 0.x values the older NT versions.
std::string WindowsFromPlatformVersion(std::string_view version) {
  const int major = LeadingInt(version);
  if (major >= 13) return "11";
  if (major >= 1) return "10";
  if (version.starts_with("0.3")) return "8.1";
  if (version.starts_with("0.2")) return "8";
  if (version.starts_with("0.1")) return "7";
  return {};
}

// "14.0.0" → "14"; "10.15.7" stays.
std::string TrimZeroComponents(std::string_view version) {
  std::string out(version);
  while (out.size() > 2 && out.ends_with(".0")) out.resize(out.size() - 2);
  return out;
}

bool SameOsFamily(std::string_view ua_os, std::string_view hint_os) {
  if (ua_os == hint_os) return true;
  if (hint_os == "Android") return ua_os == "Fire OS" || ua_os == "HarmonyOS";
  if (hint_os == "iOS") return ua_os == "iPadOS";
  return false;
}

}  // namespace

HintSignals ReadHints(const ClientHints& hints) {
  HintSignals out;
  auto value = [&out](const std::optional<std::string>& header) -> std::string_view {
    if (!header.has_value() || Trim(*header).empty()) return {};
    out.present = true;
    return Unquote(*header);
  };
  out.form_factor = ReadFormFactors(value(hints.form_factors));
  const std::string_view mobile = value(hints.mobile);
  out.mobile = mobile == "?1" ? 1 : (mobile == "?0" ? 0 : -1);
  out.platform = value(hints.platform);
  out.platform_version = value(hints.platform_version);
  out.model = value(hints.model);
  if (const std::string_view list = value(hints.full_version_list); !list.empty()) {
    ReadBrandList(hints.full_version_list.value(), out.browser, out.browser_version);
  }
  if (const std::string_view list = value(hints.brands); !list.empty() && out.browser.empty()) {
    ReadBrandList(hints.brands.value(), out.browser, out.browser_version);
  }
  return out;
}

DeviceVerdict FuseDevice(DeviceType ua_class, bool has_user_agent, const HintSignals& hints) {
  if (hints.form_factor != kUnknown) return Verdict(hints.form_factor, SignalSource::kFormFactors);
  const SignalSource ua_source = hints.present ? SignalSource::kUaFused : SignalSource::kUaOnly;
  const std::optional<DeviceType> by_model = ClassifyModel(hints.model, LowerCopy(hints.model));
  const DeviceType hint_class = LowEntropyClass(hints);
  if (hint_class != kUnknown) {
    if (by_model.has_value() && *by_model != hint_class) return Verdict(*by_model, ua_source);
    if (UaRefinesHint(ua_class, hint_class)) return Verdict(ua_class, ua_source);
    return Verdict(hint_class, SignalSource::kLowEntropyHints);
  }
  if (by_model.has_value()) return Verdict(*by_model, ua_source);
  if (!has_user_agent) return {};
  return Verdict(ua_class, ua_source);
}

void RefineFromHints(const HintSignals& hints, UserAgentInfo& info) {
  const bool generic_browser =
      info.browser == "unknown" || info.browser == "Chrome" || info.browser == "Chromium";
  if (!hints.browser.empty() && generic_browser && hints.browser != "Chromium") {
    info.browser = hints.browser;
    if (!hints.browser_version.empty()) info.browser_version = hints.browser_version;
  }
  const std::string_view os = OsOfPlatform(hints.platform);
  if (!os.empty() && !SameOsFamily(info.os, os)) {
    info.os = std::string(os);
    info.os_version.clear();
  }
  if (!os.empty() && info.os == os && !hints.platform_version.empty()) {
    info.os_version = os == "Windows" ? WindowsFromPlatformVersion(hints.platform_version)
                                      : TrimZeroComponents(hints.platform_version);
  }
  if (!hints.model.empty() && (info.model.empty() || info.model == "K")) {
    info.model = hints.model;
    info.brand = std::string(BrandOfModel(LowerCopy(hints.model)));
  }
}

}  // namespace sightline::detection::ua
