#include "query/block_visits.h"

#include <algorithm>
#include <array>
#include <optional>

#include "storage/blocks/column_block.h"
#include "storage/event_blocks.h"

namespace sightline::query {
namespace {

using core::Result;
using storage::EventColumn;
using storage::blocks::TextValues;

// The text columns a visit reads, by their place in BlockColumns::text.
enum Text : std::size_t {
  kAnonymous, kUser, kDaily, kChannel, kSession, kEvent, kSource, kAcquisition, kPath, kReferrer,
  kUtmSource, kUtmMedium, kUtmCampaign, kUtmTerm, kUtmContent, kCountry, kRegion, kCity,
  kBrowser, kOs, kDevice, kTags, kId, kTextCount
};

constexpr std::array<EventColumn, kTextCount> kTextColumns = {
    EventColumn::kAnonymousId, EventColumn::kUserId,       EventColumn::kDailyVisitor,
    EventColumn::kChannel,     EventColumn::kSessionId,    EventColumn::kEvent,
    EventColumn::kTrafficSource, EventColumn::kTrafficChannel, EventColumn::kPath,
    EventColumn::kReferrer,    EventColumn::kUtmSource,    EventColumn::kUtmMedium,
    EventColumn::kUtmCampaign, EventColumn::kUtmTerm,      EventColumn::kUtmContent,
    EventColumn::kCountry,     EventColumn::kRegion,       EventColumn::kCity,
    EventColumn::kBrowser,     EventColumn::kOs,           EventColumn::kDevice,
    EventColumn::kTags,        EventColumn::kId};

// A visit value and the column it is read from.
struct ValueColumn {
  VisitValue value;
  Text column;
  std::string_view Visit::*member;
};

constexpr ValueColumn kValueColumns[] = {
    {VisitValue::kSource, kSource, &Visit::source},
    {VisitValue::kChannel, kAcquisition, &Visit::channel},
    {VisitValue::kReferrer, kReferrer, &Visit::referrer},
    {VisitValue::kUtmSource, kUtmSource, &Visit::utm_source},
    {VisitValue::kUtmMedium, kUtmMedium, &Visit::utm_medium},
    {VisitValue::kUtmCampaign, kUtmCampaign, &Visit::utm_campaign},
    {VisitValue::kUtmContent, kUtmContent, &Visit::utm_content},
    {VisitValue::kUtmTerm, kUtmTerm, &Visit::utm_term},
    {VisitValue::kCountry, kCountry, &Visit::country},
    {VisitValue::kRegion, kRegion, &Visit::region},
    {VisitValue::kCity, kCity, &Visit::city},
    {VisitValue::kDevice, kDevice, &Visit::device},
    {VisitValue::kBrowser, kBrowser, &Visit::browser},
    {VisitValue::kOs, kOs, &Visit::os},
};

// The text columns to decode for a reading: what every visit reads, and what it asks for.
std::array<bool, kTextCount> ColumnsRead(const VisitReading& reading) {
  std::array<bool, kTextCount> read{};
  for (const Text always : {kAnonymous, kUser, kDaily, kChannel, kSession, kEvent}) {
    read[always] = true;
  }
  for (const ValueColumn& v : kValueColumns) read[v.column] = Reads(reading.values, v.value);
  read[kPath] = Reads(reading.values, VisitValue::kPages);
  read[kTags] = Reads(reading.values, VisitValue::kProperties);
  return read;
}

// The same for a window: the ids too when the inbox holds some (to drop the rows it returned).
std::array<bool, kTextCount> ColumnsRead(const BlockWindow& window) {
  std::array<bool, kTextCount> read = ColumnsRead(window.reading);
  read[kId] = window.inbox_ids && !window.inbox_ids->empty();
  return read;
}

}  // namespace

struct BlockColumns {
  std::vector<std::int64_t> flags, at;
  std::array<TextValues, kTextCount> text;  // a column not read has no codes
  PropertyTable properties;                 // by tags code, when the tags are read
  std::vector<char> human;                  // per row: counts for web analytics
  std::string_view Value(Text column, std::size_t row) const {
    if (text[column].codes.empty()) return "";
    return text[column].At(row).value_or("");
  }
  // The value as text, also of a column read as UUIDs' bytes (visitor and session ids).
  std::string TextValue(Text column, std::size_t row) const {
    const std::string_view value = Value(column, row);
    if (!text[column].packed_uuids || value.empty()) return std::string(value);
    return storage::blocks::UuidText(value);
  }
};

namespace {

bool HasNull(const TextValues& column) {
  return std::find(column.codes.begin(), column.codes.end(), 0u) != column.codes.end();
}

Result<BlockColumns> Decode(const storage::blocks::BlockReader& reader, const BlockWindow& window) {
  BlockColumns columns;
  auto flags = reader.Integers(static_cast<storage::blocks::ColumnId>(EventColumn::kFlags));
  auto at = reader.Integers(static_cast<storage::blocks::ColumnId>(EventColumn::kOccurredAt));
  if (!flags) return flags.error();
  if (!at) return at.error();
  columns.flags = std::move(*flags);
  columns.at = std::move(*at);
  const std::array<bool, kTextCount> read = ColumnsRead(window);
  for (std::size_t i = 0; i < kTextCount; ++i) {
    // The user and daily ids only for rows without an anonymous id (VisitorOf).
    const bool fallback_visitor = i == kUser || i == kDaily;
    if (!read[i] || (fallback_visitor && !HasNull(columns.text[kAnonymous]))) continue;
    // Ids only told apart (or grouped by code) come as their bytes: no text to format.
    const bool ids = i == kAnonymous || i == kUser || i == kDaily || i == kSession;
    auto values = reader.Text(static_cast<storage::blocks::ColumnId>(kTextColumns[i]),
                              ids ? storage::blocks::UuidForm::kPacked
                                  : storage::blocks::UuidForm::kText);
    if (!values) return values.error();
    columns.text[i] = std::move(*values);
  }
  // Every distinct tags value is some row's; its entry is its code.
  columns.properties = PropertyTable(window.reading.property_keys);
  for (const std::string_view tags : columns.text[kTags].values) columns.properties.Add(tags);
  // Sightline's own channel found once in the dictionary, then compared by code.
  const TextValues& channel = columns.text[kChannel];
  // (Code 0 is null; a block without the channel there has no code that matches.)
  const auto analytics_code = static_cast<std::uint32_t>(
      std::find(channel.values.begin(), channel.values.end(), "__analytics") -
      channel.values.begin());
  columns.human.resize(reader.rows());
  for (std::size_t r = 0; r < reader.rows(); ++r) {
    columns.human[r] =
        !(columns.flags[r] & storage::kIsBotFlag) && channel.codes[r] != analytics_code;
  }
  return columns;
}

// The column of the visitor as ListRollupEvents reads it: the anonymous id, else the user id,
// else the daily id; none without any.
std::optional<Text> VisitorColumnOf(const BlockColumns& c, std::size_t r) {
  for (const Text candidate : {kAnonymous, kUser, kDaily}) {
    if (!c.text[candidate].codes.empty() && c.text[candidate].codes[r] != 0) return candidate;
  }
  return std::nullopt;
}

// Sets the visit's visitor (as its bytes when its column holds UUIDs).
void SetVisitor(const BlockColumns& c, std::size_t r, Visit& visit) {
  const std::optional<Text> column = VisitorColumnOf(c, r);
  visit.visitor = column ? c.Value(*column, r) : std::string_view();
  visit.visitor_packed = column && c.text[*column].packed_uuids;
}

storage::RollupEvent RowOf(const BlockColumns& c, std::size_t r) {
  storage::RollupEvent e;
  e.id = c.Value(kId, r);
  e.session_id = c.TextValue(kSession, r);
  if (const std::optional<Text> column = VisitorColumnOf(c, r)) e.visitor = c.TextValue(*column, r);
  e.occurred_at = c.at[r];
  e.event = c.Value(kEvent, r);
  e.event_channel = c.Value(kChannel, r);
  std::string* fields[] = {&e.source, &e.channel, &e.path, &e.referrer, &e.utm_source,
                           &e.utm_medium, &e.utm_campaign, &e.utm_term, &e.utm_content,
                           &e.country, &e.region, &e.city, &e.browser, &e.os, &e.device, &e.tags};
  for (std::size_t f = 0; f < std::size(fields); ++f) {
    fields[f]->assign(c.Value(static_cast<Text>(kSource + f), r));
  }
  return e;
}

// Reads the block's visits one at a time into one reused Visit.
class Reader {
 public:
  Reader(const BlockColumns& columns, const BlockWindow& window,
         const std::function<void(const Visit&)>& each)
      : c_(columns), window_(window), each_(each) {
    for (const ValueColumn& v : kValueColumns) {
      if (Reads(window.reading.values, v.value)) read_values_.push_back(&v);
    }
    for (const VisitCondition& condition : window.reading.conditions) {
      for (const ValueColumn& v : kValueColumns) {
        if (v.value != condition.value || c_.text[v.column].codes.empty()) continue;
        // The column's dictionary values are tested once each, when first met.
        tests_.push_back({&condition, v.column,
                          std::vector<Verdict>(c_.text[v.column].values.size(), kUntested)});
      }
    }
  }

  std::vector<storage::RollupEvent> Run() {
    const std::size_t rows = c_.at.size();
    for (std::size_t from = 0; from < rows;) {
      const std::uint32_t session = c_.text[kSession].codes[from];
      std::size_t to = from + 1;
      while (to < rows && c_.text[kSession].codes[to] == session) ++to;
      if (session == 0) {
        for (std::size_t r = from; r < to; ++r) Loose(r);
      } else {
        Session(from, to);
      }
      from = to;
    }
    return std::move(merged_);
  }

 private:
  bool InInbox(std::size_t r) const {
    return window_.inbox_ids && !window_.inbox_ids->empty() &&
           window_.inbox_ids->contains(c_.Value(kId, r));
  }
  bool InInboxSessions(std::size_t r) const {
    return window_.inbox_sessions && !window_.inbox_sessions->empty() &&
           window_.inbox_sessions->contains(c_.TextValue(kSession, r));
  }
  bool InWindow(std::int64_t at) const { return at >= window_.start_ms && at < window_.end_ms; }

  void Loose(std::size_t r) {
    if (!c_.human[r] || !InWindow(c_.at[r]) || InInbox(r) || !Meets(r)) return;
    Begin(r, false);
    SetVisitor(c_, r, visit_);
    AddEvent(r);
    each_(visit_);
  }

  void Session(std::size_t from, std::size_t to) {
    std::size_t first = from;
    while (first < to && !c_.human[first]) ++first;
    if (first == to) return;
    if (InInboxSessions(from)) {
      for (std::size_t r = first; r < to; ++r) {
        if (c_.human[r] && !InInbox(r)) merged_.push_back(RowOf(c_, r));
      }
      return;
    }
    if (!InWindow(c_.at[first]) || !Meets(first)) return;
    Begin(first, true);
    for (std::size_t r = first; r < to; ++r) {
      if (!c_.human[r]) continue;
      if (visit_.visitor.empty()) SetVisitor(c_, r, visit_);
      AddEvent(r);
    }
    each_(visit_);
  }

  // Whether the visit or loose event whose first row is `r` meets the window's conditions.
  bool Meets(std::size_t r) {
    for (Test& test : tests_) {
      const std::uint32_t code = c_.text[test.column].codes[r];
      Verdict& verdict = test.verdicts[code];
      if (verdict == kUntested) {
        verdict = test.condition->holds(c_.Value(test.column, r)) ? kHolds : kFails;
      }
      if (verdict == kFails) return false;
    }
    return true;
  }

  // The visit's acquisition, place and device are its first event's.
  void Begin(std::size_t r, bool in_visit) {
    visit_.in_visit = in_visit;
    visit_.visitor = {};
    visit_.visitor_packed = false;
    visit_.events.clear();
    for (const ValueColumn* v : read_values_) visit_.*v->member = c_.Value(v->column, r);
  }

  void AddEvent(std::size_t r) {
    VisitEvent& event = visit_.events.emplace_back();
    event.at_ms = c_.at[r];
    event.name = c_.Value(kEvent, r);
    event.channel = c_.Value(kChannel, r);
    event.page = c_.Value(kPath, r);
    const TextValues& tags = c_.text[kTags];
    if (!tags.codes.empty()) event.properties = c_.properties[tags.codes[r]];
  }

  const BlockColumns& c_;
  const BlockWindow& window_;
  const std::function<void(const Visit&)>& each_;
  std::vector<const ValueColumn*> read_values_;  // the others stay empty
  enum Verdict : std::uint8_t { kUntested, kHolds, kFails };
  struct Test {
    const VisitCondition* condition;
    Text column;
    std::vector<Verdict> verdicts;  // by the column's code
  };
  std::vector<Test> tests_;
  Visit visit_;
  std::vector<storage::RollupEvent> merged_;
};

}  // namespace

std::vector<storage::blocks::ColumnId> BlockColumnsRead(const VisitReading& reading) {
  std::vector<storage::blocks::ColumnId> ids = {
      static_cast<storage::blocks::ColumnId>(EventColumn::kFlags),
      static_cast<storage::blocks::ColumnId>(EventColumn::kOccurredAt)};
  const std::array<bool, kTextCount> read = ColumnsRead(reading);
  for (std::size_t i = 0; i < kTextCount; ++i) {
    if (read[i]) ids.push_back(static_cast<storage::blocks::ColumnId>(kTextColumns[i]));
  }
  return ids;
}

Result<std::shared_ptr<const BlockColumns>> DecodeBlock(std::string_view block,
                                                       const BlockWindow& window) {
  auto reader = storage::blocks::BlockReader::Open(block);
  if (!reader) return reader.error();
  auto columns = Decode(*reader, window);
  if (!columns) return columns.error();
  return std::make_shared<const BlockColumns>(std::move(*columns));
}

std::vector<storage::RollupEvent> EachVisitOfBlock(const BlockColumns& block,
                                                   const BlockWindow& window,
                                                   const std::function<void(const Visit&)>& each) {
  return Reader(block, window, each).Run();
}

}  // namespace sightline::query
