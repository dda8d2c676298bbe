#include "core/http_types.h"

#include "core/text.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <future>

namespace sightline::core {
namespace {

constexpr std::array<std::pair<HttpMethod, std::string_view>, 7> kMethodNames = {{
    {HttpMethod::kGet, "GET"},
    {HttpMethod::kHead, "HEAD"},
    {HttpMethod::kPost, "POST"},
    {HttpMethod::kPut, "PUT"},
    {HttpMethod::kPatch, "PATCH"},
    {HttpMethod::kDelete, "DELETE"},
    {HttpMethod::kOptions, "OPTIONS"},
}};

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

HttpResponse HttpHandler::Handle(const HttpRequest& request) {
  std::promise<HttpResponse> answered;
  auto future = answered.get_future();
  HandleAsync(request, [&answered](HttpResponse response) { answered.set_value(std::move(response)); });
  return future.get();
}

std::string_view MethodName(HttpMethod method) {
  for (const auto& [m, name] : kMethodNames) {
    if (m == method) return name;
  }
  return "OTHER";
}

HttpMethod ParseMethod(std::string_view name) {
  for (const auto& [m, n] : kMethodNames) {
    if (n == name) return m;
  }
  return HttpMethod::kOther;
}

// ASCII only, as header names and media types are; no locale lookup per character (every
// header lookup of every request compares names this way).
bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  constexpr auto lower = [](char c) {
    return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
  };
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [&](char x, char y) {
           return lower(x) == lower(y);
         });
}

std::string_view MediaTypeOf(std::string_view value) {
  return TrimSpaces(value.substr(0, value.find(';')));
}

void HttpHeaders::Add(std::string name, std::string value) {
  fields_.emplace_back(std::move(name), std::move(value));
}

void HttpHeaders::Set(std::string_view name, std::string value) {
  std::erase_if(fields_, [&](const auto& field) { return EqualsIgnoreCase(field.first, name); });
  fields_.emplace_back(std::string(name), std::move(value));
}

std::optional<std::string_view> HttpHeaders::Get(std::string_view name) const {
  for (const auto& [n, v] : fields_) {
    if (EqualsIgnoreCase(n, name)) return std::string_view(v);
  }
  return std::nullopt;
}

std::string_view HttpRequest::path() const {
  std::string_view t = target;
  return t.substr(0, t.find('?'));
}

std::string_view HttpRequest::query() const {
  std::string_view t = target;
  auto q = t.find('?');
  return q == std::string_view::npos ? std::string_view() : t.substr(q + 1);
}

std::optional<std::string> PercentDecode(std::string_view text, bool plus_as_space) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '%') {
      if (i + 2 >= text.size()) return std::nullopt;
      int hi = HexValue(text[i + 1]);
      int lo = HexValue(text[i + 2]);
      if (hi < 0 || lo < 0) return std::nullopt;
      out.push_back(static_cast<char>(hi * 16 + lo));
      i += 2;
    } else if (c == '+' && plus_as_space) {
      out.push_back(' ');
    } else {
      out.push_back(c);
    }
  }
  return out;
}

std::string PercentEncode(std::string_view text) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (std::isalnum(byte) || c == '-' || c == '.' || c == '_' || c == '~') {
      out += c;
    } else {
      out += '%';
      out += kHex[byte >> 4];
      out += kHex[byte & 0x0F];
    }
  }
  return out;
}

std::vector<std::pair<std::string, std::string>> ParseQuery(std::string_view query) {
  std::vector<std::pair<std::string, std::string>> pairs;
  while (!query.empty()) {
    auto amp = query.find('&');
    std::string_view part = query.substr(0, amp);
    query = amp == std::string_view::npos ? std::string_view() : query.substr(amp + 1);
    if (part.empty()) continue;
    auto eq = part.find('=');
    auto key = PercentDecode(part.substr(0, eq), true);
    auto value = PercentDecode(eq == std::string_view::npos ? "" : part.substr(eq + 1), true);
    if (key && value) pairs.emplace_back(std::move(*key), std::move(*value));
  }
  return pairs;
}

}  // namespace sightline::core
