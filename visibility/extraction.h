// What one answer says about the tracked brands, without a language model judging anything
// (the deterministic mode): which brands it names, in which order, how often and in which
// sentence; and which pages it cites, from the provider's citation fields and from the links in
// its text, each marked owned (a domain of the project's own brand) or the brand it belongs to.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "storage/ai_visibility_records.h"

namespace sightline::visibility {

// A source the provider says the answer used (OpenAI's url_citation annotations, Perplexity's
// citations and search_results, Anthropic's web search citations).
struct ProvidedCitation {
  std::string url;
  std::string title;
};

// One mention per brand named at least once (by its name, an alias or one of its domains),
// ranked by where it is first named (1 = first). `recommended` and `sentiment` are left unset.
std::vector<storage::AiMentionRecord> ExtractMentions(std::string_view answer,
                                                      std::span<const storage::AiBrandRecord> brands);

// The provider's citations first, then the answer's links, each URL once (fragment and utm_*
// parameters dropped), numbered from 1. Only http(s) URLs count.
std::vector<storage::AiCitationRecord> ExtractCitations(
    std::string_view answer, std::span<const ProvidedCitation> provided,
    std::span<const storage::AiBrandRecord> brands);

// "https://www.Example.com/a?utm_source=x&b=1#top" → "https://www.example.com/a?b=1"; "" when
// not an http(s) URL.
std::string NormalizeCitationUrl(std::string_view url);

// The host without "www.", lowercase: what a brand's domains are compared with.
std::string RegistrableHost(std::string_view host);

}  // namespace sightline::visibility
