// Internal to detection/: the hardware model a User-Agent names and the brand it belongs to.
// Pure functions; thread-safe.
#pragma once

#include <string_view>

#include "detection/ua_text.h"

namespace sightline::detection::ua {

// Where the model sits in the text; `text` is a view into the UA, `offset` its position (the
// bot rules ignore this span, since "CUBOT X6" or "VR BOT 552" name phones, not robots).
struct ModelSpan {
  std::string_view text;
  std::size_t offset = UaText::npos;
};

// The Android/HarmonyOS/Tizen device model: the comment item after "Android x.y" (skipping
// "U", locales and "wv"), without its " Build/…" tail. Empty when the UA withholds it (the
// reduced "Android 10; K" form) or names none.
ModelSpan AndroidModel(const UaText& ua);

// The brand a model's name gives away ("SM-G991B" → "Samsung", "Pixel 8" → "Google"), or
// empty. REQUIRES: lower_model is lower-case.
std::string_view BrandOfModel(std::string_view lower_model);

}  // namespace sightline::detection::ua
