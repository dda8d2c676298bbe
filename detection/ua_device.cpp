#include "detection/ua_device.h"

#include <algorithm>
#include <array>
#include <optional>

#include "detection/ua_model_classes.h"

namespace sightline::detection::ua {
namespace {

using enum DeviceType;

struct TokenRule {
  std::string_view token;  // lower-case substring of the whole UA
  DeviceType type;
  bool word_start = false;  // must not follow a letter ("tivo" is not in "Positivo")
};

// Tokens that settle the class wherever they appear, ahead of the model name. Consoles and
// headsets come first because their UAs also carry desktop or Android platform tokens.
constexpr std::array kClassTokens = std::to_array<TokenRule>({
    {"xbox", kGameConsole, true},  // not "NEXBOX", a TV box
    {"playstation vita", kHandheldGameConsole},
    {"playstation portable", kHandheldGameConsole},
    {"(psp", kHandheldGameConsole},
    {"playstation", kGameConsole},
    {"(ps3", kGameConsole},
    {"(ps4", kGameConsole},
    {"(ps5", kGameConsole},
    {"nintendo switch", kHandheldGameConsole},
    {"nintendo 3ds", kHandheldGameConsole},
    {"nintendo dsi", kHandheldGameConsole},
    {"nintendo ds", kHandheldGameConsole},
    {"nintendo", kGameConsole},
    {"hbbtv", kSmartTv},       // Arçelik's TVs name their platform "visionos"
    {"hybridcast", kSmartTv},  // Japan's broadcast-broadband TV standard
    {"oculusbrowser", kXr},
    {"picobrowser", kXr},
    {"mobile vr", kXr},
    {" vr safari", kXr},
    {"wolvic", kXr},
    {"visionos", kXr},
    {"watchos", kWearable},
    {"watch os", kWearable},
    {"apple watch", kWearable},
    {"wear os", kWearable},
    {"tesla/", kAutomotive},
    {"qtcarbrowser", kAutomotive},
    {"android automotive", kAutomotive},
    {"crkey", kSetTopBox},
    {"roku", kSetTopBox},
    {"appletv", kSetTopBox},
    {"apple tv", kSetTopBox},
    {"tvos", kSetTopBox},
    {"kreatv", kSetTopBox},
    {"stbapp", kSetTopBox},
    {";aft", kSetTopBox},   // "Amazon;AFTSS;…": Fire TV apps name the device code
    {"; aft", kSetTopBox},  // "Kepler/1.1 (Linux; AFTCL001)", Fire TV's own OS
    {"firetv", kSetTopBox},
    {"tivimate", kSetTopBox},       // an IPTV player made for Android TV boxes
    {"tv bro/", kSetTopBox},        // a browser made for Android TV
    {"silk-accelerated", kTablet},  // Kindle Fire's Silk in desktop mode
    {"maemo browser", kMobile},     // the Nokia N900's browser
    {"googletv", kSmartTv},
    {"google tv", kSmartTv},
    {"android tv", kSmartTv},
    {"androidtv", kSmartTv},
    {"smarttv", kSmartTv},
    {"smart-tv", kSmartTv},
    {"smart tv", kSmartTv},
    {"netcast", kSmartTv},
    {"nettv", kSmartTv},
    {"vidaa", kSmartTv},
    {"opera tv", kSmartTv},
    {"omi/", kSmartTv, true},  // Opera's TV SDK, not "XiaoMi/"
    {"maple", kSmartTv, true},
    {"viera", kSmartTv, true},  // not "RIVIERA"
    {"bravia", kSmartTv},
    {"aquos", kSmartTv},
    {"tizen tv", kSmartTv},
    {"tv safari", kSmartTv},
    {"(tv;", kSmartTv},
    {"; tv)", kSmartTv},
    {"espial", kSmartTv},
    {"tclwebkit", kSmartTv},  // TCL's TV browser engine
    {"tivo", kSmartTv, true},
    {"ce-html", kSmartTv},
    {"vizio", kSmartTv},
    {"brightsign", kSmartTv},  // signage players drive screens like TVs
    {", wired)", kSmartTv},    // Opera's TV SDK: "(Vendor, Model, wired)"
    {", wireless)", kSmartTv},
    {",wired)", kSmartTv},
    {";wired)", kSmartTv},
    {"kindle/", kEReader},
    {"kobo", kEReader},
    {"tolino", kEReader},
    {"surfpad", kTablet},  // PocketBook's Android tablets
    {"pocketbook", kEReader},
});

// Tokens that only hint at the class: the model name, when it says more, wins over them.
constexpr std::array kHintTokens = std::to_array<TokenRule>({
    {"/apad", kTablet},           // Yandex apps' tablet builds
    {"android-tablet", kTablet},  // apps' tablet builds: "spotify_android-tablet"
    {"dv(ipad", kTablet},         // UC Browser's compact iOS form
    {"dv(iph", kMobile},
    {"fb4a", kMobile},     // Facebook for Android, phone build
    {"docomo/", kMobile},  // Japanese i-mode handsets
    {"lumia", kMobile},    // Windows phones whose browsers claim a desktop
    {"palmsource", kMobile},
    // Desktop systems the OS detector does not name.
    {"os/2", kDesktop, true},  // not "KaiOS/2.5"
    {"cygwin", kDesktop},
    {"syllable", kDesktop},
    {"inferno", kDesktop, true},
    {"wtos", kDesktop, true},  // Dell Wyse ThinOS
    // Speaker makers' controller apps run on phones and say so.
    {"ipad", kTablet},
    {"iphone", kMobile},
    {"alexamediaplayer", kVoice},
    {"sonos", kVoice},
    {"echo_dot", kVoice},
});

bool HasToken(const UaText& ua, const TokenRule& rule) {
  if (!rule.word_start) return ua.Has(rule.token);
  for (std::size_t at = ua.Find(rule.token); at != UaText::npos; at = ua.Find(rule.token, at + 1)) {
    if (at == 0 || !IsAlpha(ua.lower()[at - 1])) return true;
  }
  return false;
}

template <std::size_t N>
DeviceType FromTokens(const UaText& ua, const std::array<TokenRule, N>& rules) {
  for (const TokenRule& rule : rules) {
    if (HasToken(ua, rule)) return rule.type;
  }
  return kUnknown;
}

bool IsAndroidFamily(std::string_view os) {
  return os == "Android" || os == "HarmonyOS" || os == "Fire OS";
}

// Android's convention: phones' browsers say "Mobile", tablets' do not. Apps that are not
// browsers ("Dalvik/2.1.0 (Linux; U; Android 10; …)") rarely follow it, and most Android
// devices are phones, so those count as mobile.
DeviceType AndroidClass(const UaText& ua, const OsGuess& os) {
  if (ua.Has("; tablet;") || ua.Has("(tablet;")) return kTablet;  // Firefox for Android
  if (ua.Has("mobile") || ua.Has("elibom")) return kMobile;
  if (LeadingInt(os.version) == 3) return kTablet;  // Honeycomb shipped on tablets only
  // Chrome always sends "Safari/537.36" after its own version: a UA that stops at the Chrome
  // version was cut short, and the "Mobile" it lacks says nothing.
  const bool browser = ua.FindProduct("safari") != nullptr || ua.FindProduct("firefox") != nullptr;
  return browser ? kTablet : kMobile;
}

DeviceType AppleClass(const UaText& ua, const OsGuess& os) {
  if (os.name == "watchOS") return kWearable;
  if (ua.Has("ipad")) return kTablet;
  if (ua.Has("iphone") || ua.Has("ipod")) return kMobile;
  return kUnknown;
}

bool IsPhoneOs(std::string_view os) {
  for (std::string_view name : {"Windows Phone", "Windows Mobile", "KaiOS", "Symbian",
                                "BlackBerry OS", "Bada", "Java ME", "Brew"}) {
    if (os == name) return true;
  }
  return false;
}

DeviceType DesktopClass(const UaText& ua, const OsGuess& os) {
  for (std::string_view name : {"Windows", "macOS", "ChromeOS", "FreeBSD", "OpenBSD", "NetBSD"}) {
    if (os.name == name) return kDesktop;
  }
  // Linux counts as a desktop only with a desktop display server or a PC processor (text-mode
  // browsers name no display server); embedded Linux (TVs, players, kiosks) names neither.
  if (os.name != "Linux") return kUnknown;
  const bool desktop = ua.Has("x11") || ua.Has("wayland") || ua.Has(" i686") || ua.Has(" x86_64");
  return desktop ? kDesktop : kUnknown;
}

// Handsets without a recognised OS: WAP/MIDP stacks, their browsers (Openwave's also as
// "UP/4.1"), Siemens' "SIE-" names, a feature phone's "/Screen-240X320", and the "Mobi" token
// that browsers add on phones.
bool LooksLikeHandset(const UaText& ua) {
  for (std::string_view token :
       {"midp", "cldc", "up.browser", " up/", "wap", "netfront", "obigo", "maui", "opera mini",
        "ucweb", "nokia", "sonyericsson", "sie-", "/screen-", "iemobile", "mobi"}) {
    if (ua.Has(token)) return true;
  }
  return false;
}

DeviceType ClassFromOs(const UaText& ua, const OsGuess& os) {
  if (IsAndroidFamily(os.name)) return AndroidClass(ua, os);
  if (os.name == "iOS" || os.name == "iPadOS" || os.name == "watchOS") return AppleClass(ua, os);
  if (IsPhoneOs(os.name)) return ua.Has("playbook") ? kTablet : kMobile;
  if (os.name == "Firefox OS" || os.name == "Tizen" || os.name == "webOS") {
    if (ua.Has("tablet")) return kTablet;
    return ua.Has("mobile") ? kMobile : kUnknown;
  }
  const DeviceType desktop = DesktopClass(ua, os);
  if (desktop != kUnknown) return desktop;
  if (ua.Has("tablet")) return kTablet;
  return LooksLikeHandset(ua) ? kMobile : kUnknown;
}

// Android build IDs carry the platform branch in their second letter: "PTT1.190716.001",
// "QTG3.200305.006" and "STTC.230104.002" are Android TV builds, "NWD1.171016.002" a Wear OS
// one; phones' builds read "TP1A.220624.014", "PPR1.180610.011".
std::string_view BuildId(const UaText& ua) {
  const std::size_t at = ua.Find("build/");
  return at == UaText::npos ? std::string_view() : ua.lower().substr(at + 6);
}

DeviceType FromBuildBranch(const UaText& ua) {
  const std::string_view id = BuildId(ua);
  if (id.size() < 12 || !IsAlpha(id[0]) || !IsAlnum(id[2]) || !IsAlnum(id[3]) || id[4] != '.' ||
      id[11] != '.' || !std::all_of(id.begin() + 5, id.begin() + 11, IsDigit)) {
    return kUnknown;
  }
  if (id[1] == 't') return kSmartTv;
  return id[1] == 'w' ? kWearable : kUnknown;
}

// Builds that keep AOSP's development ID "PI" (Pie) are not certified ones; they come from
// operators' and ODMs' TV boxes ("Amigo7xSCB Build/PI").
bool IsUncertifiedPieBuild(const UaText& ua) {
  const std::string_view id = BuildId(ua);
  return id.starts_with("pi") && (id.size() == 2 || id[2] == ')' || id[2] == ';');
}

// Strongest evidence first: class tokens and the platform build, then the model's naming, then
// weaker hints, then the platform's own conventions.
DeviceType DeviceClass(const UaText& ua, const OsGuess& os, std::string_view model,
                       std::string_view lower_model) {
  DeviceType type = FromTokens(ua, kClassTokens);
  if (type == kUnknown) type = FromBuildBranch(ua);
  if (type != kUnknown) return type;
  if (const std::optional<DeviceType> by_model = ClassifyModel(model, lower_model)) {
    return *by_model;
  }
  if (IsUncertifiedPieBuild(ua)) return kSetTopBox;
  type = FromTokens(ua, kHintTokens);
  // Yandex's TV builds end with a bare " TV" product.
  if (type == kUnknown && ua.lower().ends_with(" tv")) type = kSmartTv;
  if (type == kUnknown) type = ClassFromOs(ua, os);
  return type;
}

std::string_view AppleModel(const UaText& ua) {
  if (ua.Has("ipad")) return "iPad";
  if (ua.Has("iphone")) return "iPhone";
  if (ua.Has("ipod")) return "iPod";
  if (ua.Has("macintosh")) return "Mac";
  return {};
}

// "SAMSUNG SM-G991B" → "SM-G991B" once the brand is known.
std::string_view WithoutBrandWord(std::string_view model, std::string_view brand) {
  if (brand.empty() || model.size() <= brand.size() + 1) return model;
  for (std::size_t i = 0; i < brand.size(); ++i) {
    if (ToLower(model[i]) != ToLower(brand[i])) return model;
  }
  const char separator = model[brand.size()];
  if (separator != ' ' && separator != '-' && separator != '_') return model;
  return Trim(model.substr(brand.size() + 1));
}

}  // namespace

DeviceGuess DetectDevice(const UaText& ua, const OsGuess& os, const ModelSpan& model) {
  std::array<char, 64> buffer{};
  const std::size_t length = std::min(model.text.size(), buffer.size());
  for (std::size_t i = 0; i < length; ++i) buffer[i] = ToLower(model.text[i]);
  const std::string_view lower_model(buffer.data(), length);

  DeviceGuess guess;
  guess.type = DeviceClass(ua, os, model.text.substr(0, length), lower_model);
  const std::string_view apple = AppleModel(ua);
  if (!apple.empty() && (os.name == "iOS" || os.name == "iPadOS" || os.name == "macOS")) {
    guess.brand = "Apple";
    guess.model = apple;
  } else {
    guess.brand = BrandOfModel(lower_model);
    guess.model = WithoutBrandWord(model.text, guess.brand);
  }
  return guess;
}

}  // namespace sightline::detection::ua
