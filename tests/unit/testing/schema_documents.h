// Test helper: schema documents for registries built from a few operations. The registry
// refuses a document naming an operation it was not given, so the product's documents are
// narrowed to the real operations a test lists; fixture operations bring a document of their own.
// Header-only so that it needs no CMake change.
#pragma once

#include "core/json_util.h"
#include "features/all_operations.h"
#include "tools/schema_catalog.h"

#include <boost/json/parse.hpp>

#include <deque>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace sightline::testutil {

// One fixture operation's schemas, as JSON text.
struct FixtureSchemas {
  std::string_view operation;
  std::string_view input;
  std::string_view output = R"({"type": "object"})";
};

class TestSchemaDocuments {
 public:
  // `fixtures`: the schemas of the listed operations that are not the product's.
  explicit TestSchemaDocuments(std::span<const tools::OperationSpec> operations,
                               const std::vector<FixtureSchemas>& fixtures = {}) {
    for (const tools::SchemaDocument& document : tools::AllSchemaDocuments()) {
      boost::json::object parsed = boost::json::parse(document.text).as_object();
      if (boost::json::value* listed = parsed.if_contains("operations")) {
        boost::json::object kept;
        for (const auto& [name, schemas] : listed->as_object()) {
          if (Lists(operations, name) && !Fixture(fixtures, name)) kept[name] = schemas;
        }
        *listed = std::move(kept);
      }
      Add(document.path, core::ToJson(parsed));
    }
    std::string text = R"({"operations": {)";
    for (const FixtureSchemas& fixture : fixtures) {
      text += (text.back() == '{' ? "\"" : ", \"") + std::string(fixture.operation) +
              R"(": {"input": )" + std::string(fixture.input) + R"(, "output": )" +
              std::string(fixture.output) + "}";
    }
    Add("fixtures.json", text + "}}");
  }

  TestSchemaDocuments(const TestSchemaDocuments&) = delete;  // documents_ points into texts_
  TestSchemaDocuments& operator=(const TestSchemaDocuments&) = delete;

  std::span<const tools::SchemaDocument> documents() const { return documents_; }
  operator std::span<const tools::SchemaDocument>() const { return documents_; }

 private:
  static bool Lists(std::span<const tools::OperationSpec> operations, std::string_view name) {
    for (const tools::OperationSpec& spec : operations) {
      if (spec.name == name) return true;
    }
    return false;
  }
  static bool Fixture(const std::vector<FixtureSchemas>& fixtures, std::string_view name) {
    for (const FixtureSchemas& fixture : fixtures) {
      if (fixture.operation == name) return true;
    }
    return false;
  }
  void Add(std::string_view path, std::string text) {
    texts_.push_back(std::move(text));  // a deque: earlier texts stay where they are
    documents_.push_back({path, texts_.back()});
  }

  std::deque<std::string> texts_;
  std::vector<tools::SchemaDocument> documents_;
};

}  // namespace sightline::testutil
