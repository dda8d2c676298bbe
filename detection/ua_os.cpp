#include "detection/ua_os.h"

#include <array>

namespace sightline::detection::ua {
namespace {

struct NtVersion {
  std::string_view nt;
  std::string_view name;
};

// Windows 11 still sends "Windows NT 10.0"; only Sec-CH-UA-Platform-Version tells it apart.
constexpr std::array kNtVersions = std::to_array<NtVersion>({
    {"10.0", "10"},
    {"6.4", "10"},
    {"6.3", "8.1"},
    {"6.2", "8"},
    {"6.1", "7"},
    {"6.0", "Vista"},
    {"5.2", "XP"},
    {"5.1", "XP"},
    {"5.01", "2000"},
    {"5.0", "2000"},
    {"4.0", "NT 4.0"},
});

// "10_15_7" → "10.15.7"; a trailing separator is dropped.
std::string Dotted(std::string_view number) {
  std::string out(number);
  for (char& c : out) {
    if (c == '_') c = '.';
  }
  while (!out.empty() && out.back() == '.') out.pop_back();
  return out;
}

// The version written after the first of `words` present in the UA.
std::string VersionAfter(const UaText& ua, std::initializer_list<std::string_view> words) {
  for (std::string_view word : words) {
    const std::size_t at = ua.Find(word);
    if (at != UaText::npos) return Dotted(ua.NumberAt(at + word.size()));
  }
  return {};
}

bool DetectConsoleOs(const UaText& ua, OsGuess& out) {
  if (ua.Has("xbox")) {
    out = {"Xbox", {}};
  } else if (ua.Has("playstation") || ua.Has("(ps3") || ua.Has("(ps4") || ua.Has("(ps5")) {
    out = {"PlayStation", {}};
  } else if (ua.Has("nintendo")) {
    out = {"Nintendo", {}};
  } else {
    return false;
  }
  return true;
}

bool DetectMobileOs(const UaText& ua, OsGuess& out) {
  // "WPDesktop" is Windows Phone asking for desktop pages; "wds" is UC Browser's spelling.
  if (ua.Has("windows phone") || ua.Has("wpdesktop") || ua.Has("zunewp7") || ua.Has("; wds ")) {
    out = {"Windows Phone", VersionAfter(ua, {"windows phone os ", "windows phone "})};
  } else if (ua.Has("windows mobile") || ua.Has("windows ce") || ua.Has("wince")) {
    out = {"Windows Mobile", {}};
  } else if (ua.Has("harmonyos") || ua.Has("openharmony")) {
    out = {"HarmonyOS", VersionAfter(ua, {"harmonyos ", "openharmony "})};
  } else if (ua.Has("kaios")) {
    out = {"KaiOS", VersionAfter(ua, {"kaios/", "kaios "})};
  } else if (ua.Has("tizen")) {
    out = {"Tizen", VersionAfter(ua, {"tizen ", "tizen/"})};
  } else if (ua.Has("web0s") || ua.Has("webos") || ua.Has("hpwos")) {
    out = {"webOS", VersionAfter(ua, {"webos/", "webos ", "hpwos/"})};
  } else if (ua.Has("android") || ua.Has("andr0id") || ua.Has("(adr ") || ua.Has("; adr ") ||
             ua.Has("diordna")) {  // Firefox Focus spells it backwards to defeat sniffing
    out = {"Android", VersionAfter(ua, {"android ", "android/", "andr0id ", "adr ", "diordna "})};
  } else {
    return false;
  }
  return true;
}

bool DetectAppleOs(const UaText& ua, OsGuess& out) {
  if (ua.Has("watchos") || ua.Has("watch os")) {
    out = {"watchOS", VersionAfter(ua, {"watchos/", "watchos ", "watch os,", "watch os "})};
    return true;
  }
  if (ua.Has("tvos") || ua.Has("appletv") || ua.Has("apple tv")) {
    out = {"tvOS", VersionAfter(ua, {"tvos/", "tvos "})};
    return true;
  }
  const bool ipad = ua.Has("ipad");
  if (!ipad && !ua.Has("iphone") && !ua.Has("ipod") && !ua.Has("iphone os") && !ua.HasWord("ios")) {
    return false;
  }
  std::string version =
      VersionAfter(ua, {"iphone os ", "cpu os ", "ipados ", "ipados/", "ios ", "ios/"});
  // Apple renamed the iPad's system iPadOS from version 13.
  const bool ipados = ipad && LeadingInt(version) >= 13;
  out = {ipados ? "iPadOS" : "iOS", std::move(version)};
  return true;
}

bool DetectDesktopOs(const UaText& ua, OsGuess& out) {
  if (ua.Has("cros ")) {
    out = {"ChromeOS", {}};
  } else if (ua.Has("mac os x") || ua.Has("macintosh") || ua.Has("mac os/") ||
             ua.Has("mac_powerpc") || ua.HasWord("macos")) {
    out = {"macOS", VersionAfter(ua, {"mac os x ", "mac os/", "macos "})};
  } else if (ua.Has("windows nt")) {
    const std::string nt = VersionAfter(ua, {"windows nt "});
    out = {"Windows", std::string(WindowsVersionName(MajorMinor(nt)))};
  } else if (ua.Has("windows") || ua.Has("win64") || ua.Has("win32") || ua.Has("win98") ||
             ua.Has("win95") || ua.HasWord("win10")) {
    out = {"Windows", ua.Has("98") ? "98" : ""};
  } else if (ua.Has("freebsd") || ua.Has("openbsd") || ua.Has("netbsd")) {
    out = {ua.Has("freebsd") ? "FreeBSD" : (ua.Has("openbsd") ? "OpenBSD" : "NetBSD"), {}};
  } else if (ua.Has("linux") || ua.Has("x11") || ua.Has("ubuntu")) {
    out = {"Linux", {}};
  } else {
    return false;
  }
  return true;
}

bool DetectLegacyMobileOs(const UaText& ua, OsGuess& out) {
  if (ua.Has("symbian") || ua.Has("symbos") || ua.Has("series60") || ua.Has("series 60") ||
      ua.HasWord("s60")) {
    out = {"Symbian", {}};
  } else if (ua.Has("blackberry") || ua.HasWord("bb10") || ua.Has("rim tablet os")) {
    out = {"BlackBerry OS", {}};
  } else if (ua.Has("bada")) {
    out = {"Bada", {}};
  } else if (ua.Has("j2me") || ua.Has("midp")) {
    out = {"Java ME", {}};
  } else if (ua.Has("brew")) {
    out = {"Brew", {}};
  } else {
    return false;
  }
  return true;
}

// Apple's networking stack names Darwin, whose x86_64/arm64 Mac builds say so.
bool DetectDarwin(const UaText& ua, OsGuess& out) {
  if (ua.FindProduct("darwin") == nullptr) return false;
  const bool mac = ua.Has("(x86_64)") || ua.Has("macbook") || ua.Has("imac") || ua.Has("macmini") ||
                   ua.Has("macpro");
  out = {mac ? "macOS" : "iOS", {}};
  return true;
}

// Firefox OS phones and TVs name no OS at all: "(Mobile; rv:…) Gecko/… Firefox/…".
bool DetectFirefoxOs(const UaText& ua, OsGuess& out) {
  if (ua.FindProduct("firefox") == nullptr) return false;
  const std::string_view platform = ua.PlatformComment();
  if (!StartsWithIgnoringCase(platform, "mobile;") &&
      !StartsWithIgnoringCase(platform, "tablet;") && !StartsWithIgnoringCase(platform, "tv;")) {
    return false;
  }
  out = {"Firefox OS", {}};
  return true;
}

}  // namespace

std::string_view WindowsVersionName(std::string_view nt_version) {
  for (const NtVersion& entry : kNtVersions) {
    if (entry.nt == nt_version) return entry.name;
  }
  return {};
}

OsGuess DetectOs(const UaText& ua) {
  // Order matters: consoles and phones also carry desktop tokens ("Windows NT", "Linux").
  OsGuess guess;
  const bool found = DetectConsoleOs(ua, guess) || DetectMobileOs(ua, guess) ||
                     DetectAppleOs(ua, guess) || DetectDesktopOs(ua, guess) ||
                     DetectLegacyMobileOs(ua, guess) || DetectDarwin(ua, guess) ||
                     DetectFirefoxOs(ua, guess);
  return found ? guess : OsGuess{};
}

}  // namespace sightline::detection::ua
