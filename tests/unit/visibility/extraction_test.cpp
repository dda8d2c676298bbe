// Brand mentions and citations in answers the way engines write them: markdown, lists, links,
// other scripts and alphabets.
#include "visibility/extraction.h"

#include <gtest/gtest.h>

#include "visibility/answer_text.h"

namespace sightline::visibility {
namespace {

using storage::AiBrandRecord;

AiBrandRecord Brand(std::string id, std::string name, std::vector<std::string> aliases = {},
                    std::vector<std::string> domains = {}, bool own = false) {
  AiBrandRecord brand;
  brand.id = std::move(id);
  brand.name = std::move(name);
  brand.aliases = std::move(aliases);
  brand.domains = std::move(domains);
  brand.is_own = own;
  return brand;
}

TEST(AnswerText, IgnoresCaseAndAccentsButNotWordBoundaries) {
  const AnswerText text("Try CAFÉ Analytics, or cafe-analytics. Not Cafeteria.");
  EXPECT_EQ(text.Find("Café Analytics").size(), 1u);
  EXPECT_EQ(text.Find("cafe").size(), 2u) << "CAFÉ and cafe-, never Cafeteria";
  EXPECT_TRUE(text.Find("feteria").empty());
}

TEST(AnswerText, FoldsNonLatinScriptsAndMatchesScriptsWithoutSpacesAnywhere) {
  const AnswerText greek("Η ΕΤΑΙΡΕΙΑ Σίγμα είναι καλή.");
  EXPECT_EQ(greek.Find("σιγμα").size(), 1u) << "case folding and the accent on ί";
  const AnswerText german("Die STRASSE und die Straße.");
  EXPECT_EQ(german.Find("straße").size(), 2u) << "ß folds to ss";
  const AnswerText japanese("おすすめはアクメ解析です。");
  EXPECT_EQ(japanese.Find("アクメ").size(), 1u) << "no spaces between Japanese words";
  const AnswerText cyrillic("Сервис ЯНДЕКС Метрика");
  EXPECT_EQ(cyrillic.Find("Яндекс").size(), 1u);
}

TEST(AnswerText, OffsetsAreUtf16AndSentencesEndAtLines) {
  const AnswerText text("🙂 Intro line\n- **Acme** is the best. It is cheap.\n- Other");
  const auto offsets = text.Find("acme");
  ASSERT_EQ(offsets.size(), 1u);
  EXPECT_EQ(offsets[0], 18u) << "the emoji is two UTF-16 units";
  EXPECT_EQ(text.SentenceAround(offsets[0]), "- **Acme** is the best.");
}

TEST(AnswerText, LinksAreNotMentions) {
  const AnswerText text("See https://acme.com/acme-pricing for details.");
  EXPECT_TRUE(text.Find("acme").empty());
}

TEST(Mentions, RankByFirstMentionAndCountNamesAliasesAndDomains) {
  const std::vector<AiBrandRecord> brands = {
      Brand("own", "Acme Analytics", {"Acme"}, {"acme.example"}, true),
      Brand("g", "Globex", {}, {"globex.example"}), Brand("i", "Initech")};
  const auto mentions = ExtractMentions(
      "1. **Globex** — solid.\n2. Acme Analytics (acme.example) is privacy-first; Acme is "
      "cheap.\n\nInitechnology is not a brand here.",
      brands);
  ASSERT_EQ(mentions.size(), 2u);
  EXPECT_EQ(mentions[0].brand_id, "g");
  EXPECT_EQ(mentions[0].rank, 1);
  EXPECT_EQ(mentions[1].brand_id, "own");
  EXPECT_EQ(mentions[1].rank, 2);
  EXPECT_EQ(mentions[1].occurrences, 3) << "name, domain and alias; the alias inside the name once";
  // ICU ends a sentence after "2." before a capital letter, as it should for prose.
  EXPECT_EQ(mentions[1].snippet, "Acme Analytics (acme.example) is privacy-first; Acme is cheap.");
  EXPECT_FALSE(mentions[1].recommended.has_value()) << "nothing judged in deterministic mode";
}

TEST(Citations, ProviderFieldsThenLinksEachUrlOnceMarkedOwned) {
  const std::vector<AiBrandRecord> brands = {
      Brand("own", "Acme", {}, {"acme.example"}, true), Brand("g", "Globex", {}, {"globex.example"})};
  const std::vector<ProvidedCitation> provided = {
      {"https://globex.example/blog?utm_source=openai", "Globex blog"},
      {"https://docs.acme.example/start#install", ""}};
  const auto citations = ExtractCitations(
      "See [the docs](https://docs.acme.example/start) and https://www.acme.example/pricing. "
      "Also http://other.example/x?a=1&utm_medium=ai, and ftp://nope.example/.",
      provided, brands);
  ASSERT_EQ(citations.size(), 4u);
  EXPECT_EQ(citations[0].url, "https://globex.example/blog");
  EXPECT_EQ(citations[0].origin, "provider");
  EXPECT_FALSE(citations[0].owned);
  EXPECT_EQ(citations[0].brand_id, "g");
  EXPECT_EQ(citations[1].url, "https://docs.acme.example/start");
  EXPECT_TRUE(citations[1].owned) << "a subdomain of the own brand's domain";
  EXPECT_EQ(citations[1].title, "the docs") << "the markdown link's text fills a missing title";
  EXPECT_EQ(citations[2].url, "https://www.acme.example/pricing");
  EXPECT_EQ(citations[2].domain, "acme.example");
  EXPECT_EQ(citations[2].path, "/pricing");
  EXPECT_EQ(citations[2].origin, "text");
  EXPECT_EQ(citations[3].url, "http://other.example/x?a=1");
  EXPECT_FALSE(citations[3].brand_id.has_value());
  EXPECT_EQ(citations[3].position, 4);
}

}  // namespace
}  // namespace sightline::visibility
