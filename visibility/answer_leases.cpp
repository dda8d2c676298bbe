#include "visibility/answer_leases.h"

#include "storage/ai_visibility_repository.h"
#include "storage/store.h"

namespace sightline::visibility {

core::Result<bool> AnswerLeases::Claim(std::string_view id, std::int64_t now, std::int64_t until) {
  // Two statements (the answer, then its run): one transaction.
  return store_.Write(
      [&](storage::Transaction& tx) { return tx.ai_visibility().ClaimAiAnswer(id, now, until); });
}

core::Result<bool> AnswerLeases::Renew(std::string_view id, std::int64_t held, std::int64_t until) {
  return store_.WriteOne([&](storage::Transaction& tx) {
    return tx.ai_visibility().RenewAiAnswerLease(id, held, until);
  });
}

core::Result<bool> AnswerLeases::Release(std::string_view id, std::int64_t held) {
  return store_.WriteOne(
      [&](storage::Transaction& tx) { return tx.ai_visibility().ReleaseAiAnswerLease(id, held); });
}

}  // namespace sightline::visibility
