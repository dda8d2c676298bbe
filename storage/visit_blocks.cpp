#include "storage/visit_blocks.h"

#include <cstdlib>

#include <utility>

namespace sightline::storage {
namespace {

using blocks::BlockReader;
using blocks::BlockWriter;
using blocks::ColumnId;
using core::Result;

constexpr ColumnId Col(VisitColumn c) { return static_cast<ColumnId>(c); }

template <class Row>
auto& Field(Row& row, VisitColumn column) {
  switch (column) {
    case VisitColumn::kSessionId: return row.session_id;
    case VisitColumn::kVisitor: return row.visitor;
    case VisitColumn::kEntryPage: return row.entry_page;
    case VisitColumn::kExitPage: return row.exit_page;
    case VisitColumn::kReferrer: return row.referrer;
    case VisitColumn::kUtmSource: return row.utm_source;
    case VisitColumn::kUtmMedium: return row.utm_medium;
    case VisitColumn::kUtmCampaign: return row.utm_campaign;
    case VisitColumn::kUtmTerm: return row.utm_term;
    case VisitColumn::kUtmContent: return row.utm_content;
    case VisitColumn::kCountry: return row.country;
    case VisitColumn::kRegion: return row.region;
    case VisitColumn::kCity: return row.city;
    case VisitColumn::kBrowser: return row.browser;
    case VisitColumn::kOs: return row.os;
    case VisitColumn::kDevice: return row.device;
    case VisitColumn::kSource: return row.source;
    case VisitColumn::kChannel: return row.channel;
    case VisitColumn::kEventNames: return row.event_names;
    case VisitColumn::kChannels: return row.channels;
    case VisitColumn::kPages: return row.pages;
    default: std::abort();  // a figure column: no text field (a programming error)
  }
}

}  // namespace

std::string& TextOf(WebVisitRow& row, VisitColumn column) { return Field(row, column); }
const std::string& TextOf(const WebVisitRow& row, VisitColumn column) {
  return Field(row, column);
}

VisitColumn ColumnOf(WebDimension dimension) {
  switch (dimension) {
    case WebDimension::kPage: return VisitColumn::kPages;
    case WebDimension::kEntryPage: return VisitColumn::kEntryPage;
    case WebDimension::kExitPage: return VisitColumn::kExitPage;
    case WebDimension::kReferrer: return VisitColumn::kReferrer;
    case WebDimension::kUtmSource: return VisitColumn::kUtmSource;
    case WebDimension::kUtmMedium: return VisitColumn::kUtmMedium;
    case WebDimension::kUtmCampaign: return VisitColumn::kUtmCampaign;
    case WebDimension::kUtmTerm: return VisitColumn::kUtmTerm;
    case WebDimension::kUtmContent: return VisitColumn::kUtmContent;
    case WebDimension::kCountry: return VisitColumn::kCountry;
    case WebDimension::kRegion: return VisitColumn::kRegion;
    case WebDimension::kCity: return VisitColumn::kCity;
    case WebDimension::kBrowser: return VisitColumn::kBrowser;
    case WebDimension::kOs: return VisitColumn::kOs;
    case WebDimension::kDevice: return VisitColumn::kDevice;
    case WebDimension::kEventChannel: return VisitColumn::kChannels;
    case WebDimension::kEvent: return VisitColumn::kEventNames;
    case WebDimension::kSource: return VisitColumn::kSource;
    case WebDimension::kChannel: return VisitColumn::kChannel;
  }
  return VisitColumn::kPages;
}

std::string EncodeVisits(std::span<const WebVisitRow> rows) {
  BlockWriter writer;
  for (const WebVisitRow& row : rows) {
    writer.AddInteger(Col(VisitColumn::kStartedAt), row.started_at);
    writer.AddInteger(Col(VisitColumn::kInVisit), row.in_visit ? 1 : 0);
    writer.AddInteger(Col(VisitColumn::kEvents), row.events);
    writer.AddInteger(Col(VisitColumn::kPageviews), row.pageviews);
    writer.AddInteger(Col(VisitColumn::kBounce), row.bounce ? 1 : 0);
    writer.AddInteger(Col(VisitColumn::kDurationMs), row.duration_ms);
    for (VisitColumn column : kVisitTexts) writer.AddText(Col(column), Field(row, column));
    writer.EndRow();
  }
  return writer.Finish();
}

namespace {

// The rows of the block the selection keeps.
Result<std::vector<std::size_t>> SelectedRows(const BlockReader& reader,
                                              const std::vector<std::int64_t>& started_at,
                                              const VisitSelection& selection) {
  std::vector<std::size_t> rows;
  for (std::size_t r = 0; r < started_at.size(); ++r) {
    if (started_at[r] >= selection.start_ms && started_at[r] < selection.end_ms) rows.push_back(r);
  }
  for (const VisitCondition& condition : selection.conditions) {
    if (rows.empty()) break;
    auto values = reader.Text(Col(condition.column));
    if (!values) return values.error();
    std::vector<std::int8_t> kept(values->values.size(), -1);  // per code: unknown, no, yes
    std::erase_if(rows, [&](std::size_t r) {
      const std::uint32_t code = values->codes[r];
      if (kept[code] < 0) {
        kept[code] = condition.keep(code == 0 ? "" : values->values[code]) ? 1 : 0;
      }
      return kept[code] == 0;
    });
  }
  return rows;
}

}  // namespace

Result<void> DecodeVisits(std::string_view block, std::span<const VisitColumn> texts,
                          const VisitSelection& selection,
                          const std::function<void(const WebVisitRow&)>& each) {
  auto reader = BlockReader::Open(block);
  if (!reader) return reader.error();
  if (reader->rows() > 0 && !reader->Has(Col(VisitColumn::kStartedAt))) {
    return core::Error::Internal("visit block is damaged: no start times");
  }
  auto started_at = reader->Integers(Col(VisitColumn::kStartedAt));
  if (!started_at) return started_at.error();
  auto selected = SelectedRows(*reader, *started_at, selection);
  if (!selected) return selected.error();
  if (selected->empty()) return {};
  constexpr VisitColumn kFigures[] = {VisitColumn::kEvents, VisitColumn::kPageviews,
                                      VisitColumn::kDurationMs, VisitColumn::kInVisit,
                                      VisitColumn::kBounce};
  std::vector<std::vector<std::int64_t>> integers;
  for (VisitColumn column : kFigures) {
    auto values = reader->Integers(Col(column));
    if (!values) return values.error();
    integers.push_back(std::move(*values));
  }
  std::vector<VisitColumn> wanted(texts.begin(), texts.end());
  wanted.push_back(VisitColumn::kVisitor);
  std::vector<blocks::TextValues> strings;
  for (VisitColumn column : wanted) {
    auto values = reader->Text(Col(column));
    if (!values) return values.error();
    strings.push_back(std::move(*values));
  }
  WebVisitRow row;
  for (const std::size_t r : *selected) {
    row.started_at = (*started_at)[r];
    row.events = integers[0][r];
    row.pageviews = integers[1][r];
    row.duration_ms = integers[2][r];
    row.in_visit = integers[3][r] != 0;
    row.bounce = integers[4][r] != 0;
    for (std::size_t t = 0; t < wanted.size(); ++t) {
      Field(row, wanted[t]).assign(strings[t].At(r).value_or(""));
    }
    each(row);
  }
  return {};
}

}  // namespace sightline::storage
