// End-to-end: the agent assistant's conversation store on every backend — creating and
// continuing conversations (client ids, workflows), listing and reading only one's own,
// deleting (all, or one workflow's), the status and the 503 of a server without a language
// model provider, and who may use it at all.
#include <gtest/gtest.h>

#include "api_client.h"
#include "harness.h"

namespace sightline::e2e {
namespace {

namespace json = boost::json;

class Agent : public BackendTest {
 protected:
  void SetUp() override {
    BackendTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    org_ = Unique("agent");
    creds_ = Bootstrap(GetParam(), org_, "Site");
    server_ = std::make_unique<ServerProcess>(GetParam());
    owner_ = api().SignIn(creds_.owner_email);
  }
  ApiClient api() const { return ApiClient(*server_); }
  std::string Base() const { return creds_.ProjectPath() + "/agent"; }
  std::vector<std::string> ConversationIds(const std::string& token,
                                           const std::string& query = "") {
    const Response r = api().Call("GET", Base() + "/conversations" + query, token);
    EXPECT_EQ(r.status, 200) << r.body;
    std::vector<std::string> ids;
    const json::value body = r.Json();
    for (const auto& c : body.at("conversations").as_array())
      ids.emplace_back(c.at("id").as_string());
    return ids;
  }

  std::string org_, owner_;
  Credentials creds_;
  std::unique_ptr<ServerProcess> server_;
};

TEST_P(Agent, WithoutAProviderTheStatusSaysSoAndAMessageIs503WithNothingStored) {
  const Response status = api().Call("GET", Base() + "/status", owner_);
  ASSERT_EQ(status.status, 200) << status.body;
  EXPECT_FALSE(status.Json().at("configured").as_bool());
  EXPECT_TRUE(status.Json().at("provider").is_null());
  EXPECT_FALSE(status.Json().at("message").as_string().empty());

  const Response created = api().Call("POST", Base() + "/conversations", owner_, "{}");
  ASSERT_EQ(created.status, 201) << created.body;
  const std::string id(created.Json().at("id").as_string());
  const Response sent = api().Call("POST", Base() + "/conversations/" + id + "/messages", owner_,
                             R"({"content":"Which AI crawlers hit us most this week?"})");
  EXPECT_EQ(sent.status, 503) << sent.body;
  EXPECT_EQ(sent.ErrorCode(), "AGENT_001");
  const Response read = api().Call("GET", Base() + "/conversations/" + id, owner_);
  EXPECT_TRUE(read.Json().at("messages").as_array().empty());
  EXPECT_EQ(api().Call("POST", Base() + "/conversations/" + id + "/messages", owner_,
                      R"({"content":""})").ErrorCode(),
            "VAL_003");
}

TEST_P(Agent, ConversationsAreCreatedContinuedAndSharedPerWorkflow) {
  // Ids are the client's; the PostgreSQL store outlives a test run, so they are made unique.
  const std::string id = Unique("conversation-");
  const Response first =
      api().Call("POST", Base() + "/conversations", owner_, R"({"id":")" + id + R"(","title":"Bots"})");
  ASSERT_EQ(first.status, 201) << first.body;
  EXPECT_EQ(first.Json().at("title").as_string(), "Bots");
  EXPECT_EQ(first.Json().at("status").as_string(), "idle");
  // The same id again continues it.
  const Response again =
      api().Call("POST", Base() + "/conversations", owner_, R"({"id":")" + id + R"("})");
  EXPECT_EQ(again.Json().at("title").as_string(), "Bots");
  // A workflow names one shared conversation.
  const Response weekly =
      api().Call("POST", Base() + "/conversations", owner_, R"({"workflowId":"weekly-report"})");
  const Response weekly_again =
      api().Call("POST", Base() + "/conversations", owner_, R"({"workflowId":"weekly-report"})");
  EXPECT_EQ(weekly.Json().at("id"), weekly_again.Json().at("id"));
  EXPECT_EQ(weekly.Json().at("workflowId").as_string(), "weekly-report");
  EXPECT_EQ(ConversationIds(owner_).size(), 2u);
  EXPECT_EQ(ConversationIds(owner_, "?workflowId=weekly-report"),
            std::vector<std::string>{std::string(weekly.Json().at("id").as_string())});
  EXPECT_EQ(api().Call("POST", Base() + "/conversations", owner_, R"({"id":"bad id!"})").ErrorCode(),
            "VAL_003");
}

TEST_P(Agent, EachUserSeesAndDeletesOnlyTheirOwn) {
  const std::string analyst =
      api().AddMember(org_, owner_, "analyst@" + org_ + ".test", "analyst").access_token;
  const std::string mine = Unique("owner-conversation-");
  ASSERT_EQ(api().Call("POST", Base() + "/conversations", owner_, R"({"id":")" + mine + R"("})").status,
            201);
  api().Call("POST", Base() + "/conversations", owner_, R"({"workflowId":"daily"})");
  const std::string theirs(
      api().Call("POST", Base() + "/conversations", analyst, "{}").Json().at("id").as_string());

  EXPECT_EQ(ConversationIds(analyst), std::vector<std::string>{theirs});
  EXPECT_EQ(api().Call("GET", Base() + "/conversations/" + mine, analyst).status, 404);
  EXPECT_EQ(
      api().Call("POST", Base() + "/conversations/" + mine + "/messages", analyst, R"({"content":"hi"})")
          .status,
      404);
  // Someone else's id cannot be taken over.
  EXPECT_EQ(api().Call("POST", Base() + "/conversations", analyst, R"({"id":")" + mine + R"("})").status,
            409);
  // Another organization's project is not found at all.
  const Credentials other = Bootstrap(GetParam(), Unique("agent-other"), "Site");
  EXPECT_EQ(
      api().Call("GET", "/" + other.org_slug + "/projects/" + other.project_id + "/agent/conversations",
           owner_)
          .status,
      404);

  // DELETE with a workflow removes only that one; without, all of the caller's, no one else's.
  EXPECT_EQ(api().Call("DELETE", Base() + "/conversations?workflowId=daily", owner_).status, 204);
  EXPECT_EQ(ConversationIds(owner_), std::vector<std::string>{mine});
  EXPECT_EQ(api().Call("DELETE", Base() + "/conversations", owner_).status, 204);
  EXPECT_TRUE(ConversationIds(owner_).empty());
  EXPECT_EQ(api().Call("GET", Base() + "/conversations/" + mine, owner_).status, 404);
  EXPECT_EQ(ConversationIds(analyst), std::vector<std::string>{theirs});
}

TEST_P(Agent, EveryRoleAndItsKeysMayUseIt) {
  // Every role holds agent.use (support too: it asks about what the role may read).
  const std::string support =
      api().AddMember(org_, owner_, "support@" + org_ + ".test", "support").access_token;
  EXPECT_EQ(api().Call("GET", Base() + "/conversations", support).status, 200);
  EXPECT_EQ(api().Call("GET", Base() + "/conversations", "").status, 401);
}

// A private API key acts for its creator (the owner, who bootstrapped it) in its project: it
// sees and continues the owner's conversations and nobody else's.
TEST_P(Agent, AKeyReachesItsCreatorsConversations) {
  const std::string& key = creds_.private_api_key;
  const Response by_owner = api().Call("POST", Base() + "/conversations", owner_, "{}");
  ASSERT_EQ(by_owner.status, 201) << by_owner.body;
  const std::string owners(by_owner.Json().at("id").as_string());
  const std::string support =
      api().AddMember(org_, owner_, "support@" + org_ + ".test", "support").access_token;
  const Response by_support = api().Call("POST", Base() + "/conversations", support, "{}");
  ASSERT_EQ(by_support.status, 201) << by_support.body;
  const std::string supports(by_support.Json().at("id").as_string());

  EXPECT_EQ(api().Call("GET", Base() + "/conversations/" + owners, key).status, 200);
  EXPECT_EQ(api().Call("GET", Base() + "/conversations/" + supports, key).status, 404);
  const Response by_key = api().Call("POST", Base() + "/conversations", key, "{}");
  ASSERT_EQ(by_key.status, 201) << by_key.body;
  const std::string keys(by_key.Json().at("id").as_string());
  EXPECT_EQ(api().Call("GET", Base() + "/conversations/" + keys, owner_).status, 200);
  EXPECT_EQ(api().Call("GET", Base() + "/conversations/" + keys, support).status, 404);
}

INSTANTIATE_TEST_SUITE_P(Backends, Agent, ::testing::ValuesIn(AvailableBackends()),
                         [](const auto& info) { return info.param.name; });

}  // namespace
}  // namespace sightline::e2e
