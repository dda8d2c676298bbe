// Web rollups are read back by every report, and a damaged page or a bug in an older writer
// must not take the server down: any bytes are read as a visitor table and a block of rollup
// rows or refused with an error; a visitor table accepted is sorted, and rows read back are
// written and read again unchanged.
//
// Input: a little-endian u16 n, then n * 8 bytes of visitor table (fewer if the input ends),
// then the block.
#include "fuzz/fuzz_check.h"
#include "storage/web_rollup_codec.h"

#include <algorithm>
#include <string_view>
#include <vector>

using sightline::fuzz::Check;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 2) return 0;
  const std::size_t hashes = data[0] | (static_cast<std::size_t>(data[1]) << 8);
  const std::string_view rest(reinterpret_cast<const char*>(data) + 2, size - 2);
  const std::size_t table_bytes = std::min(hashes * 8, rest.size() / 8 * 8);
  auto table = sightline::storage::DecodeVisitorTable(rest.substr(0, table_bytes));
  if (!table) return 0;
  Check(std::is_sorted(table->begin(), table->end()), "a visitor table is sorted");
  const sightline::storage::VisitorTableSource visitors =
      [&]() -> sightline::core::Result<const std::vector<std::uint64_t>*> { return &*table; };
  auto rows = sightline::storage::DecodeWebRollups(rest.substr(table_bytes), &visitors);
  if (!rows) return 0;
  // What was read back is written and read again unchanged.
  std::vector<const sightline::storage::WebRollupRow*> pointers;
  for (const sightline::storage::WebRollupRow& row : *rows) pointers.push_back(&row);
  auto again = sightline::storage::DecodeWebRollups(
      sightline::storage::EncodeWebRollups(pointers, *table), &visitors);
  Check(again.has_value() && again->size() == rows->size(), "a block read back reads again");
  for (std::size_t i = 0; i < rows->size(); ++i) {
    Check((*again)[i].value == (*rows)[i].value && (*again)[i].visitors == (*rows)[i].visitors &&
              (*again)[i].events == (*rows)[i].events,
          "a row read back reads again unchanged");
  }
  return 0;
}
