#include "jobs/job_status.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

namespace sightline::jobs {
namespace {

constexpr JobStatus kEvery[] = {
    JobStatus::kQueued,    JobStatus::kRunning, JobStatus::kCompleted,      JobStatus::kFailed,
    JobStatus::kCancelled, JobStatus::kSkipped, JobStatus::kBudgetExhausted};

// The words each kind stores and the API reports, in JobStatus order: they must never change.
std::vector<std::string> WordsOf(JobKind kind) {
  std::vector<std::string> words;
  for (JobStatus status : kEvery) {
    try {
      words.emplace_back(StatusName(kind, status));
    } catch (const std::logic_error&) {
      words.emplace_back("-");
    }
  }
  return words;
}

TEST(JobStatus, EachKindKeepsTheWordsItStoresAndReports) {
  EXPECT_EQ(WordsOf(JobKind::kCrawl), (std::vector<std::string>{"queued", "running", "completed",
                                                                "failed", "cancelled", "-", "-"}));
  EXPECT_EQ(WordsOf(JobKind::kAiRun),
            (std::vector<std::string>{"queued", "running", "completed", "failed", "cancelled", "-",
                                      "budget_exhausted"}));
  EXPECT_EQ(WordsOf(JobKind::kAiAnswer), (std::vector<std::string>{"pending", "running", "done",
                                                                   "failed", "-", "skipped", "-"}));
}

TEST(JobStatus, EveryWordParsesBackToItsStatus) {
  for (JobKind kind : {JobKind::kCrawl, JobKind::kAiRun, JobKind::kAiAnswer}) {
    for (JobStatus status : kEvery) {
      std::string name;
      try {
        name = StatusName(kind, status);
      } catch (const std::logic_error&) {
        continue;
      }
      EXPECT_EQ(ParseStatus(kind, name), status) << name;
      EXPECT_TRUE(HasStatus(kind, name, status)) << name;
    }
  }
}

TEST(JobStatus, AWordOfAnotherKindIsNotParsed) {
  EXPECT_EQ(ParseStatus(JobKind::kAiAnswer, "done"), JobStatus::kCompleted);
  EXPECT_EQ(ParseStatus(JobKind::kCrawl, "done"), std::nullopt);
  EXPECT_EQ(ParseStatus(JobKind::kAiAnswer, "completed"), std::nullopt);
  EXPECT_EQ(ParseStatus(JobKind::kCrawl, "budget_exhausted"), std::nullopt);
  EXPECT_EQ(ParseStatus(JobKind::kCrawl, "Queued"), std::nullopt);
  EXPECT_EQ(ParseStatus(JobKind::kCrawl, ""), std::nullopt);
  EXPECT_FALSE(HasStatus(JobKind::kCrawl, "", JobStatus::kQueued));
}

TEST(JobStatus, AStatusAKindDoesNotHaveIsABug) {
  EXPECT_THROW(StatusName(JobKind::kCrawl, JobStatus::kSkipped), std::logic_error);
  EXPECT_THROW(StatusName(JobKind::kAiAnswer, JobStatus::kCancelled), std::logic_error);
}

TEST(JobStatus, OnlyQueuedAndRunningWorkIsUnfinished) {
  for (JobStatus status : kEvery) {
    EXPECT_EQ(IsFinished(status), status != JobStatus::kQueued && status != JobStatus::kRunning);
  }
}

}  // namespace
}  // namespace sightline::jobs
