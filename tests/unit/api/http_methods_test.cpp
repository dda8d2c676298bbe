#include "api/http_methods.h"

#include <gtest/gtest.h>

#include <boost/json/parse.hpp>

#include "api/exchange.h"
#include "core/logging.h"

namespace sightline::api {
namespace {

using core::HttpMethod;
using core::HttpRequest;
using core::HttpResponse;

HttpRequest Request(HttpMethod method) {
  HttpRequest request;
  request.method = method;
  request.method_name = std::string(core::MethodName(method));
  request.target = "/somewhere";
  return request;
}

std::string Header(const HttpResponse& response, std::string_view name) {
  return std::string(response.headers.Get(name).value_or("(absent)"));
}

class HttpMethodsTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { core::SetupLogging("error", core::LogTarget::kStderr); }
  core::ManualClock clock_{1767225600000};
  std::shared_ptr<Exchange> exchange_ = Exchange::Begin(Request(HttpMethod::kGet), {}, clock_);
};

TEST_F(HttpMethodsTest, ServedMethodsAreLeftToTheEndpoint) {
  EXPECT_FALSE(
      AnswerMethod(Request(HttpMethod::kHead), ReadOnlyMethods(CorsPolicy::kNone), *exchange_));
}

TEST_F(HttpMethodsTest, WithoutCorsOptionsIsAllowOrRefused) {
  const PathMethods served{{HttpMethod::kGet, HttpMethod::kOptions}};
  const auto options = AnswerMethod(Request(HttpMethod::kOptions), served, *exchange_);
  ASSERT_TRUE(options);
  EXPECT_EQ(options->status, 204);
  EXPECT_EQ(Header(*options, "Allow"), "GET, OPTIONS");
  EXPECT_FALSE(options->headers.Has("Access-Control-Allow-Origin"));
  // A page that does not answer OPTIONS refuses it like any other method.
  const auto page =
      AnswerMethod(Request(HttpMethod::kOptions), ReadOnlyMethods(CorsPolicy::kNone), *exchange_);
  ASSERT_TRUE(page);
  EXPECT_EQ(page->status, 405);
  EXPECT_EQ(Header(*page, "Allow"), "GET, HEAD");
}

TEST_F(HttpMethodsTest, RefusalsNameTheMethodsInBothForms) {
  const auto plain =
      AnswerMethod(Request(HttpMethod::kPut),
                   {{HttpMethod::kGet, HttpMethod::kPatch, HttpMethod::kOptions}}, *exchange_);
  ASSERT_TRUE(plain);
  EXPECT_EQ(plain->status, 405);
  EXPECT_EQ(boost::json::parse(plain->body).at("error").at("message"),
            "Method PUT is not allowed here; use GET, PATCH.");
  EXPECT_EQ(Header(*plain, "Allow"), "GET, PATCH, OPTIONS");
  EXPECT_FALSE(plain->headers.Has("Access-Control-Allow-Origin"));

  const auto oauth =
      AnswerMethod(Request(HttpMethod::kDelete),
                   ReadOnlyMethods(CorsPolicy::kOAuth, ErrorForm::kOAuth), *exchange_);
  ASSERT_TRUE(oauth);
  EXPECT_EQ(oauth->status, 405);
  EXPECT_EQ(boost::json::parse(oauth->body).at("error_description"),
            "Only GET and HEAD are served here.");
  EXPECT_EQ(Header(*oauth, "Allow"), "GET, HEAD, OPTIONS");
  EXPECT_EQ(Header(*oauth, "Access-Control-Allow-Origin"), "*");
  EXPECT_EQ(Header(*oauth, "Access-Control-Expose-Headers"), "WWW-Authenticate, Retry-After");
}

TEST_F(HttpMethodsTest, PreflightsFollowThePolicy) {
  HttpRequest asking = Request(HttpMethod::kOptions);
  asking.headers.Add("Access-Control-Request-Headers", "x-custom");
  asking.headers.Add("Origin", "https://app.example");
  const PathMethods sdk{{HttpMethod::kPost, HttpMethod::kOptions}, CorsPolicy::kSdk};
  const HttpResponse echoed = AnswerOptions(asking, sdk);
  EXPECT_EQ(echoed.status, 204);
  EXPECT_EQ(Header(echoed, "Access-Control-Allow-Methods"), "POST, OPTIONS");
  EXPECT_EQ(Header(echoed, "Access-Control-Allow-Headers"), "x-custom");
  EXPECT_EQ(Header(echoed, "Access-Control-Max-Age"), "86400");
  EXPECT_FALSE(echoed.headers.Has("Allow"));
  EXPECT_EQ(
      Header(AnswerOptions(Request(HttpMethod::kOptions), sdk), "Access-Control-Allow-Headers"),
      "Content-Type, x-sdk-key, X-API-Key, Authorization");
  EXPECT_EQ(
      Header(AnswerOptions(Request(HttpMethod::kOptions), ReadOnlyMethods(CorsPolicy::kPublic)),
             "Access-Control-Allow-Headers"),
      "*");

  const HttpResponse mcp = AnswerOptions(asking, {{HttpMethod::kPost}, CorsPolicy::kMcp});
  EXPECT_EQ(Header(mcp, "Access-Control-Allow-Origin"), "https://app.example");
  EXPECT_EQ(Header(mcp, "Vary"), "Origin");
  EXPECT_NE(Header(mcp, "Access-Control-Allow-Headers"), "x-custom") << "a fixed list";
  const HttpResponse no_origin =
      AnswerOptions(Request(HttpMethod::kOptions), {{HttpMethod::kPost}, CorsPolicy::kMcp});
  EXPECT_FALSE(no_origin.headers.Has("Access-Control-Allow-Origin"));
}

}  // namespace
}  // namespace sightline::api
