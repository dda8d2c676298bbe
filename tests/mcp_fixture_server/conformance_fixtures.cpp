#include "tests/mcp_fixture_server/conformance_fixtures.h"

#include <boost/json/parse.hpp>
#include <thread>

#include "core/json_util.h"
#include "mcp/protocol.h"

namespace sightline::mcp {
namespace {

namespace json = boost::json;
using std::chrono::milliseconds;

// A 1×1 red PNG and an eight-sample 8 kHz WAV: the smallest valid media the suite accepts.
constexpr std::string_view kPng =
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC";
constexpr std::string_view kWav =
    "UklGRiwAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YQgAAACAgICAgICAgA==";
constexpr milliseconds kStep{50};
constexpr milliseconds kClientAnswerTimeout{30000};

json::object Text(std::string_view text) { return {{"type", "text"}, {"text", text}}; }
json::object Image() { return {{"type", "image"}, {"data", kPng}, {"mimeType", "image/png"}}; }
json::object Content(json::array blocks, bool is_error = false) {
  return {{"content", std::move(blocks)}, {"isError", is_error}};
}
json::object Resource(std::string_view uri, std::string_view mime, std::string_view text) {
  return {{"type", "resource"},
          {"resource", json::object{{"uri", uri}, {"mimeType", mime}, {"text", text}}}};
}

json::object Tool(std::string_view name, std::string_view description, json::object properties = {},
                  json::array required = {}) {
  return {{"name", name},
          {"description", description},
          {"inputSchema", json::object{{"type", "object"},
                                       {"properties", std::move(properties)},
                                       {"required", std::move(required)}}}};
}

json::object StringProperty(std::string_view description) {
  return {{"type", "string"}, {"description", description}};
}

std::string ArgumentText(const json::object& arguments, std::string_view name) {
  const json::value* value = arguments.if_contains(name);
  return value && value->is_string() ? std::string(value->as_string()) : std::string();
}

json::object ElicitationSchemaWithDefaults() {
  return {
      {"type", "object"},
      {"properties",
       json::object{{"name", json::object{{"type", "string"}, {"default", "John Doe"}}},
                    {"age", json::object{{"type", "integer"}, {"default", 30}}},
                    {"score", json::object{{"type", "number"}, {"default", 95.5}}},
                    {"status", json::object{{"type", "string"},
                                            {"enum", json::array{"active", "inactive", "pending"}},
                                            {"default", "active"}}},
                    {"verified", json::object{{"type", "boolean"}, {"default", true}}}}}};
}

json::object Titled(std::string_view value, std::string_view title) {
  return {{"const", value}, {"title", title}};
}

json::object ElicitationSchemaWithEnums() {
  return {
      {"type", "object"},
      {"properties",
       json::object{
           {"untitledSingle", json::object{{"type", "string"},
                                           {"enum", json::array{"option1", "option2", "option3"}}}},
           {"titledSingle", json::object{{"type", "string"},
                                         {"oneOf", json::array{Titled("value1", "First Option"),
                                                               Titled("value2", "Second Option"),
                                                               Titled("value3", "Third Option")}}}},
           {"legacyEnum",
            json::object{{"type", "string"},
                         {"enum", json::array{"opt1", "opt2", "opt3"}},
                         {"enumNames", json::array{"Option One", "Option Two", "Option Three"}}}},
           {"untitledMulti",
            json::object{
                {"type", "array"},
                {"items", json::object{{"type", "string"},
                                       {"enum", json::array{"option1", "option2", "option3"}}}}}},
           {"titledMulti",
            json::object{
                {"type", "array"},
                {"items",
                 json::object{{"anyOf", json::array{Titled("value1", "First Choice"),
                                                    Titled("value2", "Second Choice"),
                                                    Titled("value3", "Third Choice")}}}}}}}}};
}

// The client's answer to an elicitation as the suite's fixtures word it.
json::object ElicitationResult(const std::optional<json::value>& answer, std::string_view prefix) {
  if (!answer || !answer->is_object() || answer->as_object().contains("error")) {
    return Content({Text("The client did not answer the elicitation request.")}, true);
  }
  const json::object& result = answer->as_object();
  const json::value* action = result.if_contains("action");
  const json::value* content = result.if_contains("content");
  return Content({Text(std::string(prefix) +
                       "action=" + (action ? core::ToJson(*action) : std::string("null")) +
                       ", content=" + (content ? core::ToJson(*content) : std::string("{}")))});
}

json::object Sampling(const json::object& arguments, FixtureChannel& channel) {
  const auto answer = channel.Request(
      "sampling/createMessage",
      {{"messages", json::array{json::object{
                        {"role", "user"}, {"content", Text(ArgumentText(arguments, "prompt"))}}}},
       {"maxTokens", 100}},
      kClientAnswerTimeout);
  const json::value* content =
      answer && answer->is_object() ? answer->as_object().if_contains("content") : nullptr;
  const json::value* text =
      content && content->is_object() ? content->as_object().if_contains("text") : nullptr;
  if (!text || !text->is_string()) {
    return Content({Text("The client did not answer the sampling request.")}, true);
  }
  return Content({Text("LLM response: " + std::string(text->as_string()))});
}

json::object PromptMessage(json::object content) {
  return {{"role", "user"}, {"content", std::move(content)}};
}

json::object Prompt(std::string_view name, std::string_view description, json::array arguments) {
  return {{"name", name}, {"description", description}, {"arguments", std::move(arguments)}};
}

json::object Argument(std::string_view name, std::string_view description) {
  return {{"name", name}, {"description", description}, {"required", true}};
}

std::optional<json::object> ReadResource(std::string_view uri) {
  if (uri == "test://static-text") {
    return json::object{{"uri", uri},
                        {"mimeType", "text/plain"},
                        {"text", "This is the content of the static text resource."}};
  }
  if (uri == "test://static-binary") {
    return json::object{{"uri", uri}, {"mimeType", "image/png"}, {"blob", kPng}};
  }
  if (uri == "test://watched-resource") {
    return json::object{{"uri", uri}, {"mimeType", "text/plain"}, {"text", "Watched."}};
  }
  constexpr std::string_view kPrefix = "test://template/";
  constexpr std::string_view kSuffix = "/data";
  if (uri.starts_with(kPrefix) && uri.ends_with(kSuffix) &&
      uri.size() > kPrefix.size() + kSuffix.size()) {
    const std::string id(uri.substr(kPrefix.size(), uri.size() - kPrefix.size() - kSuffix.size()));
    return json::object{
        {"uri", uri},
        {"mimeType", "application/json"},
        {"text", core::ToJson(json::object{
                     {"id", id}, {"templateTest", true}, {"data", "Data for ID: " + id}})}};
  }
  return std::nullopt;
}

std::optional<json::object> GetPrompt(std::string_view name, const json::object& arguments) {
  if (name == "test_simple_prompt") {
    return json::object{
        {"messages", json::array{PromptMessage(Text("This is a simple prompt for testing."))}}};
  }
  if (name == "test_prompt_with_arguments") {
    return json::object{
        {"messages", json::array{PromptMessage(Text("Prompt with arguments: arg1='" +
                                                    ArgumentText(arguments, "arg1") + "', arg2='" +
                                                    ArgumentText(arguments, "arg2") + "'"))}}};
  }
  if (name == "test_prompt_with_embedded_resource") {
    return json::object{
        {"messages",
         json::array{PromptMessage(Resource(ArgumentText(arguments, "resourceUri"), "text/plain",
                                            "Embedded resource content for testing.")),
                     PromptMessage(Text("Please process the embedded resource above."))}}};
  }
  if (name == "test_prompt_with_image") {
    return json::object{
        {"messages", json::array{PromptMessage(Image()),
                                 PromptMessage(Text("Please analyze the image above."))}}};
  }
  return std::nullopt;
}

json::object Completion(const json::object& params) {
  json::array values;
  const json::value* argument = params.if_contains("argument");
  const json::value* value =
      argument && argument->is_object() ? argument->as_object().if_contains("value") : nullptr;
  const std::string prefix = value && value->is_string() ? std::string(value->as_string()) : "";
  for (const std::string_view candidate : {"paris", "park", "party"}) {
    if (candidate.starts_with(prefix)) values.emplace_back(candidate);
  }
  const std::size_t total = values.size();
  return {{"completion",
           json::object{{"values", std::move(values)}, {"total", total}, {"hasMore", false}}}};
}

}  // namespace

json::object ConformanceFixtures::Capabilities(Era era) const {
  return {{"resources", json::object{{"subscribe", era == Era::kLegacy}, {"listChanged", false}}},
          {"prompts", json::object{{"listChanged", false}}},
          {"completions", json::object()}};
}

json::array ConformanceFixtures::Tools() const {
  // JSON Schema 2020-12 vocabulary a server must pass through untouched (SEP-1613, SEP-2106).
  json::object schema_2020 = json::parse(R"({
    "$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object",
    "$defs": {"address": {"$anchor": "addressDef", "type": "object",
                          "properties": {"street": {"type": "string"}, "city": {"type": "string"}}}},
    "properties": {"name": {"type": "string"}, "address": {"$ref": "#/$defs/address"},
                   "contactMethod": {"type": "string", "enum": ["phone", "email"]},
                   "phone": {"type": "string"}, "email": {"type": "string"}},
    "allOf": [{"anyOf": [{"required": ["phone"]}, {"required": ["email"]}]}],
    "if": {"properties": {"contactMethod": {"const": "phone"}}, "required": ["contactMethod"]},
    "then": {"required": ["phone"]}, "else": {"required": ["email"]},
    "additionalProperties": false})").as_object();
  return {
      Tool("test_simple_text", "Returns a simple text response."),
      Tool("test_image_content", "Returns an image."),
      Tool("test_audio_content", "Returns audio."),
      Tool("test_embedded_resource", "Returns an embedded resource."),
      Tool("test_multiple_content_types", "Returns text, an image and a resource."),
      Tool("test_tool_with_logging", "Sends three log messages while it runs."),
      Tool("test_logging_tool", "Logs while it runs, at the level the request asked for."),
      Tool("test_tool_with_progress", "Reports progress 0, 50 and 100 of 100."),
      Tool("test_error_handling", "Always fails."),
      Tool("test_sampling", "Asks the client's model to complete a prompt.",
           {{"prompt", StringProperty("The prompt to send to the LLM")}}, {"prompt"}),
      Tool("test_elicitation", "Asks the user for information.",
           {{"message", StringProperty("The message to show the user")}}, {"message"}),
      Tool("test_elicitation_sep1034_defaults", "Elicitation with defaults of every type."),
      Tool("test_elicitation_sep1330_enums", "Elicitation with every enum form."),
      json::object{{"name", "json_schema_2020_12_tool"},
                   {"description", "Tool with JSON Schema 2020-12 features"},
                   {"inputSchema", std::move(schema_2020)}},
  };
}

bool ConformanceFixtures::HasTool(std::string_view name) const {
  for (const json::value& tool : Tools()) {
    if (tool.at("name").as_string() == name) return true;
  }
  return false;
}

json::object ConformanceFixtures::CallTool(std::string_view name, const json::object& arguments,
                                           FixtureChannel& channel) const {
  if (name == "test_simple_text") {
    return Content({Text("This is a simple text response for testing.")});
  }
  if (name == "test_image_content") return Content({Image()});
  if (name == "test_audio_content") {
    return Content({json::object{{"type", "audio"}, {"data", kWav}, {"mimeType", "audio/wav"}}});
  }
  if (name == "test_embedded_resource") {
    return Content({Resource("test://embedded-resource", "text/plain",
                             "This is an embedded resource content.")});
  }
  if (name == "test_multiple_content_types") {
    return Content({Text("Multiple content types test:"), Image(),
                    Resource("test://mixed-content-resource", "application/json",
                             R"({"test":"data","value":123})")});
  }
  if (name == "test_tool_with_logging" || name == "test_logging_tool") {
    channel.Log("info", "Tool execution started");
    std::this_thread::sleep_for(kStep);
    channel.Log("info", "Tool processing data");
    std::this_thread::sleep_for(kStep);
    channel.Log("info", "Tool execution completed");
    return Content({Text("Tool with logging executed successfully")});
  }
  if (name == "test_tool_with_progress") {
    for (const double progress : {0.0, 50.0, 100.0}) {
      channel.Progress(progress, 100);
      if (progress < 100) std::this_thread::sleep_for(kStep);
    }
    return Content({Text("Tool with progress executed successfully")});
  }
  if (name == "test_error_handling") {
    return Content({Text("This tool intentionally returns an error for testing")}, true);
  }
  if (name == "test_sampling") return Sampling(arguments, channel);
  if (name == "test_elicitation") {
    json::object schema{
        {"type", "object"},
        {"properties", json::object{{"username", StringProperty("User's response")},
                                    {"email", StringProperty("User's email address")}}},
        {"required", json::array{"username", "email"}}};
    return ElicitationResult(channel.Request("elicitation/create",
                                             {{"message", ArgumentText(arguments, "message")},
                                              {"requestedSchema", std::move(schema)}},
                                             kClientAnswerTimeout),
                             "User response: ");
  }
  if (name == "test_elicitation_sep1034_defaults" || name == "test_elicitation_sep1330_enums") {
    const bool defaults = name == "test_elicitation_sep1034_defaults";
    return ElicitationResult(
        channel.Request("elicitation/create",
                        {{"message", defaults ? "Please review the defaults."
                                              : "Please choose from the options."},
                         {"requestedSchema", defaults ? ElicitationSchemaWithDefaults()
                                                      : ElicitationSchemaWithEnums()}},
                        kClientAnswerTimeout),
        "Elicitation completed: ");
  }
  if (name == "json_schema_2020_12_tool") {
    return Content({Text("Received: " + core::ToJson(arguments))});
  }
  return Content({Text("Unknown fixture tool.")}, true);
}

std::optional<json::object> ConformanceFixtures::Handle(std::string_view method,
                                                        const json::value& id,
                                                        const json::object& params,
                                                        Era era) const {
  const auto uri_of = [&]() { return ArgumentText(params, "uri"); };
  if (method == "resources/list") {
    return ResultMessage(
        id, json::object{{"resources",
                          json::array{json::object{{"uri", "test://static-text"},
                                                   {"name", "Static text"},
                                                   {"description", "A fixed text resource."},
                                                   {"mimeType", "text/plain"}},
                                      json::object{{"uri", "test://static-binary"},
                                                   {"name", "Static binary"},
                                                   {"description", "A fixed PNG image."},
                                                   {"mimeType", "image/png"}},
                                      json::object{{"uri", "test://watched-resource"},
                                                   {"name", "Watched"},
                                                   {"description", "A resource to subscribe to."},
                                                   {"mimeType", "text/plain"}}}}});
  }
  if (method == "resources/templates/list") {
    return ResultMessage(
        id, json::object{{"resourceTemplates",
                          json::array{json::object{{"uriTemplate", "test://template/{id}/data"},
                                                   {"name", "Template data"},
                                                   {"description", "Data for an id."},
                                                   {"mimeType", "application/json"}}}}});
  }
  if (method == "resources/read") {
    auto contents = ReadResource(uri_of());
    // 2025-11-25 names a missing resource -32002; 2026-07-28 (SEP-2164) -32602.
    if (!contents) {
      return ErrorMessage(id, era == Era::kModern ? rpc::kInvalidParams : rpc::kLegacyResourceNotFound,
                          "Resource not found", json::object{{"uri", uri_of()}});
    }
    return ResultMessage(id, json::object{{"contents", json::array{std::move(*contents)}}});
  }
  if (method == "resources/subscribe" || method == "resources/unsubscribe") {
    // Nothing here ever changes, so a subscription never produces an update to send.
    if (uri_of().empty()) return ErrorMessage(id, rpc::kInvalidParams, "uri is required");
    return ResultMessage(id, json::object());
  }
  if (method == "prompts/list") {
    return ResultMessage(
        id, json::object{
                {"prompts",
                 json::array{
                     Prompt("test_simple_prompt", "A prompt without arguments.", {}),
                     Prompt("test_prompt_with_arguments", "A prompt with two arguments.",
                            {Argument("arg1", "First test argument"),
                             Argument("arg2", "Second test argument")}),
                     Prompt("test_prompt_with_embedded_resource", "A prompt embedding a resource.",
                            {Argument("resourceUri", "URI of the resource to embed")}),
                     Prompt("test_prompt_with_image", "A prompt with an image.", {})}}});
  }
  if (method == "prompts/get") {
    const json::value* arguments = params.if_contains("arguments");
    auto prompt =
        GetPrompt(ArgumentText(params, "name"),
                  arguments && arguments->is_object() ? arguments->as_object() : json::object());
    if (!prompt) return ErrorMessage(id, rpc::kInvalidParams, "Unknown prompt");
    return ResultMessage(id, std::move(*prompt));
  }
  if (method == "completion/complete") return ResultMessage(id, Completion(params));
  return std::nullopt;
}

}  // namespace sightline::mcp
