#include "detection/ua_model_classes.h"

#include <algorithm>
#include <array>

#include "detection/ua_text.h"

namespace sightline::detection::ua {
namespace {

enum class Where {
  kPrefix,           // the model starts with the pattern (vendor model-number schemes)
  kWordStart,        // a word of the model starts with it ("SAMSUNG SM-T237P", "HX-43U")
  kWordEnd,          // a word ends with it ("GigaTV", "QLED50")
  kWord,             // a whole word ("Tab 10", "Tab10": digits do not join words)
  kAnywhere,         // anywhere ("MediaBox", "XiaoxinPad")
  kBeforeDigit,      // followed by a digit ("LED43")
  kNotAfterDigit,    // not preceded by a digit and ending a word ("SMART4K", not "SO-04K")
  kPrefixThenDigit,  // the model starts with it and a digit follows ("TZ711", "KD-55X")
  kCode,  // a word starts with it and no digit follows ("X96Max", "pendoo T95", not "T958")
};

struct ModelRule {
  std::string_view pattern;  // lower-case
  Where where;
  DeviceType type;
};

using enum DeviceType;

// First match wins, so the narrower classes (a "CarPad" is a car unit, a "Gamepad" a console)
// come before the broad tablet and TV patterns.
constexpr std::array kModelRules = std::to_array<ModelRule>({
    // Cars ("Tesla" alone is also a phone brand; the car's browser says "Tesla/").
    {"polestar", Where::kAnywhere, kAutomotive},
    {"carpad", Where::kAnywhere, kAutomotive},
    {"automotive", Where::kAnywhere, kAutomotive},
    {"car", Where::kWord, kAutomotive},
    // Handheld consoles running Android.
    {"retroid", Where::kAnywhere, kHandheldGameConsole},
    {"gamepad", Where::kAnywhere, kHandheldGameConsole},
    {"anbernic", Where::kAnywhere, kHandheldGameConsole},
    {"ayaneo", Where::kAnywhere, kHandheldGameConsole},
    {"razer edge", Where::kAnywhere, kHandheldGameConsole},
    {"steam deck", Where::kAnywhere, kHandheldGameConsole},
    // Headsets ("Quest" alone is also a phone range, see IsMetaQuest).
    {"oculus", Where::kAnywhere, kXr},
    {"pico", Where::kWord, kXr},
    // Tablets that share a laptop line's name.
    {"tablet", Where::kAnywhere, kTablet},
    // Laptops and Chromebooks running Android builds.
    {"chromebook", Where::kAnywhere, kDesktop},
    {"inspiron", Where::kAnywhere, kDesktop},
    {"latitude", Where::kAnywhere, kDesktop},
    {"vostro", Where::kAnywhere, kDesktop},
    {"aspire", Where::kAnywhere, kDesktop},
    {"travelmate", Where::kAnywhere, kDesktop},
    {"elitebook", Where::kAnywhere, kDesktop},
    {"probook", Where::kAnywhere, kDesktop},
    {"thinkpad", Where::kAnywhere, kDesktop},
    {"macbook", Where::kAnywhere, kDesktop},
    {"notebook", Where::kAnywhere, kDesktop},
    {"laptop", Where::kAnywhere, kDesktop},
    // Watches and glasses.
    {"watch", Where::kAnywhere, kWearable},
    {"wear", Where::kWord, kWearable},
    {"glass", Where::kWord, kWearable},
    {"sm-r", Where::kWordStart, kWearable},  // Samsung's wearables range
    // Smart speakers and displays.
    {"aeo", Where::kPrefix, kVoice},  // Amazon Echo device codes
    {"station", Where::kWordEnd, kVoice},
    // E-ink readers.
    {"kobo", Where::kAnywhere, kEReader},
    {"tolino", Where::kAnywhere, kEReader},
    {"pocketbook", Where::kAnywhere, kEReader},
    {"boox", Where::kAnywhere, kEReader},
    // Boxes, sticks and dongles that drive a TV.
    {"aft", Where::kPrefix, kSetTopBox},  // Amazon Fire TV device codes
    {"chromecast", Where::kAnywhere, kSetTopBox},
    {"box", Where::kWordEnd, kSetTopBox},
    {"mibox", Where::kAnywhere, kSetTopBox},
    {"mbox", Where::kAnywhere, kSetTopBox},
    {"tvbox", Where::kAnywhere, kSetTopBox},
    {"tv box", Where::kAnywhere, kSetTopBox},
    {"tv-box", Where::kAnywhere, kSetTopBox},
    {"stb", Where::kAnywhere, kSetTopBox},
    {"iptv", Where::kAnywhere, kSetTopBox},
    {"ott", Where::kWord, kSetTopBox},
    {"mxq", Where::kAnywhere, kSetTopBox},
    {"stick", Where::kWordStart, kSetTopBox},
    {"dongle", Where::kAnywhere, kSetTopBox},
    {"player", Where::kWord, kSetTopBox},
    // Android TV box makers and ranges.
    {"x96", Where::kCode, kSetTopBox},
    {"h96", Where::kCode, kSetTopBox},
    {"t95", Where::kCode, kSetTopBox},
    {"a95x", Where::kCode, kSetTopBox},
    {"tx3", Where::kCode, kSetTopBox},
    {"m8s", Where::kCode, kSetTopBox},
    {"hk1", Where::kCode, kSetTopBox},
    {"ugoos", Where::kAnywhere, kSetTopBox},
    {"zidoo", Where::kAnywhere, kSetTopBox},
    {"formuler", Where::kAnywhere, kSetTopBox},
    {"vontar", Where::kAnywhere, kSetTopBox},
    {"vorke", Where::kAnywhere, kSetTopBox},
    {"pendoo", Where::kAnywhere, kSetTopBox},
    {"gtking", Where::kAnywhere, kSetTopBox},
    {"beelink", Where::kAnywhere, kSetTopBox},
    {"mecool", Where::kAnywhere, kSetTopBox},
    {"tanix", Where::kAnywhere, kSetTopBox},
    {"transpeed", Where::kAnywhere, kSetTopBox},
    {"minix", Where::kAnywhere, kSetTopBox},
    {"rombica", Where::kAnywhere, kSetTopBox},
    {"iconbit", Where::kAnywhere, kSetTopBox},
    {"evpad", Where::kAnywhere, kSetTopBox},
    {"dune hd", Where::kAnywhere, kSetTopBox},
    // Televisions.
    {"bravia", Where::kAnywhere, kSmartTv},
    {"kd-", Where::kPrefixThenDigit, kSmartTv},  // Sony TV model numbers
    {"xbr-", Where::kPrefixThenDigit, kSmartTv},
    {"mstar", Where::kAnywhere, kSmartTv},  // TV chipsets
    {"amlogic", Where::kAnywhere, kSetTopBox},
    {"smarttv", Where::kAnywhere, kSmartTv},
    {"smart_tv", Where::kAnywhere, kSmartTv},
    {"smart tv", Where::kAnywhere, kSmartTv},
    {"android tv", Where::kAnywhere, kSmartTv},
    {"androidtv", Where::kAnywhere, kSmartTv},
    {"mitv", Where::kAnywhere, kSmartTv},
    {"bntv", Where::kPrefix, kTablet},  // Barnes & Noble Nook tablets, not TVs
    {"tv", Where::kWordStart, kSmartTv},
    {"tv", Where::kWordEnd, kSmartTv},
    {"atv", Where::kWordStart, kSmartTv},  // "ATV4": Android TV builds
    {"dtv", Where::kWordStart, kSmartTv},
    {"led", Where::kBeforeDigit, kSmartTv},  // "LED43…", "QLED50…": panel type, then size
    {"uhd", Where::kWordEnd, kSmartTv},
    {"4k", Where::kNotAfterDigit, kSmartTv},  // "MX-4K", "SMART4K"; not "SO-04K"
    {"dvb", Where::kAnywhere, kSmartTv},      // a broadcast tuner
    {"shell", Where::kWord, kSmartTv},        // an Android TV platform sold under many brands
    // Tablets: model-number ranges vendors use only for tablets, and tablet words.
    {"sm-t", Where::kWordStart, kTablet},
    {"sm-x", Where::kWordStart, kTablet},
    {"sm-p", Where::kWordStart, kTablet},
    {"gt-p", Where::kWordStart, kTablet},
    {"gt-n80", Where::kWordStart, kTablet},
    {"gt-n51", Where::kWordStart, kTablet},
    {"kindle", Where::kAnywhere, kTablet},
    {"nexus 7", Where::kAnywhere, kTablet},
    {"nexus 9", Where::kAnywhere, kTablet},
    {"nexus 10", Where::kAnywhere, kTablet},
    {"pixel c", Where::kAnywhere, kTablet},
    {"pixel tablet", Where::kAnywhere, kTablet},
    {"tb-", Where::kWordStart, kTablet},  // Lenovo Tab
    {"tb1", Where::kWordStart, kTablet},
    {"tb2", Where::kWordStart, kTablet},
    {"tb3", Where::kWordStart, kTablet},
    {"tb8", Where::kWordStart, kTablet},
    {"yt-", Where::kWordStart, kTablet},  // Lenovo Yoga Tab
    {"yt3-", Where::kWordStart, kTablet},
    {"opd", Where::kPrefix, kTablet},       // OPPO / OnePlus Pad
    {"rmp", Where::kPrefix, kTablet},       // realme Pad
    {"sgp", Where::kPrefix, kTablet},       // Sony Xperia Tablet
    {"lg-v4", Where::kWordStart, kTablet},  // LG G Pad
    {"lg-v5", Where::kWordStart, kTablet},
    {"lg-v7", Where::kWordStart, kTablet},
    {"a1-", Where::kPrefix, kTablet},  // Acer Iconia
    {"b1-", Where::kPrefix, kTablet},
    {"b3-", Where::kPrefix, kTablet},
    {"pmt", Where::kPrefix, kTablet},        // Prestigio MultiPad
    {"iplay", Where::kAnywhere, kTablet},    // Alldocube
    {"plane ", Where::kWordStart, kTablet},  // Digma's tablet ranges
    {"plane_", Where::kWordStart, kTablet},
    {"optima ", Where::kWordStart, kTablet},
    {"citi ", Where::kWordStart, kTablet},
    {"kids", Where::kAnywhere, kTablet},
    {"me17", Where::kWordStart, kTablet},  // ASUS MeMO Pad / ZenPad codes
    {"me30", Where::kWordStart, kTablet},
    {"me37", Where::kWordStart, kTablet},
    {"me57", Where::kWordStart, kTablet},
    {"p00", Where::kWordStart, kTablet},
    {"p01", Where::kWordStart, kTablet},
    {"p02", Where::kWordStart, kTablet},
    {"rct6", Where::kPrefix, kTablet},  // RCA Voyager
    {"mz60", Where::kPrefix, kTablet},  // Motorola Xoom
    {"vankyo", Where::kAnywhere, kTablet},
    {"teclast", Where::kAnywhere, kTablet},
    {"chuwi", Where::kAnywhere, kTablet},
    {"alldocube", Where::kAnywhere, kTablet},
    {"nabi", Where::kWordStart, kTablet},
    {"kurio", Where::kAnywhere, kTablet},
    {"flyer", Where::kAnywhere, kTablet},  // HTC Flyer
    {"venue", Where::kWord, kTablet},      // Dell Venue
    {"slate", Where::kWord, kTablet},
    {"tz", Where::kPrefixThenDigit, kTablet},  // Irbis tablets
    {"xoom", Where::kAnywhere, kTablet},
    {"playbook", Where::kAnywhere, kTablet},
    {"iconia", Where::kAnywhere, kTablet},
    {"transformer", Where::kAnywhere, kTablet},
    {"nook", Where::kAnywhere, kTablet},
    {"surftab", Where::kAnywhere, kTablet},
    {"tablet", Where::kAnywhere, kTablet},
    {"tab", Where::kAnywhere, kTablet},
    {"padfone", Where::kAnywhere, kMobile},  // ASUS's phone that docks into a tablet
    {"coolpad", Where::kAnywhere, kMobile},  // a phone brand, not a pad
    // Phone model-number schemes: these phones also browse without "Mobile" (foldables
    // unfolded, "desktop site" mode), so the scheme outranks the missing token.
    {"sm-a", Where::kWordStart, kMobile},
    {"sm-e", Where::kWordStart, kMobile},
    {"sm-f", Where::kWordStart, kMobile},
    {"sm-g", Where::kWordStart, kMobile},
    {"sm-j", Where::kWordStart, kMobile},
    {"sm-m", Where::kWordStart, kMobile},
    {"sm-n", Where::kWordStart, kMobile},
    {"sm-s", Where::kWordStart, kMobile},
    {"sm-w", Where::kWordStart, kMobile},
    {"cph", Where::kPrefixThenDigit, kMobile},  // OPPO
    {"rmx", Where::kPrefixThenDigit, kMobile},  // realme
    {"pad", Where::kAnywhere, kTablet},
    {"mid", Where::kBeforeDigit, kTablet},  // "mobile internet device": "MID713", "MID-703"
    {"mid-", Where::kWordStart, kTablet},
    {"wifi", Where::kAnywhere, kTablet},  // phones never advertise being Wi-Fi only
    {"wi-fi", Where::kAnywhere, kTablet},
});

bool IsWordStart(std::string_view text, std::size_t at) {
  return at == 0 || !IsAlpha(text[at - 1]);
}
bool IsWordEnd(std::string_view text, std::size_t end) {
  return end == text.size() || !IsAlnum(text[end]);
}

bool Matches(std::string_view model, const ModelRule& rule) {
  if (rule.where == Where::kPrefix) return model.starts_with(rule.pattern);
  if (rule.where == Where::kPrefixThenDigit) {
    return model.starts_with(rule.pattern) && model.size() > rule.pattern.size() &&
           IsDigit(model[rule.pattern.size()]);
  }
  for (std::size_t at = model.find(rule.pattern); at != std::string_view::npos;
       at = model.find(rule.pattern, at + 1)) {
    const std::size_t end = at + rule.pattern.size();
    switch (rule.where) {
      case Where::kWordStart:
        if (IsWordStart(model, at)) return true;
        break;
      case Where::kWordEnd:
        if (IsWordEnd(model, end)) return true;
        break;
      case Where::kWord:
        if (IsWordStart(model, at) && (end == model.size() || !IsAlpha(model[end]))) return true;
        break;
      case Where::kCode:
        if (IsWordStart(model, at) && (end == model.size() || !IsDigit(model[end]))) return true;
        break;
      case Where::kBeforeDigit:
        if (end < model.size() && IsDigit(model[end])) return true;
        break;
      case Where::kNotAfterDigit:
        if ((at == 0 || !IsDigit(model[at - 1])) && (end == model.size() || !IsAlpha(model[end]))) {
          return true;
        }
        break;
      default:
        return true;
    }
  }
  return false;
}

// TV makers put the screen diagonal in inches into model numbers, after at most a few brand
// letters and before an upper-case series letter, with a series number somewhere after:
// "43LU8010T", "H32G8000KW", "32LEX-7127" (but not the tablet "T40Pro").
bool LooksLikeTvModelNumber(std::string_view model) {
  constexpr std::array<int, 17> kScreenSizes = {24, 28, 32, 39, 40, 42, 43, 48, 49,
                                                50, 55, 58, 65, 70, 75, 85, 86};
  std::size_t run_start = 0;
  for (std::size_t i = 0; i <= model.size(); ++i) {
    if (i < model.size() && IsAlnum(model[i])) continue;
    const std::string_view run = model.substr(run_start, i - run_start);
    const std::size_t begin = run_start;
    run_start = i + 1;
    std::size_t letters = 0;
    while (letters < run.size() && IsAlpha(run[letters])) ++letters;
    if (run.size() < (letters == 0 ? 5u : 6u) || letters > 4 || letters + 3 > run.size()) continue;
    if (!IsDigit(run[letters]) || !IsDigit(run[letters + 1])) continue;
    const char series = run[letters + 2];
    if (series < 'A' || series > 'Z') continue;
    const std::string_view after = model.substr(begin + letters + 3);
    if (std::none_of(after.begin(), after.end(), IsDigit)) continue;
    const int inches = (run[letters] - '0') * 10 + (run[letters + 1] - '0');
    if (std::find(kScreenSizes.begin(), kScreenSizes.end(), inches) != kScreenSizes.end()) {
      return true;
    }
  }
  return false;
}

// Meta's headsets report "Quest", "Quest 2", "Quest 3S", "Quest Pro"; phone ranges reuse the
// word with longer numbers ("Quest 410").
bool IsMetaQuest(std::string_view model) {
  if (model == "quest" || model == "quest pro") return true;
  if (!model.starts_with("quest ") || model.size() < 7 || !IsDigit(model[6])) return false;
  const std::string_view rest = model.substr(7);
  return rest.empty() || rest == "s";
}

// Amazon Fire tablets: "KF" and letters only ("KFTT", "KFMAWI").
bool IsAmazonTabletCode(std::string_view model) {
  if (!model.starts_with("kf") || model.size() < 4 || model.size() > 8) return false;
  return std::all_of(model.begin(), model.end(), IsAlpha);
}

// Huawei's tablet model codes (MediaPad, MatePad): the code, up to two generation or variant
// characters, then "-": "AGS2-L09", "BAH3-W09".
bool IsHuaweiTabletCode(std::string_view model) {
  constexpr std::array<std::string_view, 19> kCodes = {
      "ags", "bah", "kob", "scm", "mrx", "dby", "bg2", "jdn", "cmr", "btv",
      "agr", "krj", "hdn", "wgr", "dbr", "bzt", "agm", "bzk", "vrd"};
  for (std::string_view code : kCodes) {
    if (!model.starts_with(code)) continue;
    std::size_t at = code.size();
    while (at < model.size() && at < code.size() + 2 && IsAlnum(model[at])) ++at;
    if (at < model.size() && model[at] == '-') return true;
  }
  return false;
}

// Model codes used only for phones: vivo "V2066BA" (V and four digits), OPPO's Chinese range
// "PEGM10" (P, three letters, two digits), Huawei's global LTE variants "ICL-LX9", "VNS-L22".
bool IsPhoneModelCode(std::string_view model) {
  const auto digits = [&](std::size_t from, std::size_t count) {
    if (from + count > model.size()) return false;
    return std::all_of(model.begin() + from, model.begin() + from + count, IsDigit);
  };
  const auto letters = [&](std::size_t from, std::size_t count) {
    if (from + count > model.size()) return false;
    return std::all_of(model.begin() + from, model.begin() + from + count, IsAlpha);
  };
  if (model[0] == 'v' && digits(1, 4) && (model.size() == 5 || IsAlpha(model[5]))) return true;
  if (model.size() == 6 && model[0] == 'p' && letters(1, 3) && digits(4, 2)) return true;
  const std::size_t dash = model.find('-');
  if (dash != 3 || !letters(0, 3)) return false;
  // Huawei's cellular variants: "-LX1", "-NX9", "-L22", "-N29", "-AL10", "-AN00", "-TL00".
  // Its tablets reuse some of them, but their codes were matched before this runs.
  const std::size_t v = dash + 1;
  const auto at = [&](std::string_view prefix) { return model.substr(v).starts_with(prefix); };
  if ((at("lx") || at("nx")) && digits(v + 2, 1)) return true;
  if ((at("l") || at("n")) && digits(v + 1, 2)) return true;
  return (at("al") || at("an") || at("tl")) && digits(v + 2, 2);
}

// Huawei and Honor give Wi-Fi-only tablets the "-W09"/"-W19" variant of a model code
// ("BG2-W09"); their phones always carry a cellular variant.
bool IsWifiOnlyModelCode(std::string_view model) {
  const std::size_t dash = model.find("-w");
  if (dash == std::string_view::npos || dash < 3 || dash + 4 > model.size()) return false;
  const std::size_t end = dash + 4;
  return IsDigit(model[dash + 2]) && IsDigit(model[dash + 3]) &&
         (end == model.size() || !IsAlnum(model[end])) && IsAlpha(model[0]);
}

}  // namespace

DeviceType ClassifyModel(std::string_view model, std::string_view lower_model) {
  if (lower_model.empty()) return kUnknown;
  if (IsMetaQuest(lower_model)) return kXr;
  if (IsAmazonTabletCode(lower_model) || IsHuaweiTabletCode(lower_model)) return kTablet;
  if (IsPhoneModelCode(lower_model)) return kMobile;
  if (IsWifiOnlyModelCode(lower_model)) return kTablet;
  for (const ModelRule& rule : kModelRules) {
    if (Matches(lower_model, rule)) return rule.type;
  }
  return LooksLikeTvModelNumber(model) ? kSmartTv : kUnknown;
}

}  // namespace sightline::detection::ua
