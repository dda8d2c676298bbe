// A stored column block is read back by every query of the compact event store, and a damaged
// page or a bug in an older writer must not take the server down: any bytes are read as a block
// or refused with an error, and every column of an accepted block decodes to exactly its rows.
#include "fuzz/fuzz_check.h"
#include "storage/blocks/column_block.h"

#include <string_view>

namespace blocks = sightline::storage::blocks;
using sightline::fuzz::Check;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  auto reader = blocks::BlockReader::Open(bytes);
  if (!reader) return 0;
  Check(reader->rows() <= blocks::kMaxBlockRows, "a block holds at most kMaxBlockRows rows");
  for (blocks::ColumnId id = 0; id < 64; ++id) {
    if (!reader->Has(id)) continue;
    if (auto text = reader->Text(id)) {
      Check(text->codes.size() == reader->rows(), "a text column has a code per row");
      for (const std::uint32_t code : text->codes) {
        Check(code < text->values.size(), "every code names a dictionary value");
      }
    }
    if (auto integers = reader->Integers(id)) {
      Check(integers->size() == reader->rows(), "an integer column has a value per row");
    }
  }
  return 0;
}
