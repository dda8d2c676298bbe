#include "detection/ua_model_classes.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>

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
  kCode,    // a word starts with it and no digit follows ("X96Max", "pendoo T95", not "T958")
  kSeries,  // the model starts with it, then exactly one digit ("KM9 Pro", "TX9S"; not "KM0701")
  kSeriesCode,  // a word starts with it, then one or two letters and a digit ("MIDC901")
  // A word starts with it, then (after at most one "-", "_" or " ") a screen diagonal of 7
  // inches or more: vendors that lead their model numbers with the size ("BQ-7021G",
  // "ELEMENT 8V2", "Nomi_C070034"; not "BQ-5520L").
  kTabletSize,
};

struct ModelRule {
  std::string_view pattern;  // lower-case
  Where where;
  std::optional<DeviceType> type;  // empty: the name says nothing, stop looking
};

using enum DeviceType;

// First match wins, so the narrower classes (a "CarPad" is a car unit, a "Gamepad" a console)
// come before the broad tablet and TV patterns.
constexpr std::array kModelRules = std::to_array<ModelRule>({
    // Cameras and single-board computers run Android too; they are none of the form factors.
    {"ek-g", Where::kWordStart, kUnknown},    // Samsung Galaxy Camera and Galaxy NX
    {"coolpix", Where::kAnywhere, kUnknown},  // Nikon
    {"dmc-", Where::kPrefix, kUnknown},       // Panasonic Lumix
    {"raspberry pi", Where::kAnywhere, kUnknown},
    {"odroid", Where::kWordStart, kUnknown},
    {"orangepi", Where::kAnywhere, kUnknown},
    {"orange pi", Where::kAnywhere, kUnknown},
    {"pine a64", Where::kAnywhere, kUnknown},
    {"tinker board", Where::kAnywhere, kUnknown},
    // Barcode terminals and payment terminals.
    {"idata", Where::kWordStart, kUnknown},
    {"nls-", Where::kPrefix, kUnknown},  // Newland
    {"smartpos", Where::kAnywhere, kUnknown},
    // Cars ("Tesla" alone is also a phone brand; the car's browser says "Tesla/").
    {"polestar", Where::kAnywhere, kAutomotive},
    {"carpad", Where::kAnywhere, kAutomotive},
    {"automotive", Where::kAnywhere, kAutomotive},
    {"car", Where::kWord, kAutomotive},
    {"8227l", Where::kAnywhere, kAutomotive},        // Autochips AC8227L, a head-unit chipset
    {"quad-core t", Where::kAnywhere, kAutomotive},  // Allwinner's T-series car chipsets
    {"1280x480", Where::kAnywhere, kAutomotive},     // the wide panel of head units
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
    {"easynote", Where::kAnywhere, kDesktop},  // Packard Bell
    {"swift sf", Where::kPrefix, kDesktop},    // Acer
    {"netbook", Where::kAnywhere, kDesktop},
    // Watches and glasses.
    {"watch", Where::kAnywhere, kWearable},
    {"wear", Where::kWord, kWearable},
    {"glass", Where::kWord, kWearable},
    {"sm-r", Where::kWordStart, kWearable},       // Samsung's wearables range
    {"gear", Where::kWord, kWearable},            // Samsung Gear watches
    {"moto 360", Where::kAnywhere, kWearable},    // Motorola's watch
    {"opww", Where::kPrefix, kWearable},          // OPPO Watch
    {"lem", Where::kPrefixThenDigit, kWearable},  // LEMFO watches
    {"ow", Where::kPrefixThenDigit, kWearable},   // OPPO Watch: "OW20W1"
    // Smart speakers and displays.
    {"station", Where::kWordEnd, kVoice},
    // E-ink readers.
    {"kobo", Where::kAnywhere, kEReader},
    {"tolino", Where::kAnywhere, kEReader},
    {"pocketbook", Where::kAnywhere, kEReader},
    {"boox", Where::kAnywhere, kEReader},
    // Portable DVD players running Android count as media players, which are mobile.
    {"dvd", Where::kAnywhere, kMobile},
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
    {"x88", Where::kCode, kSetTopBox},        // X88 Pro boxes
    {"gt1", Where::kCode, kSetTopBox},        // Beelink GT1
    {"km", Where::kSeries, kSetTopBox},       // Mecool KM1…KM9
    {"kd", Where::kSeries, kSetTopBox},       // Mecool KD sticks
    {"tx", Where::kSeries, kSetTopBox},       // Tanix TX3…TX9
    {"tox", Where::kSeries, kSetTopBox},      // TOX1, TOX3 (Ugoos)
    {"neo-x", Where::kAnywhere, kSetTopBox},  // Minix NEO X
    {"mk80", Where::kWordStart, kSetTopBox},  // Rikomagic MK802/MK808 sticks
    {"mk90", Where::kWordStart, kSetTopBox},
    {"abx-", Where::kPrefix, kSetTopBox},      // Harper ABX
    {"yundoo", Where::kAnywhere, kSetTopBox},  // box makers
    {"nexon", Where::kAnywhere, kSetTopBox},
    {"andowl", Where::kAnywhere, kSetTopBox},
    {"movix", Where::kAnywhere, kSetTopBox},  // Dom.ru's operator boxes
    // Televisions.
    {"bravia", Where::kAnywhere, kSmartTv},
    {"kd-", Where::kPrefixThenDigit, kSmartTv},  // Sony TV model numbers
    {"xbr-", Where::kPrefixThenDigit, kSmartTv},
    {"ifp", Where::kPrefixThenDigit, kSmartTv},  // interactive flat panels ("IFP6550")
    {"xdh-", Where::kPrefix, kSmartTv},          // Xiaodu smart displays
    {"kant-", Where::kPrefix, kSmartTv},         // Huawei Vision and Smart Screen codes
    {"hege-", Where::kPrefix, kSmartTv},
    {"osca-", Where::kPrefix, kSmartTv},
    // Handsets and tablets with a broadcast tuner ("myA7 DTV", "Odyssey_DTV6"): the name says
    // nothing about the form factor, so the platform decides.
    {" dtv", Where::kAnywhere, std::nullopt},
    {"_dtv", Where::kAnywhere, std::nullopt},
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
    {"uhd", Where::kWordStart, kSmartTv},     // "CRD55-UHD9"
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
    // Ranges numbered by screen size (see kTabletSize): bq, teXet, Archos, Arnova, Sencor,
    // Hometech, Krüger&Matz, Denver, Telefunken, Nomi, ComTrade Tesla, Supra, itel, W&O, i-Joy,
    // Starway.
    {"bq-", Where::kTabletSize, kTablet},
    {"bqru", Where::kTabletSize, kTablet},
    {"tm-", Where::kTabletSize, kTablet},
    {"archos", Where::kTabletSize, kTablet},
    {"archos access", Where::kTabletSize, kTablet},
    {"archos core", Where::kTabletSize, kTablet},
    {"an", Where::kTabletSize, kTablet},
    {"element", Where::kTabletSize, kTablet},
    {"alfa", Where::kTabletSize, kTablet},
    {"eagle", Where::kTabletSize, kTablet},
    {"taq", Where::kTabletSize, kTablet},
    {"tac", Where::kTabletSize, kTablet},
    {"tel", Where::kTabletSize, kTablet},
    {"nomi c", Where::kTabletSize, kTablet},
    {"nomi_c", Where::kTabletSize, kTablet},
    {"tesla l", Where::kTabletSize, kTablet},
    {"supra m", Where::kTabletSize, kTablet},
    {"itel w", Where::kTabletSize, kTablet},  // its phones: "itel W5503", "W6004"
    {"wo", Where::kTabletSize, kTablet},
    {"neon", Where::kTabletSize, kTablet},
    {"andromeda s", Where::kTabletSize, kTablet},
    {"tecno p70", Where::kPrefix, kTablet},        // DroidPad 7
    {"mito t", Where::kPrefixThenDigit, kTablet},  // Mito's T range (its phones are A)
    {"mito_t", Where::kPrefixThenDigit, kTablet},
    {"ccit a", Where::kPrefixThenDigit, kTablet},  // CCIT's A range
    {"ccita", Where::kPrefixThenDigit, kTablet},
    {"mfc", Where::kPrefixThenDigit, kTablet},  // Lexibook
    {"ipa", Where::kPrefixThenDigit, kTablet},  // vivo / iQOO Pad
    {"tdt", Where::kPrefixThenDigit, kTablet},  // TopDevice (its TVs are "TDTV")
    {"rt", Where::kSeries, kTablet},            // Oukitel's rugged tablets
    {"ginzzu gt-", Where::kPrefix, kTablet},    // Ginzzu's GT range (its phones are S, R)
    {"ginzzu_gt-", Where::kPrefix, kTablet},
    {"superion", Where::kAnywhere, kTablet},  // Cherry Mobile
    {"readboy", Where::kAnywhere, kTablet},   // learning tablets
    {"navitel", Where::kAnywhere, kTablet},
    {"numy", Where::kAnywhere, kTablet},        // Ainol
    {"tpc", Where::kWordStart, kTablet},        // "Tablet PC": "TPC-755N", "744TPC"; not "HTPC"
    {"e-board", Where::kAnywhere, kTablet},     // ChiliGreen
    {"aquarius cmp", Where::kPrefix, kTablet},  // Aquarius's tablet range
    {"iball slide", Where::kPrefix, kTablet},   // iBall's tablet range
    {"iball_slide", Where::kPrefix, kTablet},
    {"micromax p", Where::kPrefixThenDigit, kTablet},  // Funbook and Canvas Tab
    {"micromaxp", Where::kPrefixThenDigit, kTablet},
    {"spng", Where::kPrefixThenDigit, kTablet},  // Memup SlidePad
    {"sp70", Where::kPrefix, kTablet},
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
    {"pmt", Where::kPrefix, kTablet},            // Prestigio MultiPad
    {"pmp", Where::kPrefixThenDigit, kTablet},   // Prestigio's older MultiPads
    {"rmd-", Where::kPrefixThenDigit, kTablet},  // Ritmix
    {"ypy", Where::kWord, kTablet},              // Positivo's school tablets
    {"iplay", Where::kAnywhere, kTablet},        // Alldocube
    {"plane ", Where::kWordStart, kTablet},      // Digma's tablet ranges
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
    {"ms", Where::kPrefixThenDigit, kMobile},   // Multilaser, Mobiola: "MS50G", "MS50A4000"
    {"pad", Where::kAnywhere, kTablet},
    {"mid", Where::kBeforeDigit, kTablet},  // "mobile internet device": "MID713", "MID-703"
    {"mid-", Where::kWordStart, kTablet},
    {"mid", Where::kSeriesCode, kTablet},  // "MIDC901", "MIDS747PX"
    {"wifi", Where::kAnywhere, kTablet},   // phones never advertise being Wi-Fi only
    {"wi-fi", Where::kAnywhere, kTablet},
});

bool IsWordStart(std::string_view text, std::size_t at) {
  return at == 0 || !IsAlpha(text[at - 1]);
}
bool IsWordEnd(std::string_view text, std::size_t end) {
  return end == text.size() || !IsAlnum(text[end]);
}

// True when `text` is non-empty and every character passes `predicate`.
bool AllOf(std::string_view text, bool (*predicate)(char)) {
  return !text.empty() && std::all_of(text.begin(), text.end(), predicate);
}

// A number that opens with a screen diagonal of 7 inches or more: "7…", "8…", "9…", "10…" to
// "13…", or zero-padded "07…" to "09…".
bool LeadsWithTabletSize(std::string_view digits) {
  if (digits.empty() || !IsDigit(digits[0])) return false;
  const char first = digits[0];
  const char second = digits.size() > 1 ? digits[1] : '\0';
  if (first >= '7' && first <= '9') return true;
  if (first == '1') return second >= '0' && second <= '3';
  return first == '0' && second >= '7' && second <= '9';
}

// One bit per letter and digit (punctuation and spaces share a bit): a rule whose pattern has a
// character the model lacks cannot match, which rules out most of the table for each model
// before any search.
constexpr std::uint64_t CharacterSet(std::string_view text) {
  std::uint64_t set = 0;
  for (char c : text) {
    if (c >= 'a' && c <= 'z') {
      set |= std::uint64_t{1} << (c - 'a');
    } else if (c >= '0' && c <= '9') {
      set |= std::uint64_t{1} << (26 + c - '0');
    } else {
      set |= std::uint64_t{1} << 36;
    }
  }
  return set;
}

constexpr auto kRuleCharacters = [] {
  std::array<std::uint64_t, kModelRules.size()> sets{};
  for (std::size_t i = 0; i < kModelRules.size(); ++i) {
    sets[i] = CharacterSet(kModelRules[i].pattern);
  }
  return sets;
}();

bool Matches(std::string_view model, const ModelRule& rule) {
  if (rule.where == Where::kPrefix) return model.starts_with(rule.pattern);
  if (rule.where == Where::kPrefixThenDigit || rule.where == Where::kSeries) {
    const std::size_t end = rule.pattern.size();
    if (!model.starts_with(rule.pattern) || model.size() <= end || !IsDigit(model[end])) {
      return false;
    }
    return rule.where == Where::kPrefixThenDigit || end + 1 == model.size() ||
           !IsDigit(model[end + 1]);
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
      case Where::kSeriesCode:
        if (IsWordStart(model, at)) {
          std::size_t letters = 0;
          while (end + letters < model.size() && letters < 3 && IsAlpha(model[end + letters])) {
            ++letters;
          }
          if (letters >= 1 && letters <= 2 && end + letters < model.size() &&
              IsDigit(model[end + letters])) {
            return true;
          }
        }
        break;
      case Where::kTabletSize:
        if (IsWordStart(model, at)) {
          std::size_t number = end;
          if (number < model.size() &&
              (model[number] == '-' || model[number] == '_' || model[number] == ' ')) {
            ++number;
          }
          if (LeadsWithTabletSize(model.substr(number))) return true;
        }
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

// Amazon Echo device codes: "AEO" and two letters ("AEOBC", "AEOKN").
bool IsAmazonEchoCode(std::string_view model) {
  return model.size() == 5 && model.starts_with("aeo") && IsAlpha(model[3]) && IsAlpha(model[4]);
}

// Anbernic's Android handhelds: "RG", three digits and a variant letter ("RG405V", "RG406H");
// bare "RG" numbers are other makers' phones.
bool IsAnbernicCode(std::string_view model) {
  return model.size() == 6 && model.starts_with("rg") && AllOf(model.substr(2, 3), IsDigit) &&
         (model[5] == 'v' || model[5] == 'm' || model[5] == 'h' || model[5] == 'p');
}

// Huawei's and Honor's tablet model codes (MediaPad, MatePad, Honor Pad): the code, up to two
// generation or variant characters, then "-": "AGS2-L09", "BAH3-W09", "GOT-AL09".
bool IsHuaweiTabletCode(std::string_view model) {
  constexpr std::array<std::string_view, 29> kCodes = {
      "ags", "bah", "kob", "scm", "mrx", "dby", "bg2", "jdn", "cmr", "btv",
      "agr", "krj", "hdn", "wgr", "dbr", "bzt", "agm", "bzk", "vrd", "bzc",
      "bzw", "got", "sht", "mon", "brt", "cpn", "bgo", "ple", "gem"};
  for (std::string_view code : kCodes) {
    if (!model.starts_with(code)) continue;
    std::size_t at = code.size();
    while (at < model.size() && at < code.size() + 2 && IsAlnum(model[at])) ++at;
    if (at < model.size() && model[at] == '-') return true;
  }
  return false;
}

// Tablet codes of the Russian and Chinese ODM brands (Digma, SUNWIND, Digiland, Globex, 3Q):
// a word of two series letters, four digits led by the screen size, then the variant letters.
// Digma and its kin write the size plainly with two variant letters ("CITI 7543 3G CS7153MG",
// "Plane 1523 3G PS1135MG", "TT7025MG"); 3Q zero-pads it ("RC0719H", "LC0808B", "BC9710AM")
// or writes its 9.7-inch and 7.85-inch panels as "97" and "78" ("QS9719D", "RC7804F"). Their
// phones use the same shape with sizes 4 to 6 ("VS5016PG").
bool IsSizeCodedTabletCode(std::string_view model) {
  std::size_t begin = model.find_last_of(" _");
  const std::string_view word = model.substr(begin == std::string_view::npos ? 0 : begin + 1);
  if (word.size() < 7 || word.size() > 8 || !AllOf(word.substr(0, 2), IsAlpha) ||
      !AllOf(word.substr(2, 4), IsDigit) || !AllOf(word.substr(6), IsAlpha)) {
    return false;
  }
  const std::string_view digits = word.substr(2, 4);
  if (digits[0] == '0' || digits.starts_with("97") || digits.starts_with("78")) {
    return LeadsWithTabletSize(digits);  // 3Q: "0719", "9719", "7804"
  }
  return word.size() == 8 && LeadsWithTabletSize(digits);
}

// One series letter, the screen size, then the 3G radio that Wi-Fi tablets offer as an option
// ("T74MRi3G", "M9-3G", "T102MS3G"): phones are always cellular and do not say so.
bool IsTabletSizeWith3g(std::string_view model) {
  if (model.size() < 4 || !IsAlpha(model[0]) || !LeadsWithTabletSize(model.substr(1))) return false;
  const std::size_t radio = model.find("3g", 2);
  if (radio == std::string_view::npos) return false;
  std::size_t end = radio;
  if (model[end - 1] == '_' || model[end - 1] == '-' || model[end - 1] == ' ') --end;
  return AllOf(model.substr(1, end - 1), IsAlnum);
}

// Alcatel and TCL number tablets in the 8000s and 9000s ("9032X", "8094T_EEA", "9460G"); their
// phones are 1000s to 7000s. The 6-inch phablets 8050, 9001 and 9008 reuse the tablet range.
bool IsAlcatelTabletNumber(std::string_view model) {
  if (model.size() < 4 || !AllOf(model.substr(0, 4), IsDigit)) return false;
  const std::string_view number = model.substr(0, 4);
  if (number == "8050" || number == "9001" || number == "9008") return false;
  const bool range = number.starts_with("80") || number.starts_with("84") ||
                     (number[0] == '9' && number[1] >= '0' && number[1] <= '4');
  if (!range) return false;
  std::size_t at = 4;
  if (at < model.size() && IsAlpha(model[at])) ++at;  // variant: "9032X"
  if (at < model.size() && IsDigit(model[at])) ++at;  // revision: "9309X2"
  if (at < model.size() && model[at] == '_') return AllOf(model.substr(at + 1), IsAlpha);
  return at == model.size();
}

// Xiaomi's model numbers open with the launch year and month; Redmi Pad codes carry "RP" right
// after it ("23073RPBFL", "24076RP19G").
bool IsXiaomiPadCode(std::string_view model) {
  if (model.size() < 8 || !AllOf(model.substr(0, 4), IsDigit)) return false;
  const std::size_t rp = model.find("rp", 4);
  return rp != std::string_view::npos && rp <= 5 && rp + 2 < model.size() && IsAlnum(model[rp + 2]);
}

// Allview's tablet ranges carry the brand glued to the range name ("AllviewCity",
// "Allview2SpeedDuo", "ALLVIEW SPEEDI") or are Viva H models ("Viva_H701_LTE"); its phones are
// lettered series ("P6_Energy", "X4_Soul").
bool IsAllviewTablet(std::string_view model) {
  if (model.starts_with("viva_h") || model.starts_with("viva h")) {
    return model.size() > 6 && IsDigit(model[6]);
  }
  if (!model.starts_with("allview")) return false;
  std::string_view range = model.substr(7);
  if (!range.empty() && (range[0] == ' ' || IsDigit(range[0]))) range.remove_prefix(1);
  return range.starts_with("speed") || range.starts_with("city");
}

// Walmart's onn. tablets report the retailer's nine-digit item number: "100071481A".
bool IsOnnItemNumber(std::string_view model) {
  return model.size() >= 9 && model.starts_with("100") && AllOf(model.substr(0, 9), IsDigit);
}

// Teclast names its tablets by series letter and a size-like number ending in 0 or 5 ("M40",
// "P20HD", "T50Pro"), then a market suffix or a hardware code in parentheses: "P80_ROW",
// "M40Plus_EEA", "T40 PRO_ROW", "M40(N9H1)".
bool IsTeclastCode(std::string_view model) {
  if (model.size() < 6 || (model[0] != 'm' && model[0] != 'p' && model[0] != 't') ||
      !IsDigit(model[1]) || (model[2] != '0' && model[2] != '5')) {
    return false;
  }
  const std::size_t open = model.find('(');
  if (open != std::string_view::npos) {
    const std::string_view variant = model.substr(3, open - 3);
    return model.size() - open == 6 && model.back() == ')' &&
           std::all_of(variant.begin(), variant.end(), IsAlpha);
  }
  for (std::string_view market : {"_row", "_eea", "_rus"}) {
    if (model.ends_with(market)) return true;
  }
  return false;
}

// Model codes used only for phones: vivo "V2066BA" (V and four digits), OPPO's Chinese range
// "PEGM10" (P, three letters, two digits), Wiko "W-K510" (W-, a series letter, three digits),
// Xiaomi "M2007J3SG" (M, launch year and month, a series letter and number; its K8x series are
// Pad tablets, "M2105K81AC"), Huawei's global LTE variants "ICL-LX9", "VNS-L22".
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
  if (model.starts_with("w-") && letters(2, 1) && digits(3, 3)) return true;
  if (model[0] == 'm' && digits(1, 4) && letters(5, 1) && digits(6, 1) &&
      model.substr(5, 2) != "k8") {
    return true;
  }
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

std::optional<DeviceType> ClassifyModel(std::string_view model, std::string_view lower_model) {
  if (lower_model.empty()) return std::nullopt;
  if (IsMetaQuest(lower_model)) return kXr;
  if (IsAmazonEchoCode(lower_model)) return kVoice;
  if (IsAnbernicCode(lower_model)) return kHandheldGameConsole;
  if (IsAmazonTabletCode(lower_model) || IsHuaweiTabletCode(lower_model) ||
      IsSizeCodedTabletCode(lower_model) || IsAlcatelTabletNumber(lower_model) ||
      IsXiaomiPadCode(lower_model) || IsTeclastCode(lower_model) || IsOnnItemNumber(lower_model) ||
      IsAllviewTablet(lower_model) || IsTabletSizeWith3g(lower_model)) {
    return kTablet;
  }
  if (IsPhoneModelCode(lower_model)) return kMobile;
  if (IsWifiOnlyModelCode(lower_model)) return kTablet;
  const std::uint64_t characters = CharacterSet(lower_model);
  for (std::size_t i = 0; i < kModelRules.size(); ++i) {
    if ((kRuleCharacters[i] & ~characters) != 0) continue;
    if (Matches(lower_model, kModelRules[i])) return kModelRules[i].type;
  }
  if (LooksLikeTvModelNumber(model)) return kSmartTv;
  return std::nullopt;
}

}  // namespace sightline::detection::ua
