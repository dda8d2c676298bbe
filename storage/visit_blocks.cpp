#include "storage/visit_blocks.h"

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
    default: return row.pages;
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

Result<std::vector<WebVisitRow>> DecodeVisits(std::string_view block,
                                              std::span<const VisitColumn> texts) {
  auto reader = BlockReader::Open(block);
  if (!reader) return reader.error();
  std::vector<WebVisitRow> rows(reader->rows());
  using Member = std::int64_t WebVisitRow::*;
  const std::pair<VisitColumn, Member> numbers[] = {
      {VisitColumn::kStartedAt, &WebVisitRow::started_at},
      {VisitColumn::kEvents, &WebVisitRow::events},
      {VisitColumn::kPageviews, &WebVisitRow::pageviews},
      {VisitColumn::kDurationMs, &WebVisitRow::duration_ms}};
  for (const auto& [column, member] : numbers) {
    auto values = reader->Integers(Col(column));
    if (!values) return values.error();
    for (std::size_t r = 0; r < rows.size(); ++r) rows[r].*member = (*values)[r];
  }
  for (VisitColumn column : {VisitColumn::kInVisit, VisitColumn::kBounce}) {
    auto values = reader->Integers(Col(column));
    if (!values) return values.error();
    for (std::size_t r = 0; r < rows.size(); ++r) {
      (column == VisitColumn::kInVisit ? rows[r].in_visit : rows[r].bounce) = (*values)[r] != 0;
    }
  }
  std::vector<VisitColumn> wanted(texts.begin(), texts.end());
  wanted.push_back(VisitColumn::kVisitor);
  for (VisitColumn column : wanted) {
    auto values = reader->Text(Col(column));
    if (!values) return values.error();
    for (std::size_t r = 0; r < rows.size(); ++r) {
      if (const auto value = values->At(r)) Field(rows[r], column).assign(*value);
    }
  }
  return rows;
}

}  // namespace sightline::storage
