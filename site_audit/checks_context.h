// Internal to site_audit/checks*.cpp: the crawl as the checks read it — each record with its details
// parsed once, lookups by URL, who links to what — and the list findings are added to. One
// CheckContext per RunChecks call; not thread-safe (nothing shares it).
#pragma once

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <boost/json/value.hpp>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "site_audit/checks.h"

namespace sightline::site_audit::checks {

inline constexpr std::size_t kMaxEvidence = 50;  // entries in one evidence array
inline constexpr std::size_t kMaxSources = 20;   // linking pages kept per target

struct PageView {
  const storage::SiteAuditPageRecord* record = nullptr;
  boost::json::object details;
  int status = 0;         // 0: no answer
  bool page = false;      // internal and done
  bool html = false;      // a page, details.html, status 200
  bool noindex = false;   // "noindex" or "none" in the robots meta tags or X-Robots-Tag
  bool redirect = false;  // a page answering 3xx with details.redirectTo
  const std::string& url() const { return record->url; }
};

struct Inbound {
  std::size_t count = 0;               // links from other URLs
  std::vector<std::string_view> from;  // the first kMaxSources distinct linking URLs
};

class CheckContext {
 public:
  explicit CheckContext(const CheckInput& input);

  const CheckInput& input() const { return input_; }
  const boost::json::object& site() const { return input_.site; }
  const std::vector<PageView>& views() const { return views_; }  // input order
  // The record of `url`; nullptr when the crawl never met it.
  const PageView* Find(std::string_view url) const;
  // Who links to `url` (self-links excluded); nullptr when nobody does.
  const Inbound* InboundOf(std::string_view url) const;

  void Add(std::string_view rule_id, std::string url, boost::json::object evidence);
  std::vector<Finding> TakeFindings() { return std::move(findings_); }

 private:
  const CheckInput& input_;
  std::vector<PageView> views_;
  std::unordered_map<std::string_view, std::size_t> by_url_;
  std::unordered_map<std::string_view, Inbound> inbound_;
  std::vector<Finding> findings_;
};

// Readers that treat a missing or mistyped member as empty (details come from older crawls too).
std::string_view StringAt(const boost::json::object& object, std::string_view key);
const boost::json::array& ArrayAt(const boost::json::object& object, std::string_view key);
const boost::json::object& ObjectAt(const boost::json::object& object, std::string_view key);
bool BoolAt(const boost::json::object& object, std::string_view key);
std::int64_t IntAt(const boost::json::object& object, std::string_view key);
// The strings of an array member, non-strings skipped.
std::vector<std::string_view> StringsAt(const boost::json::object& object, std::string_view key);

// `status` as JSON: null for 0 (no answer).
boost::json::value StatusJson(int status);
// At most `max` of `items` as a JSON array of strings.
boost::json::array CappedStrings(const std::vector<std::string_view>& items,
                                 std::size_t max = kMaxEvidence);
// The page's distinct canonical URLs (HTML and Link header), in order.
std::vector<std::string_view> Canonicals(const PageView& view);
// Whether the answer makes a link to it broken (see site_audit/checks.h).
bool IsBrokenTarget(const PageView& target);

// The checks, by theme (one file each).
void CheckStatus(CheckContext& context);      // status/*, indexability, depth, performance
void CheckMarkup(CheckContext& context);      // html/*, h1/*, images, mixed content, JSON-LD
void CheckTexts(CheckContext& context);       // title/*, description/*
void CheckLinks(CheckContext& context);       // links/*, redirects/*
void CheckCanonicals(CheckContext& context);  // canonical/*, hreflang/*
void CheckSitemaps(CheckContext& context);    // sitemap/*, robots/*
void CheckSite(CheckContext& context);        // security/*, ai/*

}  // namespace sightline::site_audit::checks
