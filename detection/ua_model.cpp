#include "detection/ua_model.h"

#include <array>

namespace sightline::detection::ua {
namespace {

struct BrandPrefix {
  std::string_view prefix;  // lower-case start of a model name
  std::string_view brand;
};

// Model-name prefixes that identify a maker: vendor words, and model-number schemes the
// vendors document (Samsung "SM-", OPPO "CPH", realme "RMX", Amazon "KF…"/"AFT…").
constexpr std::array kBrandPrefixes = std::to_array<BrandPrefix>({
    {"samsung", "Samsung"},
    {"sm-", "Samsung"},
    {"gt-", "Samsung"},
    {"sgh-", "Samsung"},
    {"sch-", "Samsung"},
    {"shv-", "Samsung"},
    {"galaxy", "Samsung"},
    {"pixel", "Google"},
    {"nexus", "Google"},
    {"huawei", "Huawei"},
    {"honor", "Honor"},
    {"xiaomi", "Xiaomi"},
    {"redmi", "Xiaomi"},
    {"poco", "Xiaomi"},
    {"mi ", "Xiaomi"},
    {"oneplus", "OnePlus"},
    {"oppo", "OPPO"},
    {"cph", "OPPO"},
    {"realme", "realme"},
    {"rmx", "realme"},
    {"vivo", "vivo"},
    {"motorola", "Motorola"},
    {"moto", "Motorola"},
    {"xt1", "Motorola"},
    {"lg-", "LG"},
    {"lgm-", "LG"},
    {"lge", "LG"},
    {"lg ", "LG"},
    {"htc", "HTC"},
    {"sony", "Sony"},
    {"xperia", "Sony"},
    {"bravia", "Sony"},
    {"nokia", "Nokia"},
    {"lenovo", "Lenovo"},
    {"asus", "ASUS"},
    {"zenfone", "ASUS"},
    {"zte", "ZTE"},
    {"alcatel", "Alcatel"},
    {"tcl", "TCL"},
    {"meizu", "Meizu"},
    {"tecno", "Tecno"},
    {"infinix", "Infinix"},
    {"itel", "itel"},
    {"cubot", "Cubot"},
    {"doogee", "Doogee"},
    {"ulefone", "Ulefone"},
    {"oukitel", "Oukitel"},
    {"umidigi", "Umidigi"},
    {"blackview", "Blackview"},
    {"bq-", "BQ"},
    {"kindle", "Amazon"},
    {"amazon", "Amazon"},
    {"aft", "Amazon"},
    {"kf", "Amazon"},
    {"hisense", "Hisense"},
    {"philips", "Philips"},
    {"sharp", "Sharp"},
    {"panasonic", "Panasonic"},
    {"acer", "Acer"},
    {"archos", "Archos"},
    {"prestigio", "Prestigio"},
    {"micromax", "Micromax"},
    {"lava", "Lava"},
    {"wiko", "Wiko"},
    {"fairphone", "Fairphone"},
    {"quest", "Meta"},
    {"pico", "Pico"},
    {"shield", "NVIDIA"},
    {"razer", "Razer"},
    {"blu ", "BLU"},
});

// "en-us", "pt_BR", "zh-Hans-CN", "es-419": a lower-case language, then one or two subtags of
// letters or a region number. Models look alike but start upper-case ("LG-V400").
bool IsLocale(std::string_view item) {
  std::size_t at = 0;
  while (at < item.size() && item[at] >= 'a' && item[at] <= 'z') ++at;
  if (at < 2 || at > 3 || at == item.size()) return false;
  for (int subtags = 0; subtags < 2 && at < item.size(); ++subtags) {
    if (item[at] != '-' && item[at] != '_') return false;
    const std::size_t begin = ++at;
    while (at < item.size() && IsAlpha(item[at])) ++at;
    if (at == begin) {
      while (at < item.size() && IsDigit(item[at])) ++at;
      if (at - begin != 3) return false;
    }
    if (at - begin < 2 || at - begin > 4) return false;
  }
  return at == item.size();
}

// Comment items that sit between "Android x.y" and the model without being one.
bool IsFillerItem(std::string_view item) {
  if (item.empty()) return true;
  const std::size_t n = item.size();
  if (n <= 2 && IsAlpha(item[0]) && IsAlpha(item[n - 1])) return true;  // "U", "en", "K"
  if (IsLocale(item)) return true;
  for (std::string_view filler : {"wv", "mobile", "tablet", "arm", "arm_64", "arm64", "aarch64",
                                  "linux", "harmonyos", "x11", "mobile vr", "tv"}) {
    if (item.size() == filler.size() && StartsWithIgnoringCase(item, filler)) return true;
  }
  return StartsWithIgnoringCase(item, "android") || StartsWithIgnoringCase(item, "hmscore") ||
         StartsWithIgnoringCase(item, "gmscore") || StartsWithIgnoringCase(item, "cronet/") ||
         StartsWithIgnoringCase(item, "linux ");
}

// The model part of a comment item: up to " Build/" (or a run-on "AppleWebKit/" in UAs that
// lost their parentheses).
std::string_view StripBuild(std::string_view item) {
  for (std::size_t i = 0; i + 6 <= item.size(); ++i) {
    if (StartsWithIgnoringCase(item.substr(i), "build/") ||
        StartsWithIgnoringCase(item.substr(i), "applewebkit")) {
      return Trim(item.substr(0, i));
    }
  }
  return item;
}

// The span of the comment (or, without parentheses, the text) holding the OS token at `at`.
std::string_view RegionAround(std::string_view text, std::size_t at) {
  const std::size_t open = text.rfind('(', at);
  const std::size_t begin = open == std::string_view::npos ? 0 : open + 1;
  int depth = 0;
  for (std::size_t i = begin; i < text.size(); ++i) {
    if (text[i] == '(') ++depth;
    if (text[i] == ')' && depth-- == 0) return text.substr(begin, i - begin);
  }
  return text.substr(begin);
}

std::size_t FindOsToken(const UaText& ua) {
  for (std::string_view token : {"android", "andr0id", "diordna", "tizen", "adr "}) {
    const std::size_t at = ua.Find(token);
    if (at != UaText::npos) return at;
  }
  return UaText::npos;
}

ModelSpan MakeSpan(const UaText& ua, std::string_view item) {
  item = Trim(StripBuild(Trim(item)));
  if (item.size() <= 1) return {};
  return {item, static_cast<std::size_t>(item.data() - ua.text().data())};
}

// Without an OS token ("Linux; U; en-us; KFTT Build/IML74K"), the item carrying " Build/".
ModelSpan ModelBeforeBuild(const UaText& ua) {
  const std::size_t build = ua.Find(" build/");
  if (build == UaText::npos) return {};
  const std::string_view region = RegionAround(ua.text(), build);
  const std::size_t in_region = build - static_cast<std::size_t>(region.data() - ua.text().data());
  const std::size_t start = region.rfind(';', in_region);
  const std::string_view item = region.substr(start == std::string_view::npos ? 0 : start + 1);
  return IsFillerItem(Trim(StripBuild(item))) ? ModelSpan{} : MakeSpan(ua, item);
}

}  // namespace

ModelSpan AndroidModel(const UaText& ua) {
  const std::size_t os_at = FindOsToken(ua);
  if (os_at == UaText::npos) return ModelBeforeBuild(ua);
  const std::string_view region = RegionAround(ua.text(), os_at);
  const std::size_t os_in_region =
      os_at - static_cast<std::size_t>(region.data() - ua.text().data());
  // Items after the OS token first: that is where Android puts the model.
  std::size_t item_end = region.find(';', os_in_region);
  while (item_end != std::string_view::npos) {
    const std::size_t next = region.find(';', item_end + 1);
    const std::string_view item = Trim(
        region.substr(item_end + 1, next == std::string_view::npos ? next : next - item_end - 1));
    if (!IsFillerItem(item)) return MakeSpan(ua, item);
    item_end = next;
  }
  // Some apps write "(Model; Android 12)": the item right before the OS token.
  const std::size_t item_begin = region.rfind(';', os_in_region);
  if (item_begin == std::string_view::npos || item_begin == 0) return {};
  const std::size_t previous = region.rfind(';', item_begin - 1);
  const std::size_t start = previous == std::string_view::npos ? 0 : previous + 1;
  const std::string_view item = Trim(region.substr(start, item_begin - start));
  return IsFillerItem(item) ? ModelSpan{} : MakeSpan(ua, item);
}

std::string_view BrandOfModel(std::string_view lower_model) {
  for (const BrandPrefix& entry : kBrandPrefixes) {
    if (lower_model.starts_with(entry.prefix)) return entry.brand;
  }
  return {};
}

}  // namespace sightline::detection::ua
