#include "api_client.h"

#include <boost/json/serialize.hpp>
#include <gtest/gtest.h>


namespace sightline::e2e {

namespace json = boost::json;

Headers McpHeaders(const std::string& credential, const std::string& session) {
  Headers headers{{"Authorization", "Bearer " + credential},
                  {"Content-Type", "application/json"},
                  {"Accept", "application/json, text/event-stream"}};
  if (!session.empty()) {
    headers["Mcp-Session-Id"] = session;
    headers["MCP-Protocol-Version"] = "2025-11-25";
  }
  return headers;
}

std::string ModernBody(const std::string& method, json::object params, json::object meta_extra,
                       int id) {
  json::object meta{{"io.modelcontextprotocol/protocolVersion", kModern},
                    {"io.modelcontextprotocol/clientCapabilities", json::object()},
                    {"io.modelcontextprotocol/clientInfo",
                     json::object{{"name", "e2e"}, {"version", "1"}}}};
  for (auto& [key, value] : meta_extra) meta[key] = value;
  params["_meta"] = std::move(meta);
  return json::serialize(
      json::object{{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", params}});
}

Headers ModernHeaders(const std::string& credential, const std::string& method,
                      const std::string& name) {
  Headers headers = McpHeaders(credential);
  headers["MCP-Protocol-Version"] = kModern;
  headers["Mcp-Method"] = method;
  if (!name.empty()) headers["Mcp-Name"] = name;
  return headers;
}

std::string AccessToken(const Response& signed_in) {
  EXPECT_EQ(signed_in.status, 200) << signed_in.body;
  const json::value body = signed_in.Json();
  const json::value* token = body.is_object() ? body.as_object().if_contains("accessToken") : nullptr;
  return token && token->is_string() ? std::string(token->as_string()) : "";
}

std::string EnabledTwoFactor::NextCode() const { return OtplibCode(secret, enabled_at + 30); }

Response ApiClient::Call(const std::string& method, const std::string& target,
                         const std::string& credential, const std::string& body,
                         Headers headers) const {
  if (!credential.empty()) headers["Authorization"] = "Bearer " + credential;
  if (!body.empty()) headers["Content-Type"] = "application/json";
  return server_->Request(method, target, headers, body);
}

Response ApiClient::Login(const std::string& email, const std::string& password,
                          const std::string& code) const {
  json::object body{{"email", email}, {"password", password}};
  if (!code.empty()) body["twoFactorCode"] = code;
  return Call("POST", "/auth/login", "", json::serialize(body));
}

std::string ApiClient::SignIn(const std::string& email, const std::string& password) const {
  return AccessToken(Login(email, password));
}

Member ApiClient::AddMember(const std::string& org_slug, const std::string& inviter,
                            const std::string& email, const std::string& role) const {
  const Response invited =
      Call("POST", "/" + org_slug + "/invitations", inviter,
           json::serialize(json::object{{"email", email}, {"role", role}}));
  EXPECT_EQ(invited.status, 201) << invited.body;
  const Response accepted =
      Call("POST", "/invitations/accept", "",
           json::serialize(json::object{{"token", invited.Json().at("token")},
                                        {"password", kMemberPassword},
                                        {"firstName", "Ada"}}));
  EXPECT_EQ(accepted.status, 200) << accepted.body;
  const json::value body = accepted.Json();
  return {std::string(body.at("accessToken").as_string()),
          std::string(body.at("user").at("id").as_string())};
}

EnabledTwoFactor ApiClient::EnableTwoFactor(const std::string& session) const {
  const Response setup = Call("POST", "/users/me/2fa/setup", session);
  EXPECT_EQ(setup.status, 200) << setup.body;
  const json::value body = setup.Json();
  EnabledTwoFactor enabled{std::string(body.at("secret").as_string()), {}, UnixSecondsNow()};
  for (const auto& code : body.at("backupCodes").as_array()) {
    enabled.backup_codes.emplace_back(code.as_string());
  }
  const Response on =
      Call("POST", "/users/me/2fa/enable", session,
           json::serialize(json::object{{"code", OtplibCode(enabled.secret, enabled.enabled_at)}}));
  EXPECT_EQ(on.status, 200) << on.body;
  return enabled;
}

}  // namespace sightline::e2e
