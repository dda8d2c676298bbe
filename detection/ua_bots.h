// Internal to detection/: the User-Agent level of bot detection. A yes/no from general rules
// (automation libraries, headless browsers, crawler vocabulary) with the product token that
// gave it away; naming vendors, categories and verification is the crawler catalog's job.
// Pure function; thread-safe.
#pragma once

#include <string_view>

#include "detection/ua_model.h"
#include "detection/ua_text.h"

namespace sightline::detection::ua {

struct BotGuess {
  bool is_bot = false;
  std::string_view name;  // a view into the UA text; empty for an empty UA
};

// `model` is the hardware model span, which the crawler-vocabulary rules skip. `os` is the
// detected OS name ("unknown" when none) and `browser_known` whether a browser was recognised;
// the rules for URLs and browser-shaped prefixes need both.
BotGuess DetectBot(const UaText& ua, const ModelSpan& model, std::string_view os,
                   bool browser_known);

}  // namespace sightline::detection::ua
