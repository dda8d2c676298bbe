// `sightline api METHOD PATH`: any REST request with the login (or SIGHTLINE_API_KEY), the
// escape hatch beside the commands derived from the registry (docs/cli.md).
#include <iostream>
#include <tuple>

#include <boost/json.hpp>

#include "cli/client.h"
#include "cli/arguments.h"
#include "cli/render.h"
#include "core/http_types.h"
#include "core/json_util.h"

namespace sightline::cli {
namespace {

namespace json = boost::json;
using core::Result;

constexpr std::string_view kApiHelp =
    "Usage: sightline api METHOD PATH [-F key=value]... [-f key=value]... [--profile NAME]\n\n"
    "Sends one request to the REST API and prints the JSON answer. PATH is relative to the\n"
    "API base (/api), as the API reference writes paths: sightline api GET /web-analytics.\n"
    "  -F, --field key=value      A field; numbers, true, false and null are JSON values.\n"
    "  -f, --raw-field key=value  A field whose value is always a string.\n"
    "Fields go in the query string for GET and DELETE, else in a JSON body.\n"
    "  --all                      GET a list's every page: follow nextCursor to the end and\n"
    "                             print the rows gathered into the first answer.\n"
    "Credentials: SIGHTLINE_API_KEY (with SIGHTLINE_SERVER) when set, else the login.\n"
    "Exit codes: 0 ok, 1 server or network error, 2 invalid request, 3 not authenticated or\n"
    "not allowed, 4 not found, 5 rate limited.\n";

json::value FieldValue(const std::string& text, bool typed) {
  if (!typed) return json::value(text);
  boost::system::error_code ec;
  json::value parsed = json::parse(text, ec);
  if (!ec && (parsed.is_number() || parsed.is_bool() || parsed.is_null())) return parsed;
  return json::value(text);
}

// The request's target and body from the path and the fields.
std::pair<std::string, std::string> Request(core::HttpMethod method, std::string path,
                                            const CliArgs& args) {
  const bool in_query = method == core::HttpMethod::kGet || method == core::HttpMethod::kDelete;
  json::object body;
  for (const auto& [name, value, typed] : args.fields) {
    if (in_query) {
      path += (path.find('?') == std::string::npos ? "?" : "&") + core::PercentEncode(name) +
              "=" + core::PercentEncode(value);
    } else {
      body[name] = FieldValue(value, typed);
    }
  }
  return {path, in_query || args.fields.empty() ? "" : core::ToJson(body)};
}

void PrintJson(std::ostream& out, const json::value& value, int indent = 0) {
  const std::string pad(static_cast<std::size_t>(indent) * 2, ' ');
  const std::string inner(static_cast<std::size_t>(indent + 1) * 2, ' ');
  if (value.is_object() && !value.as_object().empty()) {
    out << "{\n";
    bool first = true;
    for (const auto& [key, item] : value.as_object()) {
      out << (first ? "" : ",\n") << inner << core::ToJson(json::string(key)) << ": ";
      PrintJson(out, item, indent + 1);
      first = false;
    }
    out << "\n" << pad << "}";
  } else if (value.is_array() && !value.as_array().empty()) {
    out << "[\n";
    bool first = true;
    for (const json::value& item : value.as_array()) {
      out << (first ? "" : ",\n") << inner;
      PrintJson(out, item, indent + 1);
      first = false;
    }
    out << "\n" << pad << "]";
  } else {
    out << core::ToJson(value);
  }
}

// Sends the request; with `all`, asks for the page after each answer that names a nextCursor
// and gathers the pages' rows into the first answer. The exit code; `out` the answer's JSON (or
// its text when it is not JSON).
int Send(cli::ApiSession& session, core::HttpMethod method, const std::string& path,
         const CliArgs& args, bool all, json::value& out, std::string& text) {
  CliArgs page_args = args;
  for (;;) {
    const auto [target, body] = Request(method, path, page_args);
    auto answer = session.Call(method, target, body);
    if (!answer) {
      std::cerr << "sightline: " << answer.error().message() << "\n";
      return answer.error().code() == core::ErrorCode::kAuthExpiredCredential ? 3 : 1;
    }
    if (answer->status >= 300) {
      std::cerr << "sightline: " << cli::DescribeFailure(*answer) << "\n";
      return cli::ExitCodeOf(answer->status);
    }
    if (answer->body.empty()) return 0;
    boost::system::error_code ec;
    json::value page = json::parse(answer->body, ec);
    if (ec) return text = answer->body, 0;
    std::string member;
    const json::array* rows = cli::RowsOf(page, &member);
    if (out.is_null()) {
      out = page;
    } else if (rows && !member.empty() && out.as_object()[member].is_array()) {
      json::array& gathered = out.as_object()[member].as_array();
      gathered.insert(gathered.end(), rows->begin(), rows->end());
    }
    const json::value* next = page.is_object() ? page.as_object().if_contains("nextCursor")
                                               : nullptr;
    if (!all || next == nullptr || !next->is_string()) {
      if (all && next != nullptr) out.as_object()["nextCursor"] = nullptr;
      return 0;
    }
    std::erase_if(page_args.fields, [](const auto& field) {
      return std::get<0>(field) == "cursor" || std::get<0>(field) == "offset";
    });
    page_args.fields.emplace_back("cursor", std::string(next->as_string()), false);
  }
}

}  // namespace

int RunApiCommand(const CliArgs& args) {
  if (args.help || args.positional.size() != 2) {
    std::cout << kApiHelp;
    return args.help ? 0 : 2;
  }
  const core::HttpMethod method = core::ParseMethod(args.positional[0]);
  std::string path = args.positional[1];
  if (method == core::HttpMethod::kOther || path.empty() || path.front() != '/') {
    std::cerr << "sightline: write the request as METHOD /path (GET /web-analytics)\n";
    return 2;
  }
  auto opened = OpenCliClient(args.Flag("profile"));
  if (!opened.client) return opened.exit_code;
  const bool all = args.Has("all");
  if (all && method != core::HttpMethod::kGet) {
    std::cerr << "sightline: --all pages GET requests only\n";
    return 2;
  }
  json::value answer;
  std::string text;
  const int code = Send(*opened.client->session, method, path, args, all, answer, text);
  if (code != 0) return code;
  if (!text.empty()) {
    std::cout << text;
  } else if (!answer.is_null()) {
    PrintJson(std::cout, answer);
    std::cout << "\n";
  }
  return 0;
}

}  // namespace sightline::cli
