#include "detection/user_agent.h"

#include <array>

#include "detection/client_hints.h"
#include "detection/ua_bots.h"
#include "detection/ua_browser.h"
#include "detection/ua_device.h"
#include "detection/ua_model.h"
#include "detection/ua_os.h"
#include "detection/ua_text.h"

namespace sightline::detection {
namespace {

constexpr std::array<std::string_view, 15> kDeviceTypeNames = {
    "desktop",
    "mobile",
    "tablet",
    "smart_tv",
    "set_top_box",
    "game_console",
    "handheld_game_console",
    "wearable",
    "automotive",
    "xr",
    "e_reader",
    "voice",
    "home_appliance",
    "bot",
    "unknown",
};

constexpr std::array<std::string_view, 6> kSignalSourceNames = {
    "BOT_RULE", "FORM_FACTORS", "LOW_ENTROPY_HINTS", "UA_FUSED", "UA_ONLY", "NONE",
};

// Amazon's Android fork: Fire tablets ("KF…") and Fire TV ("AFT…") run Fire OS, whose major
// versions track Android releases.
void RenameFireOs(UserAgentInfo& info) {
  // Early Kindle Fire Silk UAs name no OS at all, only "Linux".
  if ((info.os != "Android" && info.os != "Linux") || info.brand != "Amazon") return;
  info.os = "Fire OS";
  const int android = ua::LeadingInt(info.os_version);
  switch (android) {
    case 5:
      info.os_version = "5";
      break;
    case 7:
      info.os_version = "6";
      break;
    case 9:
      info.os_version = "7";
      break;
    case 11:
      info.os_version = "8";
      break;
    default:
      info.os_version.clear();
      break;
  }
}

void FillFromUserAgent(const ua::OsGuess& os, const ua::BrowserGuess& browser,
                       const ua::DeviceGuess& device, UserAgentInfo& info) {
  info.browser = browser.name;
  info.browser_version = browser.version;
  info.in_app = browser.in_app;
  info.os = os.name;
  info.os_version = os.version;
  info.brand = device.brand;
  info.model = device.model;
  RenameFireOs(info);
}

}  // namespace

std::string_view DeviceTypeName(DeviceType type) {
  return kDeviceTypeNames[static_cast<std::size_t>(type)];
}

std::string_view SignalSourceName(SignalSource source) {
  return kSignalSourceNames[static_cast<std::size_t>(source)];
}

UserAgentInfo ParseUserAgent(std::string_view user_agent, const ClientHints& hints) {
  const ua::UaText text(user_agent);
  const ua::OsGuess os = ua::DetectOs(text);
  const ua::ModelSpan model = ua::AndroidModel(text);
  const ua::BrowserGuess browser = ua::DetectBrowser(text, os.name);
  const ua::DeviceGuess device = ua::DetectDevice(text, os, model);

  UserAgentInfo info;
  FillFromUserAgent(os, browser, device, info);
  const ua::BotGuess bot = ua::DetectBot(text, model, os.name, browser.name != "unknown");
  info.is_bot = bot.is_bot;
  info.bot_name = bot.name;
  if (bot.is_bot && !text.empty()) {
    info.device = DeviceType::kBot;
    info.signal_source = SignalSource::kBotRule;
    info.device_confidence = 0.99;
    return info;
  }
  const ua::HintSignals signals = ua::ReadHints(hints);
  ua::RefineFromHints(signals, info);
  const ua::DeviceVerdict verdict = ua::FuseDevice(device.type, !text.empty(), signals);
  info.device = verdict.type;
  info.signal_source = verdict.source;
  info.device_confidence = verdict.confidence;
  return info;
}

}  // namespace sightline::detection
