#include "features/ai_visibility/common.h"
#include "features/ai_visibility/operations.h"


#include <cctype>

#include "core/crypto.h"
#include "core/ip_address.h"
#include "core/sealed_box.h"
#include "core/text.h"
#include "core/url.h"
#include "storage/ai_visibility_repository.h"
#include "features/ai_visibility/views.h"
#include "tools/audit_log.h"
#include "tools/operation_helpers.h"
#include "tools/paging.h"
#include "core/json_util.h"

namespace sightline::tools {
namespace {

namespace json = boost::json;
using core::Result;
using identity::CredentialKind;
using identity::Permission;

using ai_visibility::kCallers;
using ai_visibility::ProjectId;

std::vector<std::string> Strings(const json::object& args, std::string_view name) {
  std::vector<std::string> out;
  if (const json::value* list = args.if_contains(name); list && list->is_array()) {
    for (const json::value& item : list->as_array()) {
      std::string text = std::string(core::TrimSpaces(std::string(item.as_string())));
      if (!text.empty()) out.push_back(std::move(text));
    }
  }
  return out;
}

// "https://www.Example.com/x" or "Example.com." → "example.com".
Result<std::vector<std::string>> Domains(const json::object& args) {
  std::vector<std::string> domains;
  for (std::string domain : Strings(args, "domains")) {
    if (auto parts = core::SplitUrl(domain)) domain = parts->host;
    domain = core::ToLowerAscii(domain);
    while (!domain.empty() && domain.back() == '.') domain.pop_back();
    if (domain.starts_with("www.")) domain.erase(0, 4);
    if (domain.empty() || domain.find_first_of("/ @:") != std::string::npos ||
        domain.find('.') == std::string::npos) {
      return core::Error::Invalid("domains", "Not a domain name: " + domain + ".");
    }
    domains.push_back(std::move(domain));
  }
  return domains;
}

// ---- brands

Result<json::value> RunListAiBrands(OperationContext& context, const json::object& args) {
  const ListSpec list{"list_ai_brands", "brands"};
  auto request = ReadPageArgs(args, list.name, list.shape, kWholeList);
  if (!request) return request.error();
  auto brands = context.store.ReadOne([&](storage::Transaction& tx) {
    return tx.ai_visibility().ListAiBrands(ProjectId(context), KeysetOf(*request));
  });
  if (!brands) return brands.error();
  return AnswerPage(
      list, request->limit, std::move(*brands),
      [](const storage::AiBrandRecord& b) { return TimeIdKey(b.created_at, b.id); },
      [](const storage::AiBrandRecord& b) { return AiBrandView(b); });
}

Result<json::value> SaveBrand(OperationContext& context, const json::object& args,
                              storage::AiBrandRecord brand, bool create) {
  if (auto name = OptionalString(args, "name")) brand.name = std::string(core::TrimSpaces(*name));
  if (args.contains("aliases")) brand.aliases = Strings(args, "aliases");
  if (args.contains("domains")) {
    auto domains = Domains(args);
    if (!domains) return domains.error();
    brand.domains = std::move(*domains);
  }
  if (auto own = OptionalBool(args, "own")) brand.is_own = *own;
  if (brand.name.empty()) return core::Error::Invalid("name", "A brand needs a name.");
  brand.updated_at = context.clock.NowMillis();
  AuditEntry audit{create ? "ai_brand.create" : "ai_brand.update", "ai_brand", brand.id,
                   {{"name", brand.name}}};
  auto saved = AuditedWrite(context, audit, [&](storage::Transaction& tx) {
    return create ? tx.ai_visibility().InsertAiBrand(brand) : tx.ai_visibility().UpdateAiBrand(brand);
  });
  if (!saved) return saved.error();
  return json::value(AiBrandView(brand));
}

Result<json::value> RunCreateAiBrand(OperationContext& context, const json::object& args) {
  storage::AiBrandRecord brand;
  brand.id = core::NewUuidV7(context.clock.NowMillis());
  brand.project_id = ProjectId(context);
  brand.created_at = context.clock.NowMillis();
  return SaveBrand(context, args, std::move(brand), true);
}

Result<json::value> RunUpdateAiBrand(OperationContext& context, const json::object& args) {
  auto brand = context.store.ReadOne([&](storage::Transaction& tx) {
    return tx.ai_visibility().FindAiBrand(ProjectId(context), RequiredString(args, "brandId"));
  });
  if (!brand) return brand.error();
  if (!*brand) return NotFound("brand");
  return SaveBrand(context, args, std::move(**brand), false);
}

// Deletes one of the project's brands, prompts or engines, audited; 404 when it is not there.
Result<json::value> DeleteConfigured(
    OperationContext& context, const json::object& args, std::string_view id_field,
    std::string_view kind, std::string_view resource,
    core::Result<bool> (storage::AiVisibilityRepository::*remove)(std::string_view,
                                                                  std::string_view)) {
  const std::string id = RequiredString(args, id_field);
  AuditEntry audit{std::string(kind) + ".delete", std::string(kind), id, {}};
  auto deleted = AuditedWrite(context, audit, [&](storage::Transaction& tx) -> Result<void> {
    auto repository = tx.ai_visibility();
    auto gone = (repository.*remove)(ProjectId(context), id);
    if (!gone) return gone.error();
    if (!*gone) return NotFound(resource);
    return {};
  });
  if (!deleted) return deleted.error();
  return NoContent();
}

Result<json::value> RunDeleteAiBrand(OperationContext& context, const json::object& args) {
  return DeleteConfigured(context, args, "brandId", "ai_brand", "brand",
                          &storage::AiVisibilityRepository::DeleteAiBrand);
}

// ---- prompts

Result<storage::AiPromptRecord> PromptFrom(OperationContext& context, const json::object& args,
                                           storage::AiPromptRecord prompt) {
  if (auto text = OptionalString(args, "text")) prompt.text = std::string(core::TrimSpaces(*text));
  if (auto topic = OptionalString(args, "topic")) prompt.topic = std::string(core::TrimSpaces(*topic));
  if (args.contains("tags")) prompt.tags = Strings(args, "tags");
  if (auto language = OptionalString(args, "language")) prompt.language = *language;
  if (auto country = OptionalString(args, "country")) prompt.country = core::ToUpperAscii(*country);
  if (auto active = OptionalBool(args, "active")) prompt.active = *active;
  if (prompt.text.empty()) return core::Error::Invalid("text", "A prompt needs its text.");
  if (!prompt.country.empty() &&
      (prompt.country.size() != 2 || !std::isalpha(static_cast<unsigned char>(prompt.country[0])) ||
       !std::isalpha(static_cast<unsigned char>(prompt.country[1])))) {
    return core::Error::Invalid("country", "The country is an ISO 3166-1 alpha-2 code, like DE.");
  }
  prompt.updated_at = context.clock.NowMillis();
  return prompt;
}

storage::AiPromptRecord NewPrompt(OperationContext& context) {
  storage::AiPromptRecord prompt;
  prompt.id = core::NewUuidV7(context.clock.NowMillis());
  prompt.project_id = ProjectId(context);
  prompt.created_at = context.clock.NowMillis();
  return prompt;
}

Result<json::value> InsertPrompts(OperationContext& context,
                                  const std::vector<storage::AiPromptRecord>& prompts,
                                  std::string_view action) {
  AuditEntry audit{std::string(action), "ai_prompt", prompts.size() == 1 ? prompts[0].id : "",
                   {{"count", prompts.size()}}};
  auto saved = AuditedWrite(context, audit, [&](storage::Transaction& tx) {
    return tx.ai_visibility().InsertAiPrompts(prompts);
  });
  if (!saved) return saved.error();
  json::array out;
  for (const auto& prompt : prompts) out.push_back(AiPromptView(prompt));
  return json::value(json::object{{"prompts", std::move(out)}});
}

Result<json::value> RunListAiPrompts(OperationContext& context, const json::object& args) {
  const ListSpec list{"list_ai_prompts", "prompts"};
  auto request = ReadPageArgs(args, list.name, list.shape, kWholeList);
  if (!request) return request.error();
  auto prompts = context.store.ReadOne([&](storage::Transaction& tx) {
    return tx.ai_visibility().ListAiPromptsPage(ProjectId(context), OptionalString(args, "topic"),
                                                KeysetOf(*request));
  });
  if (!prompts) return prompts.error();
  return AnswerPage(
      list, request->limit, std::move(*prompts),
      [](const storage::AiPromptRecord& p) { return TimeIdKey(p.created_at, p.id); },
      [](const storage::AiPromptRecord& p) { return AiPromptView(p); });
}

Result<json::value> RunCreateAiPrompt(OperationContext& context, const json::object& args) {
  auto prompt = PromptFrom(context, args, NewPrompt(context));
  if (!prompt) return prompt.error();
  auto saved = InsertPrompts(context, {*prompt}, "ai_prompt.create");
  if (!saved) return saved.error();
  return json::value(AiPromptView(*prompt));
}

Result<json::value> RunCreateAiPrompts(OperationContext& context, const json::object& args) {
  std::vector<storage::AiPromptRecord> prompts;
  for (const json::value& item : args.at("prompts").as_array()) {
    auto prompt = PromptFrom(context, item.as_object(), NewPrompt(context));
    if (!prompt) {
      core::Error error = prompt.error();
      error.mutable_details()["index"] = prompts.size();
      return error;
    }
    prompts.push_back(std::move(*prompt));
  }
  return InsertPrompts(context, prompts, "ai_prompt.import");
}

Result<json::value> RunUpdateAiPrompt(OperationContext& context, const json::object& args) {
  auto found = context.store.ReadOne([&](storage::Transaction& tx) {
    return tx.ai_visibility().FindAiPrompt(ProjectId(context), RequiredString(args, "promptId"));
  });
  if (!found) return found.error();
  if (!*found) return NotFound("prompt");
  auto prompt = PromptFrom(context, args, std::move(**found));
  if (!prompt) return prompt.error();
  AuditEntry audit{"ai_prompt.update", "ai_prompt", prompt->id, {}};
  auto saved = AuditedWrite(context, audit, [&](storage::Transaction& tx) {
    return tx.ai_visibility().UpdateAiPrompt(*prompt);
  });
  if (!saved) return saved.error();
  return json::value(AiPromptView(*prompt));
}


Result<json::value> RunDeleteAiPrompt(OperationContext& context, const json::object& args) {
  return DeleteConfigured(context, args, "promptId", "ai_prompt", "prompt",
                          &storage::AiVisibilityRepository::DeleteAiPrompt);
}

// ---- engines

// An engine's base URL: http(s), and — unless the server allows private addresses — not a
// loopback, private or link-local literal (the transport checks resolved names too).
Result<std::string> BaseUrl(OperationContext& context, const std::string& url) {
  if (url.empty()) return url;
  auto parts = core::SplitUrl(url);
  if (!parts || (parts->scheme != "https" && parts->scheme != "http") || parts->has_userinfo) {
    return core::Error::Invalid("baseUrl", "The base URL must be an http(s) URL.");
  }
  if (!context.services.ai_engines_private_urls) {
    std::string host = parts->host;
    if (host.starts_with('[')) host = host.substr(1, host.size() - 2);
    const auto address = core::IpAddress::Parse(host);
    if (host == "localhost" || host.ends_with(".localhost") || (address && !address->IsGlobal())) {
      return core::Error::Invalid("baseUrl",
                                 "The base URL points at a private address; this server only "
                                 "lets engines reach public ones (--ai-engines-private-urls).");
    }
  }
  return url;
}

Result<storage::AiEngineRecord> EngineFrom(OperationContext& context, const json::object& args,
                                           storage::AiEngineRecord engine) {
  if (auto name = OptionalString(args, "name")) engine.name = std::string(core::TrimSpaces(*name));
  if (auto provider = OptionalString(args, "provider")) engine.provider = *provider;
  if (auto model = OptionalString(args, "model")) engine.model = std::string(core::TrimSpaces(*model));
  if (auto url = OptionalString(args, "baseUrl")) {
    auto checked = BaseUrl(context, std::string(core::TrimSpaces(*url)));
    if (!checked) return checked.error();
    engine.base_url = std::move(*checked);
  }
  if (auto web_search = OptionalBool(args, "webSearch")) engine.web_search = *web_search;
  if (const json::value* params = args.if_contains("params")) {
    engine.params = core::ToJson(*params);
  }
  if (const json::value* price = args.if_contains("inputPrice")) {
    engine.input_price = price->to_number<double>();
  }
  if (const json::value* price = args.if_contains("outputPrice")) {
    engine.output_price = price->to_number<double>();
  }
  if (auto active = OptionalBool(args, "active")) engine.active = *active;
  if (const json::value* key = args.if_contains("apiKey")) {
    if (key->is_null() || key->as_string().empty()) {
      engine.api_key.reset();
      engine.api_key_hint.clear();
    } else {
      if (!context.services.ai_keys) {
        return core::Error(core::ErrorCode::kAiEngineKeyUnreadable,
                           "This server has no encryption key for engine API keys.");
      }
      const std::string secret(key->as_string());
      engine.api_key = context.services.ai_keys->Seal(secret, engine.id);
      engine.api_key_hint = secret.size() > 8 ? secret.substr(secret.size() - 4) : "";
    }
  }
  if (engine.name.empty()) engine.name = engine.provider + " " + engine.model;
  engine.updated_at = context.clock.NowMillis();
  return engine;
}

Result<json::value> RunListAiEngines(OperationContext& context, const json::object& args) {
  const ListSpec list{"list_ai_engines", "engines"};
  auto request = ReadPageArgs(args, list.name, list.shape, kWholeList);
  if (!request) return request.error();
  auto engines = context.store.ReadOne([&](storage::Transaction& tx) {
    return tx.ai_visibility().ListAiEngines(ProjectId(context), KeysetOf(*request));
  });
  if (!engines) return engines.error();
  return AnswerPage(
      list, request->limit, std::move(*engines),
      [](const storage::AiEngineRecord& e) { return TimeIdKey(e.created_at, e.id); },
      [](const storage::AiEngineRecord& e) { return AiEngineView(e); });
}

Result<json::value> SaveEngine(OperationContext& context, const storage::AiEngineRecord& engine,
                               bool create) {
  // Never the key in the audit log: only that one was set.
  AuditEntry audit{create ? "ai_engine.create" : "ai_engine.update", "ai_engine", engine.id,
                   {{"provider", engine.provider}, {"model", engine.model},
                    {"hasApiKey", engine.api_key.has_value()}}};
  auto saved = AuditedWrite(context, audit, [&](storage::Transaction& tx) {
    return create ? tx.ai_visibility().InsertAiEngine(engine)
                  : tx.ai_visibility().UpdateAiEngine(engine);
  });
  if (!saved) return saved.error();
  return json::value(AiEngineView(engine));
}

Result<json::value> RunCreateAiEngine(OperationContext& context, const json::object& args) {
  storage::AiEngineRecord engine;
  engine.id = core::NewUuidV7(context.clock.NowMillis());
  engine.project_id = ProjectId(context);
  engine.params = "{}";
  engine.created_at = context.clock.NowMillis();
  auto built = EngineFrom(context, args, std::move(engine));
  if (!built) return built.error();
  return SaveEngine(context, *built, true);
}

Result<json::value> RunUpdateAiEngine(OperationContext& context, const json::object& args) {
  auto found = context.store.ReadOne([&](storage::Transaction& tx) {
    return tx.ai_visibility().FindAiEngine(ProjectId(context), RequiredString(args, "engineId"));
  });
  if (!found) return found.error();
  if (!*found) return NotFound("engine");
  auto built = EngineFrom(context, args, std::move(**found));
  if (!built) return built.error();
  return SaveEngine(context, *built, false);
}


Result<json::value> RunDeleteAiEngine(OperationContext& context, const json::object& args) {
  return DeleteConfigured(context, args, "engineId", "ai_engine", "engine",
                          &storage::AiVisibilityRepository::DeleteAiEngine);
}

// ---- settings

Result<json::value> RunGetAiVisibilitySettings(OperationContext& context, const json::object&) {
  auto settings = context.store.ReadOne(
      [&](storage::Transaction& tx) { return tx.ai_visibility().GetAiSettings(ProjectId(context)); });
  if (!settings) return settings.error();
  return json::value(AiSettingsView(*settings));
}

Result<json::value> RunUpdateAiVisibilitySettings(OperationContext& context,
                                                  const json::object& args) {
  storage::AiSettingsRecord saved;
  AuditEntry audit{"ai_visibility.settings", "project", ProjectId(context), {}};
  auto done = AuditedWrite(context, audit, [&](storage::Transaction& tx) -> Result<void> {
    auto settings = tx.ai_visibility().GetAiSettings(ProjectId(context));
    if (!settings) return settings.error();
    if (auto schedule = OptionalString(args, "schedule")) settings->schedule = *schedule;
    settings->repetitions = IntegerOr(args, "repetitions", settings->repetitions);
    settings->max_runs_per_day = IntegerOr(args, "maxRunsPerDay", settings->max_runs_per_day);
    settings->max_tokens_per_day = IntegerOr(args, "maxTokensPerDay", settings->max_tokens_per_day);
    if (const json::value* judge = args.if_contains("judgeEngineId")) {
      if (judge->is_null()) {
        settings->judge_engine_id.reset();
      } else {
        auto engine = tx.ai_visibility().FindAiEngine(ProjectId(context), judge->as_string());
        if (!engine) return engine.error();
        if (!*engine) return NotFound("engine");
        settings->judge_engine_id = std::string(judge->as_string());
      }
    }
    settings->updated_at = context.clock.NowMillis();
    audit.details = AiSettingsView(*settings);
    saved = *settings;
    return tx.ai_visibility().SaveAiSettings(*settings);
  });
  if (!done) return done.error();
  return json::value(AiSettingsView(saved));
}

constexpr std::string_view kTakesProviderKey =
    "Takes a language model provider's API key: secrets are not handed to models.";

}  // namespace

const OperationSpec kListAiBrands{
    .name = "list_ai_brands",
    .summary = "List tracked brands",
    .description = "The brands AI-visibility answers are searched for: the project's own "
                   "(`own`) and its competitors, with aliases and domains.",
    .tag = "AI visibility",
    .method = core::HttpMethod::kGet,
    .path = "/{orgSlug}/projects/{projectId}/ai-visibility/brands",
    .permission = Permission::kAiVisibilityView,
    .effect = Effect::kReadOnly,
    .credentials = kCallers,
    .run = RunListAiBrands,
};

const OperationSpec kCreateAiBrand{
    .name = "create_ai_brand",
    .summary = "Track a brand",
    .description = "Adds the project's own brand (`own: true`) or a competitor. Answers are "
                   "searched for its name, aliases and domains from the next run on.",
    .tag = "AI visibility",
    .method = core::HttpMethod::kPost,
    .path = "/{orgSlug}/projects/{projectId}/ai-visibility/brands",
    .permission = Permission::kAiVisibilityManage,
    .effect = Effect::kWrite,
    .credentials = kCallers,
    .success_status = 201,
    .run = RunCreateAiBrand,
};

const OperationSpec kUpdateAiBrand{
    .name = "update_ai_brand",
    .summary = "Change a tracked brand",
    .description = "Changes the fields given. Answers already stored keep the mentions found "
                   "when they were extracted.",
    .tag = "AI visibility",
    .method = core::HttpMethod::kPatch,
    .path = "/{orgSlug}/projects/{projectId}/ai-visibility/brands/{brandId}",
    .permission = Permission::kAiVisibilityManage,
    .effect = Effect::kIdempotentWrite,
    .credentials = kCallers,
    .run = RunUpdateAiBrand,
};

const OperationSpec kDeleteAiBrand{
    .name = "delete_ai_brand",
    .summary = "Stop tracking a brand",
    .description = "Deletes the brand and its mentions: the reports forget it.",
    .tag = "AI visibility",
    .method = core::HttpMethod::kDelete,
    .path = "/{orgSlug}/projects/{projectId}/ai-visibility/brands/{brandId}",
    .permission = Permission::kAiVisibilityManage,
    .effect = Effect::kDestructive,
    .credentials = kCallers,
    .success_status = 204,
    .run = RunDeleteAiBrand,
};

const OperationSpec kListAiPrompts{
    .name = "list_ai_prompts",
    .summary = "List tracked prompts",
    .description = "The prompts each run asks every engine, optionally of one topic.",
    .tag = "AI visibility",
    .method = core::HttpMethod::kGet,
    .path = "/{orgSlug}/projects/{projectId}/ai-visibility/prompts",
    .permission = Permission::kAiVisibilityView,
    .effect = Effect::kReadOnly,
    .credentials = kCallers,
    .run = RunListAiPrompts,
};

const OperationSpec kCreateAiPrompt{
    .name = "create_ai_prompt",
    .summary = "Track a prompt",
    .description = "Adds one prompt; `create_ai_prompts` adds up to 500 at once.",
    .tag = "AI visibility",
    .method = core::HttpMethod::kPost,
    .path = "/{orgSlug}/projects/{projectId}/ai-visibility/prompts",
    .permission = Permission::kAiVisibilityManage,
    .effect = Effect::kWrite,
    .credentials = kCallers,
    .success_status = 201,
    .run = RunCreateAiPrompt,
};

const OperationSpec kCreateAiPrompts{
    .name = "create_ai_prompts",
    .summary = "Track prompts in bulk",
    .description = "Adds up to 500 prompts in one transaction: all or none (a bad one is "
                   "named by `details.index`).",
    .tag = "AI visibility",
    .method = core::HttpMethod::kPost,
    .path = "/{orgSlug}/projects/{projectId}/ai-visibility/prompts/bulk",
    .permission = Permission::kAiVisibilityManage,
    .effect = Effect::kWrite,
    .credentials = kCallers,
    .success_status = 201,
    .run = RunCreateAiPrompts,
};

const OperationSpec kUpdateAiPrompt{
    .name = "update_ai_prompt",
    .summary = "Change a tracked prompt",
    .description = "Changes the fields given; `active: false` pauses it.",
    .tag = "AI visibility",
    .method = core::HttpMethod::kPatch,
    .path = "/{orgSlug}/projects/{projectId}/ai-visibility/prompts/{promptId}",
    .permission = Permission::kAiVisibilityManage,
    .effect = Effect::kIdempotentWrite,
    .credentials = kCallers,
    .run = RunUpdateAiPrompt,
};

const OperationSpec kDeleteAiPrompt{
    .name = "delete_ai_prompt",
    .summary = "Delete a tracked prompt",
    .description = "No run asks it any more; the answers it had stay as evidence and in the "
                   "reports of their periods.",
    .tag = "AI visibility",
    .method = core::HttpMethod::kDelete,
    .path = "/{orgSlug}/projects/{projectId}/ai-visibility/prompts/{promptId}",
    .permission = Permission::kAiVisibilityManage,
    .effect = Effect::kDestructive,
    .credentials = kCallers,
    .success_status = 204,
    .run = RunDeleteAiPrompt,
};

const OperationSpec kListAiEngines{
    .name = "list_ai_engines",
    .summary = "List engines",
    .description = "The language models the prompts are asked of. API keys are never shown: "
                   "`hasApiKey` and the last four characters only.",
    .tag = "AI visibility",
    .method = core::HttpMethod::kGet,
    .path = "/{orgSlug}/projects/{projectId}/ai-visibility/engines",
    .permission = Permission::kAiVisibilityView,
    .effect = Effect::kReadOnly,
    .credentials = kCallers,
    .run = RunListAiEngines,
};

const OperationSpec kCreateAiEngine{
    .name = "create_ai_engine",
    .summary = "Add an engine",
    .description = "A provider, model, optional base URL (any OpenAI-compatible server), web "
                   "search, request parameters, prices for costs, and the API key, encrypted "
                   "at rest with the server's key and never shown again.",
    .tag = "AI visibility",
    .method = core::HttpMethod::kPost,
    .path = "/{orgSlug}/projects/{projectId}/ai-visibility/engines",
    .permission = Permission::kAiVisibilityManage,
    .effect = Effect::kWrite,
    .credentials = kCallers,
    .success_status = 201,
    .mcp_exclusion_reason = kTakesProviderKey,
    .error_statuses = "503",
    .run = RunCreateAiEngine,
};

const OperationSpec kUpdateAiEngine{
    .name = "update_ai_engine",
    .summary = "Change an engine",
    .description = "Changes the fields given; a new `apiKey` replaces the stored one, an empty "
                   "one removes it.",
    .tag = "AI visibility",
    .method = core::HttpMethod::kPatch,
    .path = "/{orgSlug}/projects/{projectId}/ai-visibility/engines/{engineId}",
    .permission = Permission::kAiVisibilityManage,
    .effect = Effect::kIdempotentWrite,
    .credentials = kCallers,
    .mcp_exclusion_reason = kTakesProviderKey,
    .error_statuses = "503",
    .run = RunUpdateAiEngine,
};

const OperationSpec kDeleteAiEngine{
    .name = "delete_ai_engine",
    .summary = "Delete an engine",
    .description = "With its key. Its queued answers fail; answered ones stay.",
    .tag = "AI visibility",
    .method = core::HttpMethod::kDelete,
    .path = "/{orgSlug}/projects/{projectId}/ai-visibility/engines/{engineId}",
    .permission = Permission::kAiVisibilityManage,
    .effect = Effect::kDestructive,
    .credentials = kCallers,
    .success_status = 204,
    .run = RunDeleteAiEngine,
};

const OperationSpec kGetAiVisibilitySettings{
    .name = "get_ai_visibility_settings",
    .summary = "AI-visibility settings",
    .description = "The schedule (off, daily, weekly: a run at the start of each local day or "
                   "ISO week of the reporting timezone), repetitions per prompt and engine, the "
                   "daily budgets (runs and tokens over the past 24 hours), and the judge "
                   "engine (null: deterministic extraction, nothing judged).",
    .tag = "AI visibility",
    .method = core::HttpMethod::kGet,
    .path = "/{orgSlug}/projects/{projectId}/ai-visibility/settings",
    .permission = Permission::kAiVisibilityView,
    .effect = Effect::kReadOnly,
    .credentials = kCallers,
    .run = RunGetAiVisibilitySettings,
};

const OperationSpec kUpdateAiVisibilitySettings{
    .name = "update_ai_visibility_settings",
    .summary = "Change AI-visibility settings",
    .description = "Changes the fields given. `judgeEngineId` names one of the project's "
                   "engines to rate sentiment and recommendation (its tokens count too), or null.",
    .tag = "AI visibility",
    .method = core::HttpMethod::kPatch,
    .path = "/{orgSlug}/projects/{projectId}/ai-visibility/settings",
    .permission = Permission::kAiVisibilityManage,
    .effect = Effect::kIdempotentWrite,
    .credentials = kCallers,
    .run = RunUpdateAiVisibilitySettings,
};

}  // namespace sightline::tools
