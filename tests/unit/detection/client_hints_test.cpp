#include <gtest/gtest.h>

#include <initializer_list>
#include <string_view>

#include "detection/user_agent.h"
#include "sample_user_agents.h"

// Hand-written User-Agents, none from the labelled corpus (see user_agent_test.cpp).
namespace sightline::detection {
namespace {

using samples::kChromeWindows;
using samples::kSafariIphone;
using samples::kChromeAndroidPhone;
using samples::kReducedAndroidPhone;
using samples::kReducedAndroidTablet;

// Precedence and confidence of the device class (spec: FORM_FACTORS 0.95, LOW_ENTROPY_HINTS
// 0.85, UA_FUSED / UA_ONLY 0.75 or 0.60 unresolved, NONE 0.30), and what hints refine.

TEST(ParseUserAgent, UsesTheUserAgentAloneWithoutHints) {
  const UserAgentInfo info = ParseUserAgent(kChromeAndroidPhone);
  EXPECT_EQ(info.device, DeviceType::kMobile);
  EXPECT_EQ(info.signal_source, SignalSource::kUaOnly);
  EXPECT_DOUBLE_EQ(info.device_confidence, 0.75);
}

TEST(ParseUserAgent, FormFactorsHintWinsOverEverythingButBots) {
  ClientHints hints;
  hints.form_factors = "\"Tablet\"";
  hints.mobile = "?1";
  const UserAgentInfo info = ParseUserAgent(kReducedAndroidPhone, hints);
  EXPECT_EQ(info.device, DeviceType::kTablet);
  EXPECT_EQ(info.signal_source, SignalSource::kFormFactors);
  EXPECT_DOUBLE_EQ(info.device_confidence, 0.95);

  hints.form_factors = "\"EInk\", \"Watch\"";  // the most specific factor wins
  EXPECT_EQ(ParseUserAgent("SomeApp/1.0", hints).device, DeviceType::kWearable);
}

TEST(ParseUserAgent, LowEntropyHintsSettleReducedUserAgents) {
  ClientHints phone;
  phone.mobile = "?1";
  phone.platform = "\"Android\"";
  const UserAgentInfo mobile = ParseUserAgent(kReducedAndroidPhone, phone);
  EXPECT_EQ(mobile.device, DeviceType::kMobile);
  EXPECT_EQ(mobile.signal_source, SignalSource::kLowEntropyHints);
  EXPECT_DOUBLE_EQ(mobile.device_confidence, 0.85);

  ClientHints tablet;
  tablet.mobile = "?0";
  tablet.platform = "\"Android\"";
  EXPECT_EQ(ParseUserAgent(kReducedAndroidTablet, tablet).device, DeviceType::kTablet);

  ClientHints desktop;
  desktop.mobile = "?0";
  desktop.platform = "\"Windows\"";
  EXPECT_EQ(ParseUserAgent(kChromeWindows, desktop).signal_source, SignalSource::kLowEntropyHints);
}

TEST(ParseUserAgent, MobileHintAloneSettlesTheClass) {
  ClientHints hints;
  hints.mobile = "?1";
  const UserAgentInfo info = ParseUserAgent("SomeApp/2.0", hints);
  EXPECT_EQ(info.device, DeviceType::kMobile);
  EXPECT_EQ(info.signal_source, SignalSource::kLowEntropyHints);
}

// The hints come from the engine; a frozen or switched UA string loses to them.
TEST(ParseUserAgent, HintsWinWhenTheyContradictTheUserAgent) {
  ClientHints hints;
  hints.mobile = "?0";
  hints.platform = "\"Linux\"";
  const UserAgentInfo info = ParseUserAgent(kSafariIphone, hints);
  EXPECT_EQ(info.device, DeviceType::kDesktop);
  EXPECT_EQ(info.signal_source, SignalSource::kLowEntropyHints);
  EXPECT_EQ(info.os, "Linux");
}

TEST(ParseUserAgent, FusesWhenTheUserAgentNarrowsTheHints) {
  ClientHints hints;  // a TV's Chrome also says "not mobile, Android"
  hints.mobile = "?0";
  hints.platform = "\"Android\"";
  const UserAgentInfo tv = ParseUserAgent(
      "Mozilla/5.0 (Linux; Android 12; BRAVIA 4K VH2) AppleWebKit/537.36 (KHTML, like Gecko) "
      "Chrome/114.0.5735.196 Safari/537.36",
      hints);
  EXPECT_EQ(tv.device, DeviceType::kSmartTv);
  EXPECT_EQ(tv.signal_source, SignalSource::kUaFused);
  EXPECT_DOUBLE_EQ(tv.device_confidence, 0.75);

  ClientHints brands_only;  // hints that do not settle the class leave it to the UA
  brands_only.brands =
      "\"Chromium\";v=\"124\", \"Google Chrome\";v=\"124\", \"Not-A.Brand\";v=\"99\"";
  const UserAgentInfo desktop = ParseUserAgent(kChromeWindows, brands_only);
  EXPECT_EQ(desktop.device, DeviceType::kDesktop);
  EXPECT_EQ(desktop.signal_source, SignalSource::kUaFused);
  EXPECT_DOUBLE_EQ(desktop.device_confidence, 0.75);

  const UserAgentInfo unresolved = ParseUserAgent("RadioPlayer/4.2", brands_only);
  EXPECT_EQ(unresolved.device, DeviceType::kUnknown);
  EXPECT_DOUBLE_EQ(unresolved.device_confidence, 0.60);
}

TEST(ParseUserAgent, ModelHintClassifiesReducedUserAgents) {
  ClientHints hints;
  hints.model = "\"SM-X710\"";
  const UserAgentInfo info = ParseUserAgent(kReducedAndroidPhone, hints);
  EXPECT_EQ(info.device, DeviceType::kTablet);
  EXPECT_EQ(info.model, "SM-X710");
  EXPECT_EQ(info.brand, "Samsung");
}

TEST(ParseUserAgent, HintsRefineBrowserAndOs) {
  ClientHints windows11;
  windows11.platform = "\"Windows\"";
  windows11.platform_version = "\"15.0.0\"";
  EXPECT_EQ(ParseUserAgent(kChromeWindows, windows11).os_version, "11");
  windows11.platform_version = "\"10.0.0\"";
  EXPECT_EQ(ParseUserAgent(kChromeWindows, windows11).os_version, "10");

  ClientHints brave;
  brave.brands = "\"Brave\";v=\"124\", \"Chromium\";v=\"124\", \"Not-A.Brand\";v=\"99\"";
  const UserAgentInfo info = ParseUserAgent(kChromeWindows, brave);
  EXPECT_EQ(info.browser, "Brave");
  EXPECT_EQ(info.browser_version, "124");

  ClientHints android;
  android.platform = "\"Android\"";
  android.platform_version = "\"14.0.0\"";
  android.model = "\"Pixel 8\"";
  const UserAgentInfo reduced = ParseUserAgent(kReducedAndroidPhone, android);
  EXPECT_EQ(reduced.os_version, "14");
  EXPECT_EQ(reduced.model, "Pixel 8");
  EXPECT_EQ(reduced.brand, "Google");
}

TEST(ParseUserAgent, WithoutAnyUserAgentConfidenceIsNone) {
  const UserAgentInfo info = ParseUserAgent("");
  EXPECT_EQ(info.device, DeviceType::kUnknown);
  EXPECT_EQ(info.signal_source, SignalSource::kNone);
  EXPECT_DOUBLE_EQ(info.device_confidence, 0.30);
  // Every browser sends a User-Agent: an empty one is treated as not-a-browser.
  EXPECT_TRUE(info.is_bot);
  EXPECT_EQ(info.bot_name, "");
  EXPECT_TRUE(ParseUserAgent("   ").is_bot);
}

}  // namespace
}  // namespace sightline::detection
