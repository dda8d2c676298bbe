#include "cli/render.h"
#include "core/json_util.h"

#include <algorithm>
#include <cmath>
#include <ostream>
#include <vector>

#include <boost/json.hpp>

namespace sightline::cli {
namespace {

namespace json = boost::json;

using Row = std::vector<std::pair<std::string, const json::value*>>;

// Scalars of an object, nested objects flattened with dotted names, arrays of scalars joined.
void Flatten(const json::object& object, const std::string& prefix, Row& row) {
  for (const auto& [key, value] : object) {
    const std::string name = prefix.empty() ? std::string(key) : prefix + "." + std::string(key);
    if (value.is_object()) {
      Flatten(value.as_object(), name, row);
    } else if (!value.is_array() ||
               std::ranges::none_of(value.as_array(), [](const json::value& item) {
                 return item.is_object() || item.is_array();
               })) {
      row.emplace_back(name, &value);
    }
  }
}

std::string Grouped(std::int64_t number) {
  std::string digits = std::to_string(number < 0 ? -number : number);
  for (int at = static_cast<int>(digits.size()) - 3; at > 0; at -= 3) {
    digits.insert(static_cast<std::size_t>(at), ",");
  }
  return (number < 0 ? "-" : "") + digits;
}

std::string Text(const json::value* value, bool grouped) {
  if (value == nullptr || value->is_null()) return "";
  if (value->is_string()) return std::string(value->as_string());
  if (value->is_bool()) return value->as_bool() ? "true" : "false";
  if (value->is_int64()) return grouped ? Grouped(value->as_int64()) : core::ToJson(*value);
  if (value->is_uint64()) return core::ToJson(*value);
  if (value->is_double()) {
    const double d = value->as_double();
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.2f", d);
    std::string text = buffer;
    while (text.back() == '0') text.pop_back();
    if (text.back() == '.') text.pop_back();
    return text;
  }
  std::string joined;
  for (const json::value& item : value->as_array()) {
    joined += (joined.empty() ? "" : ", ") + Text(&item, grouped);
  }
  return joined;
}

bool IsChange(const std::string& column) {
  const std::string last = column.substr(column.rfind('.') + 1);
  return last == "change" || last == "percentageChange" || last == "absoluteChange";
}

// A change with its sign, coloured when asked.
std::string ChangeText(const json::value* value, bool colour) {
  if (value == nullptr || !value->is_number()) return Text(value, true);
  const double d = value->to_number<double>();
  std::string text = (d > 0 ? "+" : "") + Text(value, true);
  if (!colour || d == 0) return text;
  return (d > 0 ? "\x1b[32m" : "\x1b[31m") + text + "\x1b[0m";
}

std::string CsvField(const std::string& text) {
  if (text.find_first_of(",\"\n") == std::string::npos) return text;
  std::string out = "\"";
  for (char c : text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

// The columns of the rows, in first-seen order.
std::vector<std::string> ColumnsOf(const std::vector<Row>& rows) {
  std::vector<std::string> columns;
  for (const Row& row : rows) {
    for (const auto& [name, value] : row) {
      if (std::ranges::find(columns, name) == columns.end()) columns.push_back(name);
    }
  }
  return columns;
}

const json::value* Cell(const Row& row, const std::string& column) {
  for (const auto& [name, value] : row) {
    if (name == column) return value;
  }
  return nullptr;
}

std::size_t DisplayWidth(const std::string& text) {
  std::size_t width = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\x1b') {  // a colour sequence takes no room
      while (i < text.size() && text[i] != 'm') ++i;
      continue;
    }
    if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) ++width;
  }
  return width;
}

std::string Clipped(const std::string& text, std::size_t width) {
  if (DisplayWidth(text) <= width || text.find('\x1b') != std::string::npos) return text;
  return text.substr(0, width > 1 ? width - 1 : 0) + "…";
}

void PrintTable(const std::vector<Row>& rows, const TableStyle& style, std::ostream& out) {
  const std::vector<std::string> columns = ColumnsOf(rows);
  if (columns.empty()) return;
  std::vector<std::vector<std::string>> cells;
  std::vector<std::size_t> widths;
  for (const std::string& column : columns) widths.push_back(DisplayWidth(column));
  for (const Row& row : rows) {
    std::vector<std::string> line;
    for (std::size_t c = 0; c < columns.size(); ++c) {
      const json::value* value = Cell(row, columns[c]);
      line.push_back(IsChange(columns[c]) ? ChangeText(value, style.colour) : Text(value, true));
      widths[c] = std::max(widths[c], DisplayWidth(line.back()));
    }
    cells.push_back(std::move(line));
  }
  // Too wide for the terminal: the widest columns give up room first (at least 8 each).
  for (;;) {
    std::size_t total = columns.size() * 2;
    for (std::size_t w : widths) total += w;
    const auto widest = std::ranges::max_element(widths);
    if (total <= style.width || *widest <= 8) break;
    const std::size_t excess = total - style.width;
    *widest = *widest - 8 > excess ? *widest - excess : 8;
  }
  const auto print_line = [&](const std::vector<std::string>& line) {
    for (std::size_t c = 0; c < line.size(); ++c) {
      const std::string text = Clipped(line[c], widths[c]);
      out << text;
      if (c + 1 < line.size()) out << std::string(widths[c] - DisplayWidth(text) + 2, ' ');
    }
    out << "\n";
  };
  std::vector<std::string> header;
  for (const std::string& column : columns) header.push_back(column);
  print_line(header);
  for (const auto& line : cells) print_line(line);
}

// Whether every member of the object is an object (metrics: {visitors: {value, previous…}}):
// printed as a table with one line per member.
bool IsTableOfObjects(const json::value& value) {
  return value.is_object() && !value.as_object().empty() &&
         std::ranges::all_of(value.as_object(),
                             [](const auto& member) { return member.value().is_object(); });
}

// One record: its scalars a name per line, then each member that holds objects as a table.
void PrintRecord(const json::object& record, const TableStyle& style, std::ostream& out) {
  Row scalars;
  for (const auto& [key, value] : record) {
    if (IsTableOfObjects(value)) continue;
    if (value.is_object()) {
      Flatten(value.as_object(), std::string(key), scalars);
    } else if (!value.is_array()) {
      scalars.emplace_back(std::string(key), &value);
    }
  }
  for (const auto& [name, value] : scalars) {
    out << name << ": " << (IsChange(name) ? ChangeText(value, style.colour) : Text(value, true))
        << "\n";
  }
  for (const auto& [key, value] : record) {
    if (!IsTableOfObjects(value)) continue;
    std::vector<Row> rows;
    std::vector<json::value> names;
    names.reserve(value.as_object().size());
    for (const auto& [name, item] : value.as_object()) names.emplace_back(name);
    std::size_t i = 0;
    for (const auto& [name, item] : value.as_object()) {
      Row row{{std::string(key), &names[i++]}};
      Flatten(item.as_object(), "", row);
      rows.push_back(std::move(row));
    }
    out << "\n";
    PrintTable(rows, style, out);
  }
}

// A `query` answer's row as columns named by the query's dimensions and metrics (and each
// metric's previous value and change when it compared), instead of two arrays in two cells.
Row QueryRow(const json::object& query, const json::object& result) {
  Row row;
  const auto add = [&](std::string name, const json::value* value) {
    row.emplace_back(std::move(name), value);
  };
  const json::array& dimensions = result.at("dimensions").as_array();
  const json::array& metrics = result.at("metrics").as_array();
  for (std::size_t i = 0; i < dimensions.size() && i < query.at("dimensions").as_array().size(); ++i) {
    add(std::string(query.at("dimensions").at(i).as_string()), &dimensions[i]);
  }
  for (std::size_t i = 0; i < metrics.size() && i < query.at("metrics").as_array().size(); ++i) {
    const std::string metric(query.at("metrics").at(i).as_string());
    add(metric, &metrics[i]);
    if (const json::value* comparison = result.if_contains("comparison")) {
      add(metric + " previous", &comparison->at("metrics").at(i));
      add(metric + " change", &comparison->at("change").at(i));
    }
  }
  return row;
}

// Whether the answer is `query`'s: rows of `dimensions` and `metrics` named by its `query`.
bool IsQueryAnswer(const json::value& answer) {
  if (!answer.is_object()) return false;
  const json::value* results = answer.as_object().if_contains("results");
  const json::value* query = answer.as_object().if_contains("query");
  return results && results->is_array() && query && query->is_object() &&
         query->as_object().contains("dimensions") && query->as_object().contains("metrics");
}

}  // namespace

const json::array* RowsOf(const json::value& answer, std::string* member) {
  if (answer.is_array()) return &answer.as_array();
  if (!answer.is_object()) return nullptr;
  for (const auto& [key, value] : answer.as_object()) {
    if (value.is_array() && !value.as_array().empty() && value.as_array().front().is_object()) {
      if (member) *member = std::string(key);
      return &value.as_array();
    }
  }
  for (const auto& [key, value] : answer.as_object()) {
    if (value.is_array() && value.as_array().empty()) {
      if (member) *member = std::string(key);
      return &value.as_array();
    }
  }
  return nullptr;
}

void Render(const json::value& answer, OutputFormat format, const TableStyle& style,
            std::ostream& out) {
  if (format == OutputFormat::kJson) {
    out << core::ToJson(answer) << "\n";
    return;
  }
  std::vector<Row> rows;
  if (IsQueryAnswer(answer)) {
    for (const json::value& result : answer.at("results").as_array()) {
      rows.push_back(QueryRow(answer.at("query").as_object(), result.as_object()));
    }
  } else if (const json::array* items = RowsOf(answer)) {
    for (const json::value& item : *items) {
      Row row;
      if (item.is_object()) Flatten(item.as_object(), "", row);
      rows.push_back(std::move(row));
    }
  } else if (answer.is_object()) {
    Row row;
    Flatten(answer.as_object(), "", row);
    rows.push_back(std::move(row));
  }
  if (format == OutputFormat::kTable) {
    if (!IsQueryAnswer(answer) && !RowsOf(answer) && answer.is_object()) {
      return PrintRecord(answer.as_object(), style, out);
    }
    if (rows.empty()) return void(out << "(none)\n");
    PrintTable(rows, style, out);
    return;
  }
  const std::vector<std::string> columns = ColumnsOf(rows);
  for (std::size_t c = 0; c < columns.size(); ++c) out << (c ? "," : "") << CsvField(columns[c]);
  out << "\n";
  for (const Row& row : rows) {
    for (std::size_t c = 0; c < columns.size(); ++c) {
      out << (c ? "," : "") << CsvField(Text(Cell(row, columns[c]), false));
    }
    out << "\n";
  }
}

}  // namespace sightline::cli
