#include "site_audit/structured_data.h"

#include <boost/json.hpp>

#include <algorithm>
#include <array>
#include <string_view>

namespace sightline::site_audit {
namespace {

// What Google's rich results need of each schema.org type. Lists are space-separated property
// names; "a|b" is satisfied by either. Sources (Google Search Central, "Structured data markup
// that Google Search supports", developers.google.com/search/docs/appearance/structured-data/):
// article, product-snippet, review-snippet, breadcrumb, faqpage, qapage, event, recipe,
// local-business, logo and organization, job-posting, video, software-app, course,
// course-info, dataset, movie, profile-page, discussion-forum, site-names. Where Google lists
// no required property but the audit still wants one (Article's headline), the row says so.
struct TypeRule {
  std::string_view type;
  std::string_view required;
  std::string_view recommended;
  std::string_view implied_when_nested = {};  // a property the enclosing item supplies
};

constexpr std::array kRules = {
    TypeRule{"Article", "headline", "image datePublished dateModified author"},
    TypeRule{"Product", "name offers|review|aggregateRating", "image description"},
    TypeRule{"Offer", "price|priceSpecification", "priceCurrency availability"},
    TypeRule{"AggregateOffer", "lowPrice priceCurrency", "highPrice offerCount"},
    TypeRule{"AggregateRating", "ratingValue ratingCount|reviewCount", "bestRating"},
    TypeRule{"Rating", "ratingValue", "bestRating worstRating"},
    // "itemReviewed ... can be omitted if the review is nested in the item it reviews".
    TypeRule{"Review", "itemReviewed reviewRating author", "datePublished", "itemReviewed"},
    TypeRule{"BreadcrumbList", "itemListElement", ""},
    TypeRule{"ListItem", "position", "name item|url"},
    TypeRule{"FAQPage", "mainEntity", ""},
    TypeRule{"QAPage", "mainEntity", ""},
    TypeRule{"Question", "name acceptedAnswer|suggestedAnswer", ""},
    TypeRule{"Answer", "text", ""},
    TypeRule{"Event", "name startDate location",
             "description endDate eventStatus image offers organizer performer"},
    TypeRule{"Recipe", "name image",
             "author datePublished description recipeIngredient recipeInstructions totalTime "
             "recipeYield aggregateRating"},
    TypeRule{"LocalBusiness", "name address",
             "telephone url geo openingHoursSpecification priceRange"},
    TypeRule{"Organization", "", "name url logo"},
    TypeRule{"JobPosting",
             "title description datePosted hiringOrganization "
             "jobLocation|jobLocationType",
             "validThrough baseSalary employmentType identifier"},
    TypeRule{"VideoObject", "name thumbnailUrl uploadDate",
             "description contentUrl|embedUrl duration"},
    // Google: name, offers (with a price) and a rating or a review.
    TypeRule{"SoftwareApplication", "name offers aggregateRating|review",
             "applicationCategory operatingSystem"},
    TypeRule{"Course", "name description", "provider"},
    TypeRule{"Dataset", "name description", "url license creator"},
    TypeRule{"Movie", "name image", "dateCreated director"},
    TypeRule{"ProfilePage", "mainEntity", "dateCreated dateModified"},
    TypeRule{"DiscussionForumPosting", "author datePublished text|image|video", "headline url"},
    TypeRule{"WebSite", "", "name url"},
    TypeRule{"WebPage", "", "name"},
};

// schema.org subtypes Google treats as their parent type.
struct TypeAlias {
  std::string_view type, rule;
};

constexpr std::array kAliases = {
    TypeAlias{"NewsArticle", "Article"},
    TypeAlias{"BlogPosting", "Article"},
    TypeAlias{"LiveBlogPosting", "Article"},
    TypeAlias{"ScholarlyArticle", "Article"},
    TypeAlias{"TechArticle", "Article"},
    TypeAlias{"Report", "Article"},
    TypeAlias{"AnalysisNewsArticle", "Article"},
    TypeAlias{"OpinionNewsArticle", "Article"},
    TypeAlias{"ReportageNewsArticle", "Article"},
    TypeAlias{"ReviewNewsArticle", "Article"},
    TypeAlias{"IndividualProduct", "Product"},
    TypeAlias{"ProductModel", "Product"},
    TypeAlias{"EmployerAggregateRating", "AggregateRating"},
    TypeAlias{"CriticReview", "Review"},
    TypeAlias{"UserReview", "Review"},
    TypeAlias{"EmployerReview", "Review"},
    TypeAlias{"MobileApplication", "SoftwareApplication"},
    TypeAlias{"WebApplication", "SoftwareApplication"},
    TypeAlias{"VideoGame", "SoftwareApplication"},
    TypeAlias{"BusinessEvent", "Event"},
    TypeAlias{"ComedyEvent", "Event"},
    TypeAlias{"DanceEvent", "Event"},
    TypeAlias{"EducationEvent", "Event"},
    TypeAlias{"ExhibitionEvent", "Event"},
    TypeAlias{"Festival", "Event"},
    TypeAlias{"FoodEvent", "Event"},
    TypeAlias{"LiteraryEvent", "Event"},
    TypeAlias{"MusicEvent", "Event"},
    TypeAlias{"SaleEvent", "Event"},
    TypeAlias{"ScreeningEvent", "Event"},
    TypeAlias{"SocialEvent", "Event"},
    TypeAlias{"SportsEvent", "Event"},
    TypeAlias{"TheaterEvent", "Event"},
    TypeAlias{"AnimalShelter", "LocalBusiness"},
    TypeAlias{"AutomotiveBusiness", "LocalBusiness"},
    TypeAlias{"AutoDealer", "LocalBusiness"},
    TypeAlias{"AutoRepair", "LocalBusiness"},
    TypeAlias{"ChildCare", "LocalBusiness"},
    TypeAlias{"Dentist", "LocalBusiness"},
    TypeAlias{"DryCleaningOrLaundry", "LocalBusiness"},
    TypeAlias{"EmergencyService", "LocalBusiness"},
    TypeAlias{"EmploymentAgency", "LocalBusiness"},
    TypeAlias{"EntertainmentBusiness", "LocalBusiness"},
    TypeAlias{"FinancialService", "LocalBusiness"},
    TypeAlias{"BankOrCreditUnion", "LocalBusiness"},
    TypeAlias{"FoodEstablishment", "LocalBusiness"},
    TypeAlias{"Restaurant", "LocalBusiness"},
    TypeAlias{"Bakery", "LocalBusiness"},
    TypeAlias{"BarOrPub", "LocalBusiness"},
    TypeAlias{"CafeOrCoffeeShop", "LocalBusiness"},
    TypeAlias{"FastFoodRestaurant", "LocalBusiness"},
    TypeAlias{"GovernmentOffice", "LocalBusiness"},
    TypeAlias{"HealthAndBeautyBusiness", "LocalBusiness"},
    TypeAlias{"HomeAndConstructionBusiness", "LocalBusiness"},
    TypeAlias{"LegalService", "LocalBusiness"},
    TypeAlias{"Library", "LocalBusiness"},
    TypeAlias{"LodgingBusiness", "LocalBusiness"},
    TypeAlias{"Hotel", "LocalBusiness"},
    TypeAlias{"MedicalBusiness", "LocalBusiness"},
    TypeAlias{"Physician", "LocalBusiness"},
    TypeAlias{"Pharmacy", "LocalBusiness"},
    TypeAlias{"ProfessionalService", "LocalBusiness"},
    TypeAlias{"RealEstateAgent", "LocalBusiness"},
    TypeAlias{"SelfStorage", "LocalBusiness"},
    TypeAlias{"ShoppingCenter", "LocalBusiness"},
    TypeAlias{"SportsActivityLocation", "LocalBusiness"},
    TypeAlias{"Store", "LocalBusiness"},
    TypeAlias{"ClothingStore", "LocalBusiness"},
    TypeAlias{"ElectronicsStore", "LocalBusiness"},
    TypeAlias{"GroceryStore", "LocalBusiness"},
    TypeAlias{"TravelAgency", "LocalBusiness"},
    TypeAlias{"Corporation", "Organization"},
    TypeAlias{"NGO", "Organization"},
    TypeAlias{"EducationalOrganization", "Organization"},
    TypeAlias{"CollegeOrUniversity", "Organization"},
    TypeAlias{"GovernmentOrganization", "Organization"},
    TypeAlias{"NewsMediaOrganization", "Organization"},
    TypeAlias{"OnlineBusiness", "Organization"},
    TypeAlias{"OnlineStore", "Organization"},
    TypeAlias{"SportsOrganization", "Organization"},
    TypeAlias{"Airline", "Organization"},
    TypeAlias{"AboutPage", "WebPage"},
    TypeAlias{"CollectionPage", "WebPage"},
    TypeAlias{"ContactPage", "WebPage"},
    TypeAlias{"ItemPage", "WebPage"},
    TypeAlias{"SearchResultsPage", "WebPage"},
    TypeAlias{"CheckoutPage", "WebPage"},
};

constexpr std::size_t kMaxItems = 1000;
constexpr unsigned kMaxJsonDepth = 64;  // JSON-LD is shallow; Boost.JSON's default is 32

// "https://schema.org/Product", "schema:Product" -> "Product"; other vocabularies unchanged.
std::string_view WithoutVocabulary(std::string_view term) {
  for (const std::string_view prefix :
       {"https://schema.org/", "http://schema.org/", "https://www.schema.org/",
        "http://www.schema.org/", "schema:"}) {
    if (term.starts_with(prefix)) return term.substr(prefix.size());
  }
  return term;
}

const TypeRule* FindRule(std::string_view type) {
  for (const TypeAlias& alias : kAliases) {
    if (alias.type == type) type = alias.rule;
  }
  const auto rule =
      std::find_if(kRules.begin(), kRules.end(), [&](const TypeRule& r) { return r.type == type; });
  return rule == kRules.end() ? nullptr : &*rule;
}

// Whether a property value says something: not null, "", [], {} or an array of those.
bool HasContent(const boost::json::value& value) {
  switch (value.kind()) {
    case boost::json::kind::null:
      return false;
    case boost::json::kind::string:
      return value.get_string().find_first_not_of(" \t\r\n") != boost::json::string::npos;
    case boost::json::kind::array: {
      const auto& array = value.get_array();
      return std::any_of(array.begin(), array.end(), HasContent);
    }
    case boost::json::kind::object:
      return !value.get_object().empty();
    default:
      return true;
  }
}

bool HasProperty(const boost::json::object& node, std::string_view name) {
  return std::any_of(node.begin(), node.end(), [&](const boost::json::key_value_pair& member) {
    return WithoutVocabulary(member.key()) == name && HasContent(member.value());
  });
}

// The space-separated entries of `list` that `node` lacks ("a|b" lacks when neither is there).
std::vector<std::string> Missing(const boost::json::object& node, std::string_view list,
                                 std::string_view implied) {
  std::vector<std::string> missing;
  while (!list.empty()) {
    const std::size_t end = std::min(list.find(' '), list.size());
    std::string_view entry = list.substr(0, end);
    list.remove_prefix(std::min(end + 1, list.size()));
    if (entry.empty() || entry == implied) continue;
    bool present = false;
    for (std::string_view rest = entry; !rest.empty() && !present;) {
      const std::size_t bar = std::min(rest.find('|'), rest.size());
      present = HasProperty(node, rest.substr(0, bar));
      rest.remove_prefix(std::min(bar + 1, rest.size()));
    }
    if (!present) missing.emplace_back(entry);
  }
  return missing;
}

std::vector<std::string_view> TypesOf(const boost::json::object& node) {
  std::vector<std::string_view> types;
  const boost::json::value* type = node.if_contains("@type");
  if (type == nullptr) return types;
  if (type->is_string()) types.push_back(type->get_string());
  if (type->is_array()) {
    for (const boost::json::value& entry : type->get_array()) {
      if (entry.is_string()) types.push_back(entry.get_string());
    }
  }
  return types;
}

StructuredDataItem Check(const boost::json::object& node, std::string_view type, bool nested) {
  StructuredDataItem item;
  item.type = WithoutVocabulary(type);
  if (const TypeRule* rule = FindRule(item.type)) {
    const std::string_view implied = nested ? rule->implied_when_nested : std::string_view();
    item.missing_required = Missing(node, rule->required, implied);
    item.missing_recommended = Missing(node, rule->recommended, implied);
  }
  return item;
}

// Lists the typed nodes of one block in document order: a pre-order walk with an explicit
// stack, through arrays, @graph and every property value. @context is skipped (its "@type"
// entries are term coercions, not nodes), as are value objects ({"@value": .., "@type": ..}).
// Returns false when the item cap was reached.
bool CollectItems(const boost::json::value& root, StructuredDataReport& report) {
  struct Pending {
    const boost::json::value* value;
    bool nested;  // inside a typed node
  };
  std::vector<Pending> stack{{&root, false}};
  while (!stack.empty()) {
    const Pending pending = stack.back();
    stack.pop_back();
    const std::size_t first_child = stack.size();
    if (const auto* array = pending.value->if_array()) {
      for (const auto& element : *array) stack.push_back({&element, pending.nested});
    } else if (const auto* node = pending.value->if_object()) {
      if (node->contains("@value")) continue;
      const auto types = TypesOf(*node);
      for (const std::string_view type : types) {
        if (report.items.size() == kMaxItems) return false;
        report.items.push_back(Check(*node, type, pending.nested));
      }
      for (const auto& member : *node) {
        if (member.key() == "@context" || member.key() == "@type") continue;
        stack.push_back({&member.value(), pending.nested || !types.empty()});
      }
    }
    std::reverse(stack.begin() + static_cast<std::ptrdiff_t>(first_child), stack.end());
  }
  return true;
}

// "line 3, column 14" (1-based, in bytes) of `offset` in `text`.
std::string Position(std::string_view text, std::size_t offset) {
  const std::string_view before = text.substr(0, offset);
  const auto line = 1 + std::count(before.begin(), before.end(), '\n');
  const std::size_t line_start = before.rfind('\n');  // npos + 1 == 0
  return "line " + std::to_string(line) + ", column " +
         std::to_string(before.size() - (line_start + 1) + 1);
}

}  // namespace

StructuredDataReport CheckJsonLd(const std::vector<std::string>& blocks) {
  StructuredDataReport report;
  for (std::size_t i = 0; i < blocks.size(); ++i) {
    const std::string label = "block " + std::to_string(i + 1) + ": ";
    const std::string& text = blocks[i];
    if (text.find_first_not_of(" \t\r\n") == std::string::npos) {
      report.parse_errors.push_back(label + "empty");
      continue;
    }
    boost::json::parse_options options;
    options.max_depth = kMaxJsonDepth;
    boost::json::parser parser({}, options);
    boost::system::error_code error;
    const std::size_t consumed = parser.write(text.data(), text.size(), error);
    if (error) {
      report.parse_errors.push_back(label + error.message() + " at " + Position(text, consumed));
      continue;
    }
    if (!CollectItems(parser.release(), report)) {
      report.parse_errors.push_back(label + "more than 1,000 items: the rest were not checked");
      break;
    }
  }
  return report;
}

}  // namespace sightline::site_audit
