#include "api/error_response.h"

#include <gtest/gtest.h>

namespace sightline::api {
namespace {

using core::Error;
using core::ErrorCode;

std::string RetryAfter(const core::HttpResponse& response) {
  return std::string(response.headers.Get("Retry-After").value_or("(none)"));
}

TEST(RenderErrorResponse, StorageUnavailableSaysWhenToRetry) {
  const Error down(ErrorCode::kStorageUnavailable, "The database could not be reached.");
  const core::HttpResponse response = RenderErrorResponse(down, 0, "r-1");
  EXPECT_EQ(response.status, 503);
  EXPECT_EQ(RetryAfter(response), "5");
  EXPECT_EQ(RetryAfter(RenderOAuthError(down)), "5");
}

TEST(RenderErrorResponse, RetryAfterComesFromTheDetailsWhenTheyHaveIt) {
  const Error limited(ErrorCode::kAuthRateLimited, "Slow down.", {{"retryAfterSeconds", 42}});
  EXPECT_EQ(RetryAfter(RenderErrorResponse(limited, 0, "r-1")), "42");
  const Error busy(ErrorCode::kStorageUnavailable, "Busy.", {{"retryAfterSeconds", 1}});
  EXPECT_EQ(RetryAfter(RenderErrorResponse(busy, 0, "r-1")), "1");
}

TEST(RenderErrorResponse, OtherFailuresHaveNoRetryAfter) {
  EXPECT_EQ(RetryAfter(RenderErrorResponse(Error::Internal("boom"), 0, "r-1")), "(none)");
  EXPECT_EQ(RetryAfter(RenderErrorResponse(Error(ErrorCode::kResourceNotFound, "No."), 0, "r-1")),
            "(none)");
}

}  // namespace
}  // namespace sightline::api
