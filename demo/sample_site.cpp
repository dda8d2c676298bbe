#include "demo/sample_site.h"

#include <algorithm>

#include "core/error.h"
#include "core/url.h"

namespace sightline::demo {
namespace {

using core::Error;
using core::ErrorCode;

const char* const kParagraphs[] = {
    "We test every piece of gear on the trails we love, from wet spring ridges to "
    "windswept winter summits, before it reaches our shelves.",
    "Free shipping on orders over $75, and returns within 60 days, worn outside or not.",
    "Our team of guides answers every question by email within a day, seven days a week.",
    "Every product page lists the weight, the materials and where it was made, so you can "
    "compare honestly.",
};

struct Reply {
  int status = 200;
  std::string content_type = "text/html; charset=utf-8";
  std::string body;
  std::string location;
};

std::string Link(const std::string& path, const std::string& text) {
  return "<a href=\"" + path + "\">" + text + "</a>";
}

std::string Navigation() {
  return "<nav>" + Link("/", "Home") + " " + Link("/products", "Products") + " " +
         Link("/blog", "Journal") + " " + Link("/guides/sizing", "Sizing") + " " +
         Link("/about", "About") + " " + Link("/contact", "Contact") + "</nav>";
}

// The links each section's pages carry beyond the navigation: a listing links to its pages.
std::string SectionLinks(const SamplePage& page) {
  std::string out;
  for (const SamplePage& other : SamplePages()) {
    if (other.path == page.path || !other.linked || !other.in_sitemap || other.noindex) continue;
    const bool listing = page.path == "/" + other.section || page.path == "/";
    const bool sibling = other.section == page.section && page.section != "company";
    if (listing || sibling) out += "<li>" + Link(other.path, other.title) + "</li>";
  }
  return out.empty() ? out : "<ul>" + out + "</ul>";
}

std::string ProductJsonLd(const SamplePage& page) {
  return "<script type=\"application/ld+json\">{\"@context\":\"https://schema.org\","
         "\"@type\":\"Product\",\"name\":\"" + page.title + "\",\"brand\":{\"@type\":\"Brand\","
         "\"name\":\"Northwind Outfitters\"},\"offers\":{\"@type\":\"Offer\",\"price\":\"149.00\","
         "\"priceCurrency\":\"USD\",\"availability\":\"https://schema.org/InStock\"}}</script>";
}

std::string Html(const SamplePage& page) {
  std::string head = "<title>" + page.title + " | Northwind Outfitters</title>";
  if (!page.description.empty()) {
    head += "<meta name=\"description\" content=\"" + page.description + "\">";
  }
  if (page.noindex) head += "<meta name=\"robots\" content=\"noindex\">";
  head += "<link rel=\"canonical\" href=\"" + std::string(kSampleOrigin) + page.path + "\">";
  if (page.product) head += ProductJsonLd(page);
  std::string body = "<h1>" + page.title + "</h1>";
  const std::size_t first = page.path.size() % std::size(kParagraphs);
  for (std::size_t i = 0; i < 3; ++i) {
    body += "<p>" + std::string(kParagraphs[(first + i) % std::size(kParagraphs)]) + "</p>";
  }
  // The journal's oldest post still links to a tent that was taken off the shop: the broken
  // link the audit should report.
  if (page.path == "/blog/leave-no-trace") body += Link("/products/classic-tent", "Classic tent");
  if (page.path == "/products") body += Link("/catalog-2024", "Last year's catalog");
  return "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">"
         "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">" + head +
         "</head><body>" + Navigation() + "<main>" + body + SectionLinks(page) +
         "</main><footer>" + Link("/shipping", "Shipping") + " " + Link("/returns", "Returns") +
         " " + Link("/press", "Press") + "</footer></body></html>";
}

std::string RobotsTxt() {
  std::string out = "User-agent: *\n";
  for (const std::string& path : SampleDisallowedPaths()) out += "Disallow: " + path + "\n";
  for (const std::string& crawler : SampleBlockedCrawlers()) {
    out += "\nUser-agent: " + crawler + "\nDisallow: /\n";
  }
  return out + "\nSitemap: " + std::string(kSampleOrigin) + "/sitemap.xml\n";
}

std::string SitemapXml() {
  std::string out =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n";
  for (const SamplePage& page : SamplePages()) {
    if (page.in_sitemap) out += "  <url><loc>" + std::string(kSampleOrigin) + page.path + "</loc></url>\n";
  }
  return out + "</urlset>\n";
}

std::string LlmsTxt() {
  std::string out =
      "# Northwind Outfitters\n\n> Outdoor gear tested on the trail: packs, shells, tents and "
      "trail shoes.\n\n## Products\n\n";
  for (const SamplePage& page : SamplePages()) {
    if (page.section == "products" && page.product) {
      out += "- [" + page.title + "](" + std::string(kSampleOrigin) + page.path + ")\n";
    }
  }
  return out;
}

Reply Answer(const std::string& path, const std::string& token) {
  if (path == "/robots.txt") return {200, "text/plain; charset=utf-8", RobotsTxt(), ""};
  if (path == "/sitemap.xml") return {200, "application/xml", SitemapXml(), ""};
  if (path == "/llms.txt") return {200, "text/plain; charset=utf-8", LlmsTxt(), ""};
  if (path == "/.well-known/sightline-verification.txt") {
    return {200, "text/plain; charset=utf-8", token, ""};
  }
  if (path == "/catalog-2024") return {301, "text/html", "", "/products"};
  for (const SamplePage& page : SamplePages()) {
    if (page.path == path) return {200, "text/html; charset=utf-8", Html(page), ""};
  }
  return {404, "text/html; charset=utf-8", "<!doctype html><title>Not found</title>", ""};
}

}  // namespace

const std::vector<SamplePage>& SamplePages() {
  static const std::vector<SamplePage> pages = {
      {"/", "Outdoor gear tested on the trail",
       "Backpacks, rain shells, tents and trail shoes, each tested on real trips by our guides "
       "before it reaches the shop.", "company"},
      {"/products", "All products",
       "Every pack, shell, tent and trail shoe we sell, with its real weight, its materials and "
       "where it was made.", "products"},
      {"/products/summit-40-backpack", "Summit 40 backpack",
       "A 40-litre backpack that carries a whole weekend on 1.1 kg, with a ventilated back panel "
       "and a removable lid.", "products", true, false, true},
      {"/products/alpine-shell-jacket", "Alpine shell jacket",
       "A three-layer waterproof and breathable shell jacket for wet ridges, with a helmet-size "
       "hood and pit zips.", "products", true, false, true},
      {"/products/trail-runner-2", "Trail Runner 2 shoes",
       "Grippy, light trail running shoes with a rock plate and a wide toe box, tested over "
       "600 km of mountain trails.", "products", true, false, true},
      {"/products/ultralight-tent", "Ultralight 2-person tent",
       "A freestanding two-person tent under a kilogram that pitches in three minutes, even in "
       "wind and rain.", "products", true, false, true},
      {"/products/merino-base-layer", "Merino base layer", "", "products", true, false, true},
      {"/compare/summit-40-vs-atmos-50", "Summit 40 vs Atmos 50: which pack?",
       "Two weekend backpacks side by side: weight, volume, fit and price, measured on the same "
       "three trips.", "products"},
      {"/blog", "Journal",
       "Trip reports, gear guides and how-tos from our guides, from the first overnight hike to "
       "winter traverses.", "blog"},
      {"/blog/how-to-choose-a-backpack", "How to choose a backpack",
       "Volume, fit and frame: what matters when you choose a backpack for day hikes, weekends "
       "and longer trips.", "blog"},
      {"/blog/layering-for-winter-hikes", "Layering for winter hikes",
       "Base, mid and shell layers explained: how to stay warm and dry on a winter hike without "
       "carrying too much.", "blog"},
      {"/blog/best-trail-running-shoes",
       "The best trail running shoes of the year, tested over 600 kilometres of mountain trails",
       "Twelve pairs of trail running shoes tested over 600 km: grip, cushioning, fit and how "
       "long they last.", "blog"},
      {"/blog/leave-no-trace", "Leave no trace: seven principles", "", "blog"},
      {"/guides/sizing", "Sizing guide",
       "Find your size for shoes, shells and packs: how to measure your foot, your chest and "
       "your back length.", "guides"},
      {"/guides/care", "Caring for waterproof gear",
       "How to wash and re-proof a waterproof shell the right way, so it keeps you dry for many "
       "more seasons.", "guides", true, false, false, false},
      {"/about", "About Northwind Outfitters",
       "Who we are, where we hike and how we test every product before we sell it, since our "
       "first shop in 2011.", "company"},
      {"/contact", "Contact",
       "Write to our guides: every question about gear, sizes or orders gets an answer within a "
       "day, seven days a week.", "company"},
      {"/shipping", "Shipping",
       "Free shipping on orders over $75 to the US, Canada and Europe; orders leave our "
       "warehouse within one working day.", "company"},
      {"/returns", "Returns",
       "Return any product within 60 days, worn outside or not, for a full refund or an "
       "exchange, with a prepaid label.", "company"},
      {"/press", "Press kit",
       "Logos, product photos and facts about Northwind Outfitters for journalists and "
       "partners.", "company", false, true},
  };
  return pages;
}

const std::vector<std::string>& SampleDisallowedPaths() {
  static const std::vector<std::string> paths = {"/cart", "/checkout", "/search"};
  return paths;
}

const std::vector<std::string>& SampleBlockedCrawlers() {
  static const std::vector<std::string> crawlers = {"GPTBot", "CCBot", "Bytespider"};
  return crawlers;
}

SampleSite::SampleSite(std::string verification_token) : token_(std::move(verification_token)) {}

core::Result<core::OutboundResponse> SampleSite::Send(const core::OutboundRequest& request,
                                                      const core::OutboundLimits&,
                                                      const core::BodyCallback& on_body,
                                                      const std::function<bool()>&) {
  const auto parts = core::SplitUrl(request.url);
  if (!parts || parts->scheme != "https" || parts->host != kSampleHost || !parts->port.empty()) {
    return Error(ErrorCode::kUnavailable,
                 "connect: the demo's sample site answers only for " + std::string(kSampleOrigin));
  }
  const Reply reply = Answer(parts->path.empty() ? "/" : parts->path, token_);
  core::OutboundResponse head;
  head.status = reply.status;
  head.headers.Set("Content-Type", reply.content_type);
  head.headers.Set("Content-Length", std::to_string(reply.body.size()));
  head.headers.Set("Strict-Transport-Security", "max-age=31536000");
  if (!reply.location.empty()) head.headers.Set("Location", reply.location);
  if (on_body) {
    const bool head_only = request.method == core::HttpMethod::kHead;
    on_body(head, head_only ? std::string_view() : std::string_view(reply.body));
  }
  return head;
}

}  // namespace sightline::demo
