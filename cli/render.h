// How a command prints an answer (docs/cli.md, "Output"): `--json` the API's answer as it
// came; `--csv` and the default table the answer's rows — its first array of objects (rows,
// sessions, keys…), else the answer as one row — with nested objects flattened (metrics.visits.value);
// a `query` answer's rows as one column per dimension and metric, named by its `query`.
// The table fits the terminal's width, formats numbers in groups of three, and colours
// changes (green up, red down) only on a terminal and never with NO_COLOR.
#pragma once

#include <iosfwd>
#include <string>

#include <boost/json/value.hpp>

namespace sightline::cli {

enum class OutputFormat { kTable, kJson, kCsv };

struct TableStyle {
  std::size_t width = 100;  // columns of the terminal
  bool colour = false;
};

void Render(const boost::json::value& answer, OutputFormat format, const TableStyle& style,
            std::ostream& out);

// The answer's rows: the first member holding an array of objects (its name in `member`), or
// nullptr when there is none.
const boost::json::array* RowsOf(const boost::json::value& answer, std::string* member = nullptr);

}  // namespace sightline::cli
