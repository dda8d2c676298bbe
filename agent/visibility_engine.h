// How an AI-visibility engine is asked: its provider client (OpenAI-compatible, Anthropic, or
// Perplexity, which speaks OpenAI's format with citations of its own), the question a prompt
// becomes (web search switched on the way each API wants it, the engine's parameters merged in),
// and the optional judge: a model that rates how the answer presents each brand it names.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "agent/provider.h"
#include "core/result.h"
#include "storage/ai_visibility_records.h"

namespace sightline::agent {

inline constexpr std::string_view kPerplexityBaseUrl = "https://api.perplexity.ai";

// Null for an unknown provider name.
std::unique_ptr<LlmProvider> EngineProvider(const storage::AiEngineRecord& engine,
                                            const std::string& api_key,
                                            const core::OutboundLimits& limits,
                                            core::HttpClient& client);

ChatRequest QuestionFor(const storage::AiEngineRecord& engine,
                        const storage::AiPromptRecord& prompt);

// "openai/gpt-4o-mini": which model judged, as stored with each judgement.
std::string JudgeName(const storage::AiEngineRecord& engine);

// Fills `recommended` and `sentiment` of `mentions` from the judge's reply (brands it leaves
// out stay unjudged). The judge's usage is added to `usage`.
core::Result<void> Judge(LlmProvider& judge, const std::string& answer,
                         const std::vector<storage::AiBrandRecord>& brands,
                         std::vector<storage::AiMentionRecord>& mentions, Usage& usage);

}  // namespace sightline::agent
