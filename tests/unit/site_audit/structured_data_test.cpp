// JSON-LD checks: valid and broken blocks, @graph, type arrays and IRIs, nested items, missing
// required and recommended properties, and "one of" requirements.
#include "site_audit/structured_data.h"

#include <gtest/gtest.h>

#include <string>

namespace sightline::site_audit {
namespace {

using Strings = std::vector<std::string>;

std::vector<std::string> Types(const StructuredDataReport& report) {
  std::vector<std::string> types;
  for (const StructuredDataItem& item : report.items) types.push_back(item.type);
  return types;
}

TEST(StructuredData, CompleteArticleLacksNothingRequired) {
  const auto report = CheckJsonLd({R"({
    "@context": "https://schema.org",
    "@type": "NewsArticle",
    "headline": "Winter tyres: what the symbols mean",
    "image": ["https://example.com/1x1.jpg"],
    "datePublished": "2025-01-05T08:00:00+01:00",
    "author": [{"@type": "Person", "name": "Ana Ruiz", "url": "https://example.com/ana"}]
  })"});
  EXPECT_TRUE(report.parse_errors.empty());
  ASSERT_EQ(Types(report), (Strings{"NewsArticle", "Person"}));
  EXPECT_TRUE(report.items[0].missing_required.empty());
  EXPECT_EQ(report.items[0].missing_recommended, (Strings{"dateModified"}));
  EXPECT_TRUE(report.items[1].missing_required.empty());  // Person has no rules
}

TEST(StructuredData, MissingAndEmptyPropertiesAreMissing) {
  const auto report = CheckJsonLd({R"({"@type": "BlogPosting", "headline": "  ",
                                       "image": [], "author": null, "datePublished": {}})"});
  ASSERT_EQ(report.items.size(), 1u);
  EXPECT_EQ(report.items[0].missing_required, (Strings{"headline"}));
  EXPECT_EQ(report.items[0].missing_recommended,
            (Strings{"image", "datePublished", "dateModified", "author"}));
}

TEST(StructuredData, OneOfIsSatisfiedByAnyAlternative) {
  const auto report = CheckJsonLd({
      R"({"@type": "Product", "name": "Snow chains"})",
      R"({"@type": "Product", "name": "Snow chains", "image": "https://example.com/c.jpg",
          "description": "Chains", "aggregateRating": {"@type": "AggregateRating",
          "ratingValue": 4.4, "reviewCount": 89}})",
  });
  ASSERT_EQ(Types(report), (Strings{"Product", "Product", "AggregateRating"}));
  EXPECT_EQ(report.items[0].missing_required, (Strings{"offers|review|aggregateRating"}));
  EXPECT_EQ(report.items[0].missing_recommended, (Strings{"image", "description"}));
  EXPECT_TRUE(report.items[1].missing_required.empty());
  EXPECT_TRUE(report.items[1].missing_recommended.empty());
  EXPECT_TRUE(report.items[2].missing_required.empty());  // reviewCount stands for ratingCount
}

TEST(StructuredData, GraphNodesAreTopLevelItems) {
  const auto report = CheckJsonLd({R"({
    "@context": "https://schema.org",
    "@graph": [
      {"@type": "WebSite", "@id": "https://example.com/#website", "url": "https://example.com/"},
      {"@type": "Organization", "@id": "https://example.com/#org", "name": "Example Motors",
       "url": "https://example.com/", "logo": "https://example.com/logo.png"},
      {"@type": "BreadcrumbList", "itemListElement": [
        {"@type": "ListItem", "position": 1, "name": "Tyres", "item": "https://example.com/t"},
        {"@type": "ListItem", "name": "Winter"}]},
      {"@type": "FAQPage"}
    ]})"});
  EXPECT_TRUE(report.parse_errors.empty());
  ASSERT_EQ(Types(report), (Strings{"WebSite", "Organization", "BreadcrumbList", "ListItem",
                                    "ListItem", "FAQPage"}));
  EXPECT_EQ(report.items[0].missing_recommended, (Strings{"name"}));
  EXPECT_TRUE(report.items[1].missing_recommended.empty());
  EXPECT_TRUE(report.items[2].missing_required.empty());
  EXPECT_EQ(report.items[4].missing_required, (Strings{"position"}));
  EXPECT_EQ(report.items[4].missing_recommended, (Strings{"item|url"}));
  EXPECT_EQ(report.items[5].missing_required, (Strings{"mainEntity"}));
}

TEST(StructuredData, TypeArraysAndVocabularyIris) {
  const auto report = CheckJsonLd({R"([
    {"@type": ["Product", "https://schema.org/Thing"], "name": "Tyre", "offers": {
      "@type": "schema:Offer", "price": "89.00", "priceCurrency": "EUR"}},
    {"@type": "http://schema.org/Recipe", "schema:name": "Soup",
     "https://schema.org/image": "https://example.com/soup.jpg"},
    {"@type": "https://example.org/vocab#Gadget"}
  ])"});
  ASSERT_EQ(Types(report),
            (Strings{"Product", "Thing", "Offer", "Recipe", "https://example.org/vocab#Gadget"}));
  EXPECT_TRUE(report.items[0].missing_required.empty());
  EXPECT_TRUE(report.items[1].missing_required.empty());  // Thing: no rules
  EXPECT_EQ(report.items[2].missing_recommended, (Strings{"availability"}));
  EXPECT_TRUE(report.items[3].missing_required.empty());  // prefixed property names count
  EXPECT_TRUE(report.items[4].missing_required.empty());
}

TEST(StructuredData, NestedReviewNeedsNoItemReviewed) {
  const auto report = CheckJsonLd({
      R"({"@type": "Product", "name": "Tyre", "review": {"@type": "Review",
          "reviewRating": {"@type": "Rating", "ratingValue": 5}, "author": {"@type": "Person",
          "name": "Jo"}}})",
      R"({"@type": "UserReview", "reviewRating": {"@type": "Rating"}, "author": "Jo"})",
  });
  ASSERT_EQ(Types(report),
            (Strings{"Product", "Review", "Rating", "Person", "UserReview", "Rating"}));
  EXPECT_TRUE(report.items[1].missing_required.empty());
  EXPECT_EQ(report.items[4].missing_required, (Strings{"itemReviewed"}));
  EXPECT_EQ(report.items[5].missing_required, (Strings{"ratingValue"}));
}

TEST(StructuredData, SubtypesUseTheirParentsRules) {
  const auto report = CheckJsonLd({
      R"({"@type": "Restaurant", "name": "Casa", "address": {"@type": "PostalAddress"}})",
      R"({"@type": "MobileApplication", "name": "Tyre Finder", "review": {"@type": "Review",
          "reviewRating": {"@type": "Rating", "ratingValue": 4}, "author": "Jo"}})",
      R"({"@type": "JobPosting", "title": "Fitter", "description": "<p>Fit tyres</p>",
          "datePosted": "2025-01-01", "hiringOrganization": {"@type": "Organization",
          "name": "Example Motors"}, "jobLocationType": "TELECOMMUTE"})",
  });
  ASSERT_EQ(report.items.size(), 7u);
  EXPECT_EQ(report.items[0].type, "Restaurant");
  EXPECT_TRUE(report.items[0].missing_required.empty());
  EXPECT_EQ(report.items[0].missing_recommended,
            (Strings{"telephone", "url", "geo", "openingHoursSpecification", "priceRange"}));
  EXPECT_EQ(report.items[2].type, "MobileApplication");
  EXPECT_EQ(report.items[2].missing_required, (Strings{"offers"}));
  EXPECT_EQ(report.items[5].type, "JobPosting");
  EXPECT_TRUE(report.items[5].missing_required.empty());
}

TEST(StructuredData, ContextTermsAndValueObjectsAreNotItems) {
  const auto report = CheckJsonLd({R"({
    "@context": ["https://schema.org", {"image": {"@id": "schema:image", "@type": "@id"}}],
    "@type": "Event", "name": "Tyre fair",
    "startDate": {"@value": "2025-03-01", "@type": "Date"},
    "location": {"@type": "Place", "name": "Hall 4"}
  })"});
  ASSERT_EQ(Types(report), (Strings{"Event", "Place"}));
  EXPECT_TRUE(report.items[0].missing_required.empty());
}

TEST(StructuredData, ParseErrorsNameTheBlockAndPosition) {
  const auto report = CheckJsonLd({
      R"({"@type": "Course", "name": "Tyres 101", "description": "Basics"})",
      "{\"@type\": \"Course\",\n  \"name\": 'single quotes'}",
      "  \n ",
      R"({"@type": "Course", "name": "Unfinished")",
      R"({"@type": "Course",})",
      R"({"@type": "Course"} {"@type": "Course"})",
  });
  EXPECT_EQ(Types(report), (Strings{"Course"}));  // only the valid block yields items
  EXPECT_EQ(report.parse_errors,
            (Strings{"block 2: syntax error at line 2, column 11", "block 3: empty",
                     "block 4: incomplete JSON at line 1, column 41",
                     "block 5: syntax error at line 1, column 20",
                     "block 6: extra data at line 1, column 21"}));
}

TEST(StructuredData, DeepNestingIsAParseErrorNotACrash) {
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  const auto report = CheckJsonLd({deep});
  ASSERT_EQ(report.parse_errors.size(), 1u);
  EXPECT_EQ(report.parse_errors[0].rfind("block 1: ", 0), 0u);
  EXPECT_TRUE(report.items.empty());
}

TEST(StructuredData, ItemsStopAtAThousand) {
  std::string graph = R"({"@graph": [)";
  for (int i = 0; i < 1200; ++i) graph += std::string(i ? "," : "") + R"({"@type": "Thing"})";
  graph += "]}";
  const auto report = CheckJsonLd({graph, R"({"@type": "Thing"})"});
  EXPECT_EQ(report.items.size(), 1000u);
  EXPECT_EQ(report.parse_errors,
            (Strings{"block 1: more than 1,000 items: the rest were not checked"}));
}

}  // namespace
}  // namespace sightline::site_audit
