// One transaction of the store, as Store::Read / Store::Write hand it to their function: the way
// to each area's queries, `tx.accounts().FindUserById(id)`. This header only names the area
// repositories, so including it costs nothing and changing one area rebuilds only the files that
// include that area's header (storage/<area>_repository.h). Lives for one transaction and is used
// by one thread; the repositories it returns are views over the same SQL session.
#pragma once

namespace sightline::storage {

class SqlSession;
class AccountRepository;
class SecondFactorRepository;
class EventRepository;
class ReportRepository;
class OAuthRepository;
class AgentRepository;
class AiVisibilityRepository;
class SiteAuditRepository;

class Transaction {
 public:
  explicit Transaction(SqlSession& session) : session_(session) {}

  // Users, organizations, members, invitations, projects, API keys, sign-in sessions, the audit
  // log, rate-limit windows, server secrets (storage/account_repository.h).
  AccountRepository accounts();
  // Two-factor authentication and passkeys (storage/second_factor_repository.h).
  SecondFactorRepository second_factors();
  // Events, crawler requests, visitor sessions, usage, notifications, IP-range lists
  // (storage/event_repository.h).
  EventRepository events();
  // Report rollups and the reports read from them (storage/report_repository.h).
  ReportRepository reports();
  // OAuth clients, grants and tokens, MCP sessions (storage/oauth_repository.h).
  OAuthRepository oauth();
  // The agent assistant's conversations (storage/agent_repository.h).
  AgentRepository agent();
  // AI visibility: brands, prompts, engines, runs, answers (storage/ai_visibility_repository.h).
  AiVisibilityRepository ai_visibility();
  // Site audit: sites, crawls, pages, issues, the crawler's keys (storage/site_audit_repository.h).
  SiteAuditRepository site_audit();

 private:
  SqlSession& session_;
};

}  // namespace sightline::storage
