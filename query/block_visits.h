// Visits read straight from a sealed block of the compact event store (docs/storage.md): only
// the columns the request reads are decoded, a visit's events are the block's consecutive rows of
// its session (the block keeps them together and in time order), and each distinct tags value
// is parsed once per block. Equivalent to reading the same events through ListRollupEvents and
// grouping them (stored_rows.cpp), which the tests hold it to. Decoding (DecodeBlock) is pure
// and may run on any thread; the decoded block is immutable.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <utility>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "query/custom_properties.h"
#include "query/web_evaluation.h"
#include "storage/blocks/column_block.h"
#include "storage/report_records.h"

namespace sightline::query {

struct BlockWindow {
  std::int64_t start_ms = 0, end_ms = 0;  // visits that started in it, loose events in it
  // The values to read (the others are left empty, their columns unread), and the conditions
  // of the visits that may be skipped unread.
  const VisitReading& reading;
  // Sessions that also have events in the inbox, and the inbox's event ids: their rows are
  // handed back instead, for the caller to group with the inbox's.
  const std::set<std::string, std::less<>>* inbox_sessions = nullptr;
  const std::set<std::string, std::less<>>* inbox_ids = nullptr;
};

// The columns DecodeBlock decodes for a reading (and the events' ids, when the window has
// inbox rows), for a store to fetch only those.
std::vector<storage::blocks::ColumnId> BlockColumnsRead(const VisitReading& reading);

// A block's columns as a window reads them: the costly part of reading a block (decompressing
// and decoding the columns, parsing each distinct tags value), which needs nothing but the
// block's bytes and the window, so it may run on another thread than the evaluation.
struct BlockColumns;
// VAL_007 for a damaged block. The bytes need not outlive the result.
core::Result<std::shared_ptr<const BlockColumns>> DecodeBlock(std::string_view block,
                                                              const BlockWindow& window);

// Calls `each` with every visit of the block that started in the window and has no event in
// the inbox, and with every event outside visits that happened in it (the visit's views are
// into `block`, valid during the call); returns the rows of the visits that also have inbox
// events, as ListRollupEvents reads rows (with the window's values only). REQUIRES: `block`
// decoded for `window`.
std::vector<storage::RollupEvent> EachVisitOfBlock(const BlockColumns& block,
                                                   const BlockWindow& window,
                                                   const std::function<void(const Visit&)>& each);

}  // namespace sightline::query
