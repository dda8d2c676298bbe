// AI visibility's configuration: brands, prompts, engines and the project's settings.
#include <boost/json/parse.hpp>

#include "core/json_util.h"
#include "storage/ai_visibility_repository.h"
#include "storage/sql_helpers.h"

namespace sightline::storage {
namespace {

using core::Result;
using namespace internal;  // NOLINT: the SQL helpers of this folder
namespace json = boost::json;

constexpr std::string_view kBrandColumns =
    "id, project_id, name, aliases, domains, is_own, created_at, updated_at";
constexpr std::string_view kPromptColumns =
    "id, project_id, text, topic, tags, language, country, active, created_at, updated_at";
constexpr std::string_view kEngineColumns =
    "id, project_id, name, provider, model, base_url, web_search, params, api_key, api_key_hint, "
    "input_price, output_price, active, created_at, updated_at";
constexpr std::string_view kSettingsColumns =
    "project_id, schedule, repetitions, max_runs_per_day, max_tokens_per_day, judge_engine_id, "
    "updated_at";

// Lists of names are kept as JSON arrays of strings.
std::string ListText(const std::vector<std::string>& items) {
  json::array array;
  for (const std::string& item : items) array.emplace_back(item);
  return core::ToJson(array);
}

std::vector<std::string> ListOf(const std::string& text) {
  std::vector<std::string> items;
  boost::system::error_code ec;
  const json::value parsed = json::parse(text, ec);
  if (ec || !parsed.is_array()) return items;
  for (const json::value& item : parsed.as_array()) {
    if (item.is_string()) items.emplace_back(item.as_string());
  }
  return items;
}

AiBrandRecord MapBrand(const SqlRow& r) {
  return {r.Text(0), r.Text(1), r.Text(2), ListOf(r.Text(3)), ListOf(r.Text(4)),
          r.Bool(5), r.Int(6),  r.Int(7)};
}

AiPromptRecord MapPrompt(const SqlRow& r) {
  return {r.Text(0), r.Text(1), r.Text(2), r.Text(3), ListOf(r.Text(4)),
          r.Text(5), r.Text(6), r.Bool(7), r.Int(8),  r.Int(9)};
}

AiEngineRecord MapEngine(const SqlRow& r) {
  return {r.Text(0),    r.Text(1),    r.Text(2),  r.Text(3),   r.Text(4),
          r.Text(5),    r.Bool(6),    r.Text(7),  r.OptText(8), r.Text(9),
          r.Double(10), r.Double(11), r.Bool(12), r.Int(13),   r.Int(14)};
}

AiSettingsRecord MapSettings(const SqlRow& r) {
  return {r.Text(0), r.Text(1), r.Int(2), r.Int(3), r.Int(4), r.OptText(5), r.Int(6)};
}

std::vector<SqlValue> PromptValues(const AiPromptRecord& p) {
  return {p.id,        p.project_id, p.text,         p.topic,       ListText(p.tags),
          p.language,  p.country,    Flag(p.active), p.created_at, p.updated_at};
}

}  // namespace

Result<std::vector<AiBrandRecord>> AiVisibilityRepository::ListAiBrands(
    std::string_view project_id, const KeysetPage& page) {
  SqlBuilder sql;
  sql.text = "SELECT " + std::string(kBrandColumns) + " FROM ai_brands WHERE project_id = " +
             sql.Next(std::string(project_id)) + KeysetCondition(sql, "created_at, id", page) +
             " ORDER BY created_at, id LIMIT " + sql.Next(page.limit);
  auto rows = sql.Query(session_);
  if (!rows) return rows.error();
  std::vector<AiBrandRecord> out;
  for (const SqlRow& row : *rows) out.push_back(MapBrand(row));
  return out;
}

Result<std::optional<AiBrandRecord>> AiVisibilityRepository::FindAiBrand(
    std::string_view project_id, std::string_view brand_id) {
  static const std::string sql =
      Select(kBrandColumns, "FROM ai_brands WHERE project_id = $1 AND id = $2");
  return FindOne<AiBrandRecord>(session_, sql, {std::string(project_id), std::string(brand_id)},
                                MapBrand);
}

Result<void> AiVisibilityRepository::InsertAiBrand(const AiBrandRecord& b) {
  static const std::string sql = InsertStatement("ai_brands", kBrandColumns);
  return ExecuteVoid(session_, sql,
                     {b.id, b.project_id, b.name, ListText(b.aliases), ListText(b.domains),
                      Flag(b.is_own), b.created_at, b.updated_at});
}

Result<void> AiVisibilityRepository::UpdateAiBrand(const AiBrandRecord& b) {
  return ExecuteVoid(session_,
                     "UPDATE ai_brands SET name = $3, aliases = $4, domains = $5, is_own = $6, "
                     "updated_at = $7 WHERE project_id = $1 AND id = $2",
                     {b.project_id, b.id, b.name, ListText(b.aliases), ListText(b.domains),
                      Flag(b.is_own), b.updated_at});
}

Result<bool> AiVisibilityRepository::DeleteAiBrand(std::string_view project_id,
                                                   std::string_view brand_id) {
  auto mentions = ExecuteVoid(session_,
                              "DELETE FROM ai_mentions WHERE project_id = $1 AND brand_id = $2",
                              {std::string(project_id), std::string(brand_id)});
  if (!mentions) return mentions.error();
  auto rolled = DeleteAiBrandRollups(project_id, brand_id);
  if (!rolled) return rolled.error();
  return ExecuteChanged(session_, "DELETE FROM ai_brands WHERE project_id = $1 AND id = $2",
                        {std::string(project_id), std::string(brand_id)});
}

Result<std::vector<AiPromptRecord>> AiVisibilityRepository::ListAiPrompts(
    std::string_view project_id) {
  static const std::string sql =
      Select(kPromptColumns, "FROM ai_prompts WHERE project_id = $1 ORDER BY created_at, id");
  return FindAll<AiPromptRecord>(session_, sql, {std::string(project_id)}, MapPrompt);
}

Result<std::vector<AiPromptRecord>> AiVisibilityRepository::ListAiPromptsPage(
    std::string_view project_id, const std::optional<std::string>& topic,
    const KeysetPage& page) {
  SqlBuilder sql;
  sql.text = "SELECT " + std::string(kPromptColumns) + " FROM ai_prompts WHERE project_id = " +
             sql.Next(std::string(project_id));
  if (topic) sql.text += " AND topic = " + sql.Next(*topic);
  sql.text += KeysetCondition(sql, "created_at, id", page) + " ORDER BY created_at, id LIMIT " +
              sql.Next(page.limit);
  auto rows = sql.Query(session_);
  if (!rows) return rows.error();
  std::vector<AiPromptRecord> prompts;
  for (const SqlRow& row : *rows) prompts.push_back(MapPrompt(row));
  return prompts;
}

Result<std::optional<AiPromptRecord>> AiVisibilityRepository::FindAiPrompt(
    std::string_view project_id, std::string_view prompt_id) {
  static const std::string sql =
      Select(kPromptColumns, "FROM ai_prompts WHERE project_id = $1 AND id = $2");
  return FindOne<AiPromptRecord>(session_, sql,
                                 {std::string(project_id), std::string(prompt_id)}, MapPrompt);
}

Result<void> AiVisibilityRepository::InsertAiPrompts(std::span<const AiPromptRecord> prompts) {
  return InsertRows(session_, "ai_prompts", kPromptColumns, prompts, PromptValues);
}

Result<void> AiVisibilityRepository::UpdateAiPrompt(const AiPromptRecord& p) {
  return ExecuteVoid(session_,
                     "UPDATE ai_prompts SET text = $3, topic = $4, tags = $5, language = $6, "
                     "country = $7, active = $8, updated_at = $9 WHERE project_id = $1 AND id = $2",
                     {p.project_id, p.id, p.text, p.topic, ListText(p.tags), p.language, p.country,
                      Flag(p.active), p.updated_at});
}

Result<bool> AiVisibilityRepository::DeleteAiPrompt(std::string_view project_id,
                                                    std::string_view prompt_id) {
  return ExecuteChanged(session_, "DELETE FROM ai_prompts WHERE project_id = $1 AND id = $2",
                        {std::string(project_id), std::string(prompt_id)});
}

Result<std::vector<AiEngineRecord>> AiVisibilityRepository::ListAiEngines(
    std::string_view project_id, const KeysetPage& page) {
  SqlBuilder sql;
  sql.text = "SELECT " + std::string(kEngineColumns) + " FROM ai_engines WHERE project_id = " +
             sql.Next(std::string(project_id)) + KeysetCondition(sql, "created_at, id", page) +
             " ORDER BY created_at, id LIMIT " + sql.Next(page.limit);
  auto rows = sql.Query(session_);
  if (!rows) return rows.error();
  std::vector<AiEngineRecord> out;
  for (const SqlRow& row : *rows) out.push_back(MapEngine(row));
  return out;
}

Result<std::optional<AiEngineRecord>> AiVisibilityRepository::FindAiEngine(
    std::string_view project_id, std::string_view engine_id) {
  static const std::string sql =
      Select(kEngineColumns, "FROM ai_engines WHERE project_id = $1 AND id = $2");
  return FindOne<AiEngineRecord>(session_, sql,
                                 {std::string(project_id), std::string(engine_id)}, MapEngine);
}

Result<void> AiVisibilityRepository::InsertAiEngine(const AiEngineRecord& e) {
  static const std::string sql = InsertStatement("ai_engines", kEngineColumns);
  return ExecuteVoid(session_, sql,
                     {e.id, e.project_id, e.name, e.provider, e.model, e.base_url,
                      Flag(e.web_search), e.params, Nullable(e.api_key), e.api_key_hint,
                      e.input_price, e.output_price, Flag(e.active), e.created_at, e.updated_at});
}

Result<void> AiVisibilityRepository::UpdateAiEngine(const AiEngineRecord& e) {
  return ExecuteVoid(session_,
                     "UPDATE ai_engines SET name = $3, provider = $4, model = $5, base_url = $6, "
                     "web_search = $7, params = $8, api_key = $9, api_key_hint = $10, "
                     "input_price = $11, output_price = $12, active = $13, updated_at = $14 "
                     "WHERE project_id = $1 AND id = $2",
                     {e.project_id, e.id, e.name, e.provider, e.model, e.base_url,
                      Flag(e.web_search), e.params, Nullable(e.api_key), e.api_key_hint,
                      e.input_price, e.output_price, Flag(e.active), e.updated_at});
}

Result<bool> AiVisibilityRepository::DeleteAiEngine(std::string_view project_id,
                                                    std::string_view engine_id) {
  return ExecuteChanged(session_, "DELETE FROM ai_engines WHERE project_id = $1 AND id = $2",
                        {std::string(project_id), std::string(engine_id)});
}

Result<AiSettingsRecord> AiVisibilityRepository::GetAiSettings(std::string_view project_id) {
  static const std::string sql = Select(kSettingsColumns, "FROM ai_settings WHERE project_id = $1");
  auto found = FindOne<AiSettingsRecord>(session_, sql, {std::string(project_id)}, MapSettings);
  if (!found) return found.error();
  if (*found) return std::move(**found);
  AiSettingsRecord defaults;
  defaults.project_id = std::string(project_id);
  return defaults;
}

Result<void> AiVisibilityRepository::SaveAiSettings(const AiSettingsRecord& s) {
  static const std::string sql =
      InsertStatement("ai_settings", kSettingsColumns) +
      " ON CONFLICT (project_id) DO UPDATE SET schedule = excluded.schedule, repetitions = "
      "excluded.repetitions, max_runs_per_day = excluded.max_runs_per_day, max_tokens_per_day = "
      "excluded.max_tokens_per_day, judge_engine_id = excluded.judge_engine_id, updated_at = "
      "excluded.updated_at";
  return ExecuteVoid(session_, sql,
                     {s.project_id, s.schedule, s.repetitions, s.max_runs_per_day,
                      s.max_tokens_per_day, Nullable(s.judge_engine_id), s.updated_at});
}

Result<std::vector<AiSettingsRecord>> AiVisibilityRepository::ListScheduledAiSettings() {
  static const std::string sql =
      Select(kSettingsColumns, "FROM ai_settings WHERE schedule <> 'off' ORDER BY project_id");
  return FindAll<AiSettingsRecord>(session_, sql, {}, MapSettings);
}

}  // namespace sightline::storage
