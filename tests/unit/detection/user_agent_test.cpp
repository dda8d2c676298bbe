#include "detection/user_agent.h"
#include "sample_user_agents.h"

#include <gtest/gtest.h>

#include <string>
#include <string_view>

// Every User-Agent here is written by hand from the published formats of each product; none
// comes from the labelled corpus (that one only measures, in bench/ua_bench.cpp).
namespace sightline::detection {
namespace {

using samples::kChromeWindows;
using samples::kSafariMac;
using samples::kSafariIphone;
using samples::kChromeAndroidPhone;
using samples::kReducedAndroidPhone;
using samples::kReducedAndroidTablet;

std::string Device(std::string_view ua, const ClientHints& hints = {}) {
  return std::string(DeviceTypeName(ParseUserAgent(ua, hints).device));
}

// ---- Vocabulary

TEST(DeviceTypeName, SpellsTheSpecVocabulary) {
  EXPECT_EQ(DeviceTypeName(DeviceType::kDesktop), "desktop");
  EXPECT_EQ(DeviceTypeName(DeviceType::kSetTopBox), "set_top_box");
  EXPECT_EQ(DeviceTypeName(DeviceType::kHandheldGameConsole), "handheld_game_console");
  EXPECT_EQ(DeviceTypeName(DeviceType::kEReader), "e_reader");
  EXPECT_EQ(DeviceTypeName(DeviceType::kHomeAppliance), "home_appliance");
  EXPECT_EQ(DeviceTypeName(DeviceType::kBot), "bot");
  EXPECT_EQ(DeviceTypeName(DeviceType::kUnknown), "unknown");
}

TEST(SignalSourceName, SpellsTheSpecVocabulary) {
  EXPECT_EQ(SignalSourceName(SignalSource::kBotRule), "BOT_RULE");
  EXPECT_EQ(SignalSourceName(SignalSource::kFormFactors), "FORM_FACTORS");
  EXPECT_EQ(SignalSourceName(SignalSource::kLowEntropyHints), "LOW_ENTROPY_HINTS");
  EXPECT_EQ(SignalSourceName(SignalSource::kUaFused), "UA_FUSED");
  EXPECT_EQ(SignalSourceName(SignalSource::kUaOnly), "UA_ONLY");
  EXPECT_EQ(SignalSourceName(SignalSource::kNone), "NONE");
}

// ---- Browsers and versions

struct BrowserCase {
  std::string_view ua;
  std::string_view browser;
  std::string_view version;
};

TEST(ParseUserAgent, NamesBrowsersAndTheirVersions) {
  const BrowserCase cases[] = {
      {kChromeWindows, "Chrome", "124.0"},
      {kSafariMac, "Safari", "17.4"},
      {kSafariIphone, "Mobile Safari", "17.4"},
      {"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) "
       "Chrome/124.0.0.0 Safari/537.36 Edg/124.0.2478.51",
       "Edge", "124.0"},
      {"Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0", "Firefox",
       "125.0"},
      {"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) "
       "Chrome/123.0.0.0 Safari/537.36 OPR/109.0.0.0",
       "Opera", "109.0"},
      {"Mozilla/5.0 (Linux; Android 13; SM-S911B) AppleWebKit/537.36 (KHTML, like Gecko) "
       "SamsungBrowser/24.0 Chrome/117.0.0.0 Mobile Safari/537.36",
       "Samsung Internet", "24.0"},
      {"Mozilla/5.0 (Linux; U; Android 11; en-US; RMX2185 Build/RP1A.201005.001) "
       "AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/78.0.3904.108 "
       "UCBrowser/13.4.0.1306 Mobile Safari/537.36",
       "UC Browser", "13.4"},
      {"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) "
       "Chrome/122.0.0.0 YaBrowser/24.4.0.0 Safari/537.36",
       "Yandex", "24.4"},
      {"Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) "
       "Chrome/124.0.0.0 Safari/537.36 Vivaldi/6.7.3329.21",
       "Vivaldi", "6.7"},
      {"Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) "
       "Chromium/120.0.6099.224 Chrome/120.0.6099.224 Safari/537.36",
       "Chromium", "120.0"},
      {"Mozilla/5.0 (Linux; Android 9; KFTRWI) AppleWebKit/537.36 (KHTML, like Gecko) "
       "Silk/124.2.1 like Chrome/124.0.6367.82 Safari/537.36",
       "Silk", "124.2"},
      {"Mozilla/5.0 (Linux; Android 12; NOH-NX9; HMSCore 6.13.0.302) AppleWebKit/537.36 "
       "(KHTML, like Gecko) Chrome/114.0.5735.196 HuaweiBrowser/15.0.2.300 Mobile Safari/537.36",
       "Huawei Browser", "15.0"},
      {"Mozilla/5.0 (Linux; U; Android 13; en-gb; 2201117TG Build/TKQ1.221114.001) "
       "AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/112.0.5615.136 Mobile "
       "Safari/537.36 XiaoMi/MiuiBrowser/14.7.5-gn",
       "MIUI Browser", "14.7"},
      {"Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 "
       "(KHTML, like Gecko) CriOS/124.0.6367.88 Mobile/15E148 Safari/604.1",
       "Chrome", "124.0"},
      {"Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 "
       "(KHTML, like Gecko) FxiOS/125.0 Mobile/15E148 Safari/605.1.15",
       "Firefox", "125.0"},
      {"Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 "
       "(KHTML, like Gecko) Version/17.0 EdgiOS/124.2478.50 Mobile/15E148 Safari/605.1.15",
       "Edge", "124.2478"},
      {"Mozilla/5.0 (Windows NT 6.1; WOW64; Trident/7.0; rv:11.0) like Gecko", "IE", "11.0"},
      {"Mozilla/4.0 (compatible; MSIE 8.0; Windows NT 5.1; Trident/4.0)", "IE", "8.0"},
      {"Opera/9.80 (J2ME/MIDP; Opera Mini/9.80 (S60; SymbOS; Opera Mobi/23.348; U; en) "
       "Presto/2.5.25 Version/10.54",
       "Opera Mini", "9.80"},
      {"Mozilla/5.0 (Linux; U; Android 4.0.4; en-us; GT-S7562 Build/IMM76I) AppleWebKit/534.30 "
       "(KHTML, like Gecko) Version/4.0 Mobile Safari/534.30",
       "Android Browser", "4.0"},
  };
  for (const BrowserCase& c : cases) {
    const UserAgentInfo info = ParseUserAgent(c.ua);
    EXPECT_EQ(info.browser, c.browser) << c.ua;
    EXPECT_EQ(info.browser_version, c.version) << c.ua;
    EXPECT_FALSE(info.is_bot) << c.ua;
  }
}

TEST(ParseUserAgent, TellsWebViewsFromTheirBrowsers) {
  const UserAgentInfo android_view = ParseUserAgent(
      "Mozilla/5.0 (Linux; Android 13; SM-A536B Build/TP1A.220624.014; wv) AppleWebKit/537.36 "
      "(KHTML, like Gecko) Version/4.0 Chrome/124.0.6367.82 Mobile Safari/537.36");
  EXPECT_EQ(android_view.browser, "Chrome WebView");
  EXPECT_TRUE(android_view.in_app);

  const UserAgentInfo ios_view = ParseUserAgent(
      "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 "
      "(KHTML, like Gecko) Mobile/15E148");
  EXPECT_EQ(ios_view.browser, "WebView");
  EXPECT_TRUE(ios_view.in_app);

  const UserAgentInfo safari = ParseUserAgent(kSafariIphone);
  EXPECT_EQ(safari.browser, "Mobile Safari");
  EXPECT_FALSE(safari.in_app);
}

// In-app browsers report the app (the engine follows from the OS) and set in_app.
TEST(ParseUserAgent, ReportsInAppBrowsersByApp) {
  const BrowserCase cases[] = {
      {"Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 "
       "(KHTML, like Gecko) Mobile/15E148 [FBAN/FBIOS;FBAV/460.0.0.38.107;FBBV/582145863;"
       "FBDV/iPhone15,2;FBMD/iPhone;FBSN/iOS;FBSV/17.4]",
       "Facebook", "460.0"},
      {"Mozilla/5.0 (Linux; Android 14; Pixel 7 Build/AP1A.240405.002; wv) AppleWebKit/537.36 "
       "(KHTML, like Gecko) Version/4.0 Chrome/124.0.6367.82 Mobile Safari/537.36 "
       "Instagram 327.0.0.31.89 Android (34/14; 420dpi; 1080x2400; Google; Pixel 7)",
       "Instagram", "327.0"},
      {"Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 "
       "(KHTML, like Gecko) Mobile/15E148 Safari Line/14.5.0",
       "LINE", "14.5"},
      {"Mozilla/5.0 (Linux; Android 13; V2227A Build/TP1A.220624.014; wv) AppleWebKit/537.36 "
       "(KHTML, like Gecko) Version/4.0 Chrome/107.0.5304.141 Mobile Safari/537.36 XWEB/5061 "
       "MMWEBSDK/20230504 MicroMessenger/8.0.37.2380(0x2800255B) WeChat/arm64",
       "WeChat", "8.0"},
      {"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) "
       "Notes/3.2.1 Chrome/122.0.6261.156 Electron/29.3.0 Safari/537.36",
       "Electron", "29.3"},
  };
  for (const BrowserCase& c : cases) {
    const UserAgentInfo info = ParseUserAgent(c.ua);
    EXPECT_EQ(info.browser, c.browser) << c.ua;
    EXPECT_EQ(info.browser_version, c.version) << c.ua;
    EXPECT_TRUE(info.in_app) << c.ua;
  }
}

// ---- Operating systems

struct OsCase {
  std::string_view ua;
  std::string_view os;
  std::string_view version;
};

TEST(ParseUserAgent, NamesOperatingSystemsAndVersions) {
  const OsCase cases[] = {
      {kChromeWindows, "Windows", "10"},
      {"Mozilla/5.0 (Windows NT 6.3; Win64; x64; rv:109.0) Gecko/20100101 Firefox/115.0", "Windows",
       "8.1"},
      {"Mozilla/5.0 (Windows NT 6.1; WOW64; Trident/7.0; rv:11.0) like Gecko", "Windows", "7"},
      {"Mozilla/4.0 (compatible; MSIE 8.0; Windows NT 5.1; Trident/4.0)", "Windows", "XP"},
      {kSafariMac, "macOS", "10.15.7"},
      {kSafariIphone, "iOS", "17.4.1"},
      {"Mozilla/5.0 (iPad; CPU OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
       "Version/16.6 Mobile/15E148 Safari/604.1",
       "iPadOS", "16.6"},
      {kChromeAndroidPhone, "Android", "14"},
      {"Mozilla/5.0 (X11; CrOS x86_64 15633.69.0) AppleWebKit/537.36 (KHTML, like Gecko) "
       "Chrome/119.0.6045.212 Safari/537.36",
       "ChromeOS", ""},
      {"Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0", "Linux", ""},
      {"Mozilla/5.0 (Linux; Android 12; HarmonyOS; ALN-AL00; HMSCore 6.12.0.302) "
       "AppleWebKit/537.36 (KHTML, like Gecko) Chrome/99.0.4844.88 HuaweiBrowser/14.0.5.303 "
       "Mobile Safari/537.36",
       "HarmonyOS", ""},
      {"Mozilla/5.0 (Mobile; Nokia 8000 4G; rv:84.0) Gecko/84.0 Firefox/84.0 KAIOS/3.1", "KaiOS",
       "3.1"},
      {"Mozilla/5.0 (SMART-TV; LINUX; Tizen 6.5) AppleWebKit/537.36 (KHTML, like Gecko) "
       "68.0.3440.106/6.5 TV Safari/537.36",
       "Tizen", "6.5"},
      {"Mozilla/5.0 (Web0S; Linux/SmartTV) AppleWebKit/537.36 (KHTML, like Gecko) "
       "Chrome/94.0.4606.128 Safari/537.36 WebAppManager",
       "webOS", ""},
      {"Mozilla/5.0 (Linux; Android 11; KFTRWI) AppleWebKit/537.36 (KHTML, like Gecko) "
       "Silk/124.2.1 like Chrome/124.0.6367.82 Safari/537.36",
       "Fire OS", "8"},
      {"Mozilla/5.0 (PlayStation; PlayStation 5/8.20) AppleWebKit/605.1.15 (KHTML, like Gecko) "
       "Version/15.4 Safari/605.1.15",
       "PlayStation", ""},
      {"Mozilla/5.0 (Windows NT 10.0; Win64; x64; Xbox; Xbox Series X) AppleWebKit/537.36 "
       "(KHTML, like Gecko) Chrome/48.0.2564.82 Safari/537.36 Edge/20.02",
       "Xbox", ""},
      {"Mozilla/5.0 (Nintendo Switch; WifiWebAuthApplet) AppleWebKit/606.4 (KHTML, like Gecko) "
       "NF/6.0.1.15.4 NintendoBrowser/5.1.0.20393",
       "Nintendo", ""},
  };
  for (const OsCase& c : cases) {
    const UserAgentInfo info = ParseUserAgent(c.ua);
    EXPECT_EQ(info.os, c.os) << c.ua;
    EXPECT_EQ(info.os_version, c.version) << c.ua;
  }
}

// ---- Device classes

struct DeviceCase {
  std::string_view ua;
  std::string_view device;
};

TEST(ParseUserAgent, ClassifiesDesktopsPhonesAndTablets) {
  const DeviceCase cases[] = {
      {kChromeWindows, "desktop"},
      {kSafariMac, "desktop"},
      {"Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0", "desktop"},
      {"Mozilla/5.0 (X11; CrOS x86_64 15633.69.0) AppleWebKit/537.36 (KHTML, like Gecko) "
       "Chrome/119.0.6045.212 Safari/537.36",
       "desktop"},
      {kChromeAndroidPhone, "mobile"},
      {kSafariIphone, "mobile"},
      {"Mozilla/5.0 (Mobile; Nokia 8000 4G; rv:84.0) Gecko/84.0 Firefox/84.0 KAIOS/3.1", "mobile"},
      {"Mozilla/5.0 (compatible; MSIE 10.0; Windows Phone 8.0; Trident/6.0; IEMobile/10.0; ARM; "
       "Touch; NOKIA; Lumia 920)",
       "mobile"},
      {"Nokia6300/2.0 (05.00) Profile/MIDP-2.0 Configuration/CLDC-1.1", "mobile"},
      {"Mozilla/5.0 (iPad; CPU OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
       "Version/16.6 Mobile/15E148 Safari/604.1",
       "tablet"},
      {kReducedAndroidTablet, "tablet"},  // Android without "Mobile" is a tablet
      {"Mozilla/5.0 (Linux; Android 13; SM-X710) AppleWebKit/537.36 (KHTML, like Gecko) "
       "Chrome/124.0.0.0 Safari/537.36",
       "tablet"},
      {"Mozilla/5.0 (Linux; Android 11; SM-T505 Build/RP1A.200720.012) AppleWebKit/537.36 "
       "(KHTML, like Gecko) Chrome/124.0.6367.82 Mobile Safari/537.36",
       "tablet"},  // a tablet range even with "Mobile"
      {"Mozilla/5.0 (Linux; Android 11; KFTRWI) AppleWebKit/537.36 (KHTML, like Gecko) "
       "Silk/124.2.1 like Chrome/124.0.6367.82 Safari/537.36",
       "tablet"},
      {"Mozilla/5.0 (Android 14; Tablet; rv:125.0) Gecko/125.0 Firefox/125.0", "tablet"},
      {"Mozilla/5.0 (Linux; Android 10; AGS3-W09 Build/HUAWEIAGS3-W09) AppleWebKit/537.36 "
       "(KHTML, like Gecko) Chrome/114.0.5735.196 Mobile Safari/537.36",
       "tablet"},
  };
  for (const DeviceCase& c : cases) EXPECT_EQ(Device(c.ua), c.device) << c.ua;
}

// Model-number conventions outrank the "Mobile" token, in both directions.
TEST(ParseUserAgent, ReadsDeviceClassFromModelConventions) {
  const DeviceCase cases[] = {
      {"Mozilla/5.0 (Linux; Android 10; KOB2-L09) AppleWebKit/537.36 (KHTML, like Gecko) "
       "Chrome/114.0.5735.196 Mobile Safari/537.36",
       "tablet"},  // a Huawei tablet code with a cellular variant
      {"Mozilla/5.0 (Linux; Android 11; M10 WiFi) AppleWebKit/537.36 (KHTML, like Gecko) "
       "Chrome/110.0.0.0 Mobile Safari/537.36",
       "tablet"},  // phones never advertise being Wi-Fi only
      {"Mozilla/5.0 (Linux; U; Android 10; zh-Hans-CN; SM-T865 Build/QP1A.190711.020) "
       "AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/78.0.3904.108 Mobile "
       "Safari/537.36",
       "tablet"},  // a script-tagged locale before the model
      {"Mozilla/5.0 (Linux; Android 14; SM-F946B) AppleWebKit/537.36 (KHTML, like Gecko) "
       "Chrome/124.0.0.0 Safari/537.36",
       "mobile"},  // an unfolded foldable drops "Mobile"
      {"Mozilla/5.0 (Linux; Android 9; Coolpad N5) AppleWebKit/537.36 (KHTML, like Gecko) "
       "Chrome/100.0.4896.127 Mobile Safari/537.36",
       "mobile"},  // a phone brand that ends in "pad"
      {"Mozilla/5.0 (Linux; Android 9; Dell Latitude 5490) AppleWebKit/537.36 (KHTML, like "
       "Gecko) Chrome/100.0.4896.127 Safari/537.36",
       "desktop"},  // Android builds for laptops
      {"Mozilla/5.0 (Linux; Android 12; Quest 2) AppleWebKit/537.36 (KHTML, like Gecko) "
       "Chrome/112.0.0.0 Safari/537.36",
       "xr"},
      {"Mozilla/5.0 (Linux; Android 4.4.2; Quest 410) AppleWebKit/537.36 (KHTML, like Gecko) "
       "Chrome/81.0.4044.138 Mobile Safari/537.36",
       "mobile"},  // a phone range that reuses the word
      {"Dalvik/2.1.0 (Linux; U; Android 11; moto g(30) Build/RRMS31.Q1-34-12)", "mobile"},
  };
  for (const DeviceCase& c : cases) EXPECT_EQ(Device(c.ua), c.device) << c.ua;
}

// A Chrome for Android User-Agent for `model`, with or without the "Mobile" token.
std::string AndroidChrome(std::string_view model, bool mobile) {
  return "Mozilla/5.0 (Linux; Android 11; " + std::string(model) +
         ") AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 " +
         (mobile ? "Mobile Safari/537.36" : "Safari/537.36");
}

struct ModelCase {
  std::string_view model;
  bool mobile_token;
  std::string_view device;
};

// Vendors' numbering schemes, checked with made-up numbers in each scheme.
TEST(ParseUserAgent, ReadsVendorNumberingSchemes) {
  const ModelCase cases[] = {
      {"BQ-7099G", true, "tablet"},  // bq: the number opens with the screen size
      {"BQ-5599L", true, "mobile"},  // ... 5.5 inches: a phone
      {"TM-1099", true, "tablet"},   // teXet, 10 inches
      {"itel W7099", true, "tablet"},
      {"ELEMENT 8V9", true, "tablet"},
      {"Nomi_C080099", true, "tablet"},
      {"Optima 8899 4G TS8399PL", true, "tablet"},  // Digma-style code, size first
      {"RC0799C", true, "tablet"},                  // 3Q zero-pads the size
      {"T89ABi_3G", true, "tablet"},                // size, then an optional 3G radio
      {"9099X", true, "tablet"},                    // Alcatel and TCL tablets: 8000s/9000s
      {"9001Q", true, "mobile"},                    // ... except the 6-inch phablets
      {"P70Pro_EEA", true, "tablet"},               // Teclast: series, size, market
      {"25019RP41G", true, "tablet"},               // Xiaomi's Redmi Pad codes carry "RP"
      {"M2301J9ZG", false, "mobile"},               // Xiaomi's phone codes
      {"GOT-AL29", true, "tablet"},                 // a Huawei tablet code, cellular variant
      {"W-K999-TVM", true, "mobile"},               // Wiko phones, whatever the suffix
      {"MS55Z9000", true, "mobile"},                // "MS" and the size: phones, not a TV
      {"Foo9 DTV", true, "mobile"},                 // a handset with a TV tuner
      {"NEXBOX-A99", false, "set_top_box"},         // not an Xbox
      {"KM7 Pro", false, "set_top_box"},            // Mecool's box range
      {"EK-GC999", true, "unknown"},                // a camera
      {"Raspberry Pi 5", false, "unknown"},         // a single-board computer
  };
  for (const ModelCase& c : cases) {
    EXPECT_EQ(Device(AndroidChrome(c.model, c.mobile_token)), c.device) << c.model;
  }
}

// Android build IDs name the platform branch: "RTT…" and "QTG…" are Android TV builds, "RWD…"
// Wear OS; the bare AOSP ID "PI" is an uncertified (set-top box) build.
TEST(ParseUserAgent, ReadsPlatformBranchOfAndroidBuilds) {
  const DeviceCase cases[] = {
      {"Mozilla/5.0 (Linux; Android 11; ZX100 Build/RTT2.220101.001; wv) AppleWebKit/537.36 "
       "(KHTML, like Gecko) Version/4.0 Chrome/120.0.0.0 Mobile Safari/537.36",
       "smart_tv"},
      {"Mozilla/5.0 (Linux; Android 11; ZX101 Build/RWD1.220101.001) AppleWebKit/537.36 "
       "(KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36",
       "wearable"},
      {"Dalvik/2.1.0 (Linux; U; Android 9; ZX102 Build/PI)", "set_top_box"},
      {"Mozilla/5.0 (Linux; Android 13; ZX103 Build/TP1A.220624.014) AppleWebKit/537.36 "
       "(KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36",
       "mobile"},
      // Cut short before "Safari": the missing "Mobile" proves nothing.
      {"Mozilla/5.0 (Linux; Android 9; ZX104 Build/PPR1.180610.011; wv) AppleWebKit/537.36 "
       "(KHTML, like Gecko) Version/4.0 Chrome/77.0.3865.120",
       "mobile"},
  };
  for (const DeviceCase& c : cases) EXPECT_EQ(Device(c.ua), c.device) << c.ua;
}

TEST(ParseUserAgent, ClassifiesTelevisionsAndBoxes) {
  const DeviceCase cases[] = {
      {"Mozilla/5.0 (SMART-TV; LINUX; Tizen 6.5) AppleWebKit/537.36 (KHTML, like Gecko) "
       "68.0.3440.106/6.5 TV Safari/537.36",
       "smart_tv"},
      {"Mozilla/5.0 (Web0S; Linux/SmartTV) AppleWebKit/537.36 (KHTML, like Gecko) "
       "Chrome/94.0.4606.128 Safari/537.36 WebAppManager",
       "smart_tv"},
      {"Opera/9.80 (Linux armv7l; HbbTV/1.2.1 (; Philips; 40PFL5000; ; PHILIPSTV; CE-HTML/1.0 "
       "NETTV/4.1.3 PHILIPSTV/1.1.1; en) ) Presto/2.12.407 Version/12.50",
       "smart_tv"},
      {"Mozilla/5.0 (Linux; Android 10; BRAVIA 4K UR3 Build/QTG3.200305.006.S292) "
       "AppleWebKit/537.36 (KHTML, like Gecko) Chrome/114.0.5735.196 Safari/537.36",
       "smart_tv"},
      {"Mozilla/5.0 (Linux; Android 11; 55UQ7500PSF) AppleWebKit/537.36 (KHTML, like Gecko) "
       "Chrome/112.0.0.0 Safari/537.36",
       "smart_tv"},  // the screen size leads the model number
      {"Mozilla/5.0 (Linux; Android 9; AFTSSS) AppleWebKit/537.36 (KHTML, like Gecko) "
       "Silk/124.2.1 like Chrome/124.0.6367.82 Safari/537.36",
       "set_top_box"},
      {"Mozilla/5.0 (X11; Linux armv7l) AppleWebKit/537.36 (KHTML, like Gecko) "
       "Chrome/114.0.5735.209 Safari/537.36 CrKey/1.56.500000 DeviceType/Chromecast",
       "set_top_box"},
      {"Roku/DVP-12.5 (12.5.0.4177-51)", "set_top_box"},
      {"Mozilla/5.0 (Linux; Android 9; X96 Max) AppleWebKit/537.36 (KHTML, like Gecko) "
       "Chrome/110.0.0.0 Safari/537.36",
       "set_top_box"},
      {"Mozilla/5.0 (Linux; Android 9; MediaBox Build/PPR1.180610.011; wv) AppleWebKit/537.36 "
       "(KHTML, like Gecko) Version/4.0 Chrome/110.0.5481.65 Mobile Safari/537.36",
       "set_top_box"},
      {"AppleTV14,1/17.4 (tvOS 17.4; AppleTV)", "set_top_box"},
  };
  for (const DeviceCase& c : cases) EXPECT_EQ(Device(c.ua), c.device) << c.ua;
}

TEST(ParseUserAgent, ClassifiesConsolesWearablesAndOtherDevices) {
  const DeviceCase cases[] = {
      {"Mozilla/5.0 (PlayStation; PlayStation 5/8.20) AppleWebKit/605.1.15 (KHTML, like Gecko) "
       "Version/15.4 Safari/605.1.15",
       "game_console"},
      {"Mozilla/5.0 (Windows NT 10.0; Win64; x64; Xbox; Xbox Series X) AppleWebKit/537.36 "
       "(KHTML, like Gecko) Chrome/48.0.2564.82 Safari/537.36 Edge/20.02",
       "game_console"},
      {"Mozilla/5.0 (Nintendo Switch; WifiWebAuthApplet) AppleWebKit/606.4 (KHTML, like Gecko) "
       "NF/6.0.1.15.4 NintendoBrowser/5.1.0.20393",
       "handheld_game_console"},
      {"Mozilla/5.0 (PlayStation Vita 3.74) AppleWebKit/537.73 (KHTML, like Gecko) Silk/3.2",
       "handheld_game_console"},
      {"Mozilla/5.0 (Nintendo 3DS; U; ; en) Version/1.7630.EU", "handheld_game_console"},
      {"Weather/2.1 (watchOS 10.4; Watch6,2)", "wearable"},
      {"Mozilla/5.0 (Linux; Android 11; SM-R890) AppleWebKit/537.36 (KHTML, like Gecko) "
       "Chrome/114.0.0.0 Mobile Safari/537.36",
       "wearable"},
      {"Mozilla/5.0 (X11; Linux x86_64; Quest 3) AppleWebKit/537.36 (KHTML, like Gecko) "
       "OculusBrowser/33.0.0.0 Chrome/122.0.6261.0 VR Safari/537.36",
       "xr"},
      {"Mozilla/5.0 (X11; GNU/Linux) AppleWebKit/537.36 (KHTML, like Gecko) "
       "Chrome/109.0.5414.120 Safari/537.36 Tesla/2024.8.7",
       "automotive"},
      {"Mozilla/5.0 (X11; U; Linux armv7l like Android; en-us) AppleWebKit/531.2+ "
       "(KHTML, like Gecko) Version/5.0 Safari/531.2+ Kindle/3.0+",
       "e_reader"},
      {"Linux UPnP/1.0 Sonos/79.1-50240 (ZPS27)", "voice"},
  };
  for (const DeviceCase& c : cases) EXPECT_EQ(Device(c.ua), c.device) << c.ua;
}

// The spec's rule: an unidentifiable client stays unknown, never coerced to desktop.
TEST(ParseUserAgent, LeavesUnidentifiableClientsUnknown) {
  for (std::string_view ua : {"Mozilla/5.0", "RadioPlayer/4.2", "Some Media Client",
                              "Mozilla/5.0 (Linux) AppleWebKit/537.36 (KHTML, like Gecko)"}) {
    const UserAgentInfo info = ParseUserAgent(ua);
    EXPECT_EQ(info.device, DeviceType::kUnknown) << ua;
    EXPECT_EQ(info.signal_source, SignalSource::kUaOnly) << ua;
    EXPECT_DOUBLE_EQ(info.device_confidence, 0.60) << ua;
    EXPECT_FALSE(info.is_bot) << ua;
  }
}

TEST(ParseUserAgent, ReadsBrandAndModel) {
  const UserAgentInfo iphone = ParseUserAgent(kSafariIphone);
  EXPECT_EQ(iphone.brand, "Apple");
  EXPECT_EQ(iphone.model, "iPhone");

  const UserAgentInfo mac = ParseUserAgent(kSafariMac);
  EXPECT_EQ(mac.brand, "Apple");

  const UserAgentInfo galaxy = ParseUserAgent(
      "Mozilla/5.0 (Linux; Android 13; SM-G991B Build/TP1A.220624.014) AppleWebKit/537.36 "
      "(KHTML, like Gecko) Chrome/124.0.6367.82 Mobile Safari/537.36");
  EXPECT_EQ(galaxy.brand, "Samsung");
  EXPECT_EQ(galaxy.model, "SM-G991B");

  const UserAgentInfo pixel = ParseUserAgent(kChromeAndroidPhone);
  EXPECT_EQ(pixel.brand, "Google");
  EXPECT_EQ(pixel.model, "Pixel 8");

  const UserAgentInfo old_browser = ParseUserAgent(
      "Mozilla/5.0 (Linux; U; Android 4.0.4; en-us; GT-S7562 Build/IMM76I) AppleWebKit/534.30 "
      "(KHTML, like Gecko) Version/4.0 Mobile Safari/534.30");
  EXPECT_EQ(old_browser.model, "GT-S7562");

  const UserAgentInfo prefixed = ParseUserAgent(
      "Mozilla/5.0 (Linux; Android 14; SAMSUNG SM-A546B) AppleWebKit/537.36 (KHTML, like Gecko) "
      "SamsungBrowser/25.0 Chrome/121.0.0.0 Mobile Safari/537.36");
  EXPECT_EQ(prefixed.brand, "Samsung");
  EXPECT_EQ(prefixed.model, "SM-A546B");

  EXPECT_EQ(ParseUserAgent(kReducedAndroidPhone).model, "");  // "K" withholds the model
}

// ---- Robustness

TEST(ParseUserAgent, ToleratesHostileInput) {
  const std::string very_long = std::string(kChromeAndroidPhone) + std::string(10000, 'x');
  EXPECT_EQ(ParseUserAgent(very_long).device, DeviceType::kMobile);

  const std::string binary("\xff\xfe(\x01;\x80/\x7f)", 9);
  EXPECT_NO_THROW(ParseUserAgent(binary));
  EXPECT_NO_THROW(ParseUserAgent("((((((;;;;;////"));
  EXPECT_NO_THROW(ParseUserAgent("/"));

  ClientHints junk;
  junk.brands = "\"unterminated";
  junk.full_version_list = ";;v=\"";
  junk.platform_version = "\"\"";
  junk.form_factors = "\"\"";
  EXPECT_NO_THROW(ParseUserAgent(kChromeWindows, junk));
}

}  // namespace
}  // namespace sightline::detection
