#include "core/error.h"

#include <gtest/gtest.h>

#include <set>

namespace sightline::core {
namespace {

TEST(ErrorTable, EveryCodeHasOneUniqueRowWithAFamilyPrefix) {
  std::set<std::string_view> ids;
  for (const ErrorInfo& info : AllErrorInfos()) {
    EXPECT_TRUE(ids.insert(info.id).second) << "duplicate id " << info.id;
    EXPECT_EQ(&Describe(info.code), &info);
    EXPECT_GE(info.http_status, 400);
    EXPECT_LT(info.http_status, 600);
    EXPECT_NE(info.id.find('_'), std::string_view::npos);
    EXPECT_FALSE(info.title.empty());
    EXPECT_FALSE(info.when.empty());
  }
}

TEST(ErrorTable, SpecCodesHaveTheirContractStatus) {
  EXPECT_EQ(Describe(ErrorCode::kAuthRequired).id, "AUTH_003");
  EXPECT_EQ(Describe(ErrorCode::kAuthRequired).http_status, 401);
  EXPECT_EQ(Describe(ErrorCode::kAuthRateLimited).id, "AUTH_014");
  EXPECT_EQ(Describe(ErrorCode::kAuthRateLimited).http_status, 429);
  EXPECT_EQ(Describe(ErrorCode::kPermDenied).id, "PERM_001");
  EXPECT_EQ(Describe(ErrorCode::kPermDenied).http_status, 403);
  EXPECT_EQ(Describe(ErrorCode::kValComparison).id, "VAL_001");
  EXPECT_EQ(Describe(ErrorCode::kValComparison).http_status, 400);
}

TEST(Error, InvalidNamesTheField) {
  Error error = Error::Invalid("name", "bad");
  EXPECT_EQ(error.code(), ErrorCode::kValInvalidParameter);
  EXPECT_EQ(error.details().at("field").as_string(), "name");
  EXPECT_EQ(error.http_status(), 400);
}

TEST(Error, InternalKeepsDiagnosticsOutOfTheMessage) {
  Error error = Error::Internal("sqlite: disk I/O error at /secret/path");
  EXPECT_EQ(error.message().find("/secret/path"), std::string::npos);
  EXPECT_NE(error.internal().find("/secret/path"), std::string::npos);
}

}  // namespace
}  // namespace sightline::core
