// How web rollups are stored (docs/storage.md, "Rollups"): the rows of one period (a local
// day, hour or block of days) and dimension as one column block (storage/blocks/
// column_block.h), and per period one visitor table, the sorted visitor hashes of every exact
// DistinctSketch of its rows. An exact sketch is kept as the positions of its hashes in that
// table (a few bytes each instead of eight), since the same visitor appears in a row of every
// dimension; a dense sketch is kept as its serialized bytes. Decoding gives back every row
// exactly as written. The column numbers are the stored schema: never reuse or renumber one.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "storage/report_records.h"

namespace sightline::storage {

// The hashes of every exact sketch of `rows`, sorted and distinct. Bytes read from storage are
// not trusted: a damaged sketch, table or block is an error, never a crash.
core::Result<std::vector<std::uint64_t>> VisitorTableOf(std::span<const WebRollupRow* const> rows);
std::string EncodeVisitorTable(std::span<const std::uint64_t> table);
core::Result<std::vector<std::uint64_t>> DecodeVisitorTable(std::string_view bytes);

// Rows of one period and dimension (their span, dimension and period are the caller's key);
// `table` must hold every hash of their exact sketches.
std::string EncodeWebRollups(std::span<const WebRollupRow* const> rows,
                             std::span<const std::uint64_t> table);
// Gives the period's visitor table; called only when a row asked for has an exact sketch (a
// report of large values reads dense sketches only and never needs the table).
using VisitorTableSource = std::function<core::Result<const std::vector<std::uint64_t>*>()>;

// The rows of a block with value and figures, only those of `values` (sorted) when given;
// with `visitors`, their sketches too (else "").
core::Result<std::vector<WebRollupRow>> DecodeWebRollups(
    std::string_view block, const VisitorTableSource* visitors,
    const std::vector<std::string>* values = nullptr);

}  // namespace sightline::storage
