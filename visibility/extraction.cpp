#include "visibility/extraction.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

#include "core/text.h"
#include "core/url.h"
#include "visibility/answer_text.h"

namespace sightline::visibility {
namespace {

using storage::AiBrandRecord;
using storage::AiCitationRecord;
using storage::AiMentionRecord;

// Every way the brand may be written: its name, aliases and domains.
std::vector<std::string> NamesOf(const AiBrandRecord& brand) {
  std::vector<std::string> names{brand.name};
  names.insert(names.end(), brand.aliases.begin(), brand.aliases.end());
  for (const std::string& domain : brand.domains) names.push_back(RegistrableHost(domain));
  return names;
}

bool HostBelongsTo(std::string_view host, std::string_view domain) {
  if (domain.empty()) return false;
  return host == domain ||
         (host.size() > domain.size() && host.ends_with(domain) &&
          host[host.size() - domain.size() - 1] == '.');
}

const AiBrandRecord* BrandOfHost(std::string_view host,
                                 std::span<const AiBrandRecord> brands) {
  const AiBrandRecord* found = nullptr;
  for (const AiBrandRecord& brand : brands) {
    for (const std::string& domain : brand.domains) {
      if (!HostBelongsTo(host, RegistrableHost(domain))) continue;
      if (brand.is_own) return &brand;  // the project's own brand wins a shared domain
      if (!found) found = &brand;
    }
  }
  return found;
}

bool IsTrailingPunctuation(char c) {
  return c == '.' || c == ',' || c == ';' || c == ':' || c == '!' || c == '?' || c == '*' ||
         c == '_';
}

// The answer's links in order: markdown links "[title](url)" and bare URLs.
std::vector<ProvidedCitation> LinksIn(std::string_view text) {
  std::vector<ProvidedCitation> links;
  std::size_t at = 0;
  while ((at = text.find("http", at)) != std::string_view::npos) {
    const std::string_view rest = text.substr(at);
    if (!rest.starts_with("http://") && !rest.starts_with("https://")) {
      at += 4;
      continue;
    }
    std::size_t end = at;
    while (end < text.size() && !std::isspace(static_cast<unsigned char>(text[end])) &&
           text[end] != ')' && text[end] != ']' && text[end] != '>' && text[end] != '"' &&
           text[end] != '<' && text[end] != '`') {
      ++end;
    }
    std::size_t url_end = end;
    while (url_end > at && IsTrailingPunctuation(text[url_end - 1])) --url_end;
    ProvidedCitation link{std::string(text.substr(at, url_end - at)), ""};
    // "[title](" just before: the markdown link's text.
    if (at >= 2 && text[at - 1] == '(' && text[at - 2] == ']') {
      const std::size_t open = text.rfind('[', at - 2);
      if (open != std::string_view::npos) link.title = text.substr(open + 1, at - 3 - open);
    }
    links.push_back(std::move(link));
    at = end;
  }
  return links;
}

std::string WithoutTrackingParameters(std::string_view query) {
  std::string kept;
  for (const std::string& pair : core::SplitList(query, '&')) {
    if (pair.empty() || core::ToLowerAscii(pair).starts_with("utm_")) continue;
    if (!kept.empty()) kept += '&';
    kept += pair;
  }
  return kept;
}

}  // namespace

std::string RegistrableHost(std::string_view host) {
  std::string lower = core::ToLowerAscii(host);
  while (!lower.empty() && lower.back() == '.') lower.pop_back();
  if (lower.starts_with("www.")) lower.erase(0, 4);
  return lower;
}

std::string NormalizeCitationUrl(std::string_view url) {
  auto parts = core::SplitUrl(url);
  if (!parts || (parts->scheme != "http" && parts->scheme != "https") || parts->has_userinfo) {
    return "";
  }
  std::string normalized = parts->scheme + "://" + parts->host;
  if (!parts->port.empty()) normalized += ":" + parts->port;
  normalized += parts->path.empty() ? "/" : parts->path;
  const std::string query = WithoutTrackingParameters(parts->query);
  if (!query.empty()) normalized += "?" + query;
  return normalized;
}

std::vector<AiMentionRecord> ExtractMentions(std::string_view answer,
                                             std::span<const AiBrandRecord> brands) {
  const AnswerText text(answer);
  std::vector<AiMentionRecord> mentions;
  for (const AiBrandRecord& brand : brands) {
    std::set<std::size_t> offsets;  // one name may contain another: count places once
    for (const std::string& name : NamesOf(brand)) {
      for (std::size_t offset : text.Find(name)) offsets.insert(offset);
    }
    if (offsets.empty()) continue;
    AiMentionRecord mention;
    mention.brand_id = brand.id;
    mention.first_offset = static_cast<std::int64_t>(*offsets.begin());
    mention.occurrences = static_cast<std::int64_t>(offsets.size());
    mention.snippet = text.SentenceAround(*offsets.begin());
    mentions.push_back(std::move(mention));
  }
  std::stable_sort(mentions.begin(), mentions.end(), [](const auto& a, const auto& b) {
    return a.first_offset < b.first_offset;
  });
  for (std::size_t i = 0; i < mentions.size(); ++i) {
    mentions[i].rank = static_cast<std::int64_t>(i + 1);
  }
  return mentions;
}

std::vector<AiCitationRecord> ExtractCitations(std::string_view answer,
                                               std::span<const ProvidedCitation> provided,
                                               std::span<const AiBrandRecord> brands) {
  std::vector<AiCitationRecord> citations;
  std::map<std::string, std::size_t> seen;  // normalized URL → index in `citations`
  auto add = [&](const ProvidedCitation& source, std::string_view origin) {
    const std::string url = NormalizeCitationUrl(source.url);
    if (url.empty()) return;
    if (auto found = seen.find(url); found != seen.end()) {
      AiCitationRecord& known = citations[found->second];
      if (known.title.empty()) known.title = source.title;
      return;
    }
    const auto parts = core::SplitUrl(url);
    AiCitationRecord citation;
    citation.position = static_cast<std::int64_t>(citations.size() + 1);
    citation.url = url;
    citation.domain = RegistrableHost(parts->host);
    citation.path = parts->path.empty() ? "/" : parts->path;
    citation.title = core::TruncateUtf8(source.title, 300);
    citation.origin = std::string(origin);
    if (const AiBrandRecord* brand = BrandOfHost(citation.domain, brands)) {
      citation.owned = brand->is_own;
      citation.brand_id = brand->id;
    }
    seen.emplace(url, citations.size());
    citations.push_back(std::move(citation));
  };
  for (const ProvidedCitation& source : provided) add(source, "provider");
  for (const ProvidedCitation& link : LinksIn(answer)) add(link, "text");
  return citations;
}

}  // namespace sightline::visibility
