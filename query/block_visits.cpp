#include "query/block_visits.h"

#include <array>
#include <optional>

#include <boost/json/parse.hpp>

#include "core/json_util.h"
#include "storage/blocks/column_block.h"
#include "storage/event_blocks.h"

namespace sightline::query {
namespace {

using core::Result;
using storage::EventColumn;
using storage::blocks::TextValues;

// The text columns a visit reads, by their place in Columns::text.
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

struct Columns {
  std::vector<std::int64_t> flags, at;
  std::array<TextValues, kTextCount> text;
  std::vector<char> human;  // per row: counts for web analytics
  std::string_view Value(Text column, std::size_t row) const {
    return text[column].At(row).value_or("");
  }
};

Result<Columns> Decode(const storage::blocks::BlockReader& reader, const BlockWindow& window) {
  Columns columns;
  auto flags = reader.Integers(static_cast<storage::blocks::ColumnId>(EventColumn::kFlags));
  auto at = reader.Integers(static_cast<storage::blocks::ColumnId>(EventColumn::kOccurredAt));
  if (!flags) return flags.error();
  if (!at) return at.error();
  columns.flags = std::move(*flags);
  columns.at = std::move(*at);
  // Ids only to drop rows the inbox also returned; tags only for custom properties.
  const bool with_ids = window.inbox_ids && !window.inbox_ids->empty();
  for (std::size_t i = 0; i < kTextCount; ++i) {
    const bool skip = (i == kTags && !window.with_properties) || (i == kId && !with_ids);
    auto values = skip ? reader.Text(0) : reader.Text(static_cast<storage::blocks::ColumnId>(
                                              kTextColumns[i]));
    if (!values) return values.error();
    columns.text[i] = std::move(*values);
  }
  columns.human.resize(reader.rows());
  for (std::size_t r = 0; r < reader.rows(); ++r) {
    columns.human[r] = !(columns.flags[r] & storage::kIsBotFlag) &&
                       columns.Value(kChannel, r) != "__analytics";
  }
  return columns;
}

// The visitor as ListRollupEvents reads it: the anonymous id, else the user id, else the
// daily id, else "".
std::string_view VisitorOf(const Columns& c, std::size_t r) {
  for (const Text candidate : {kAnonymous, kUser, kDaily}) {
    if (const auto value = c.text[candidate].At(r)) return *value;
  }
  return "";
}

storage::RollupEvent RowOf(const Columns& c, std::size_t r) {
  storage::RollupEvent e;
  e.id = c.Value(kId, r);
  e.session_id = std::string(c.Value(kSession, r));
  e.visitor = VisitorOf(c, r);
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
  Reader(const Columns& columns, const BlockWindow& window,
         const std::function<void(const Visit&)>& each)
      : c_(columns), window_(window), each_(each),
        properties_(columns.text[kTags].values.size()) {}

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
           window_.inbox_ids->contains(std::string(c_.Value(kId, r)));
  }
  bool InWindow(std::int64_t at) const { return at >= window_.start_ms && at < window_.end_ms; }

  void Loose(std::size_t r) {
    if (!c_.human[r] || !InWindow(c_.at[r]) || InInbox(r)) return;
    Begin(r, false);
    visit_.visitor = VisitorOf(c_, r);
    AddEvent(r);
    each_(visit_);
  }

  void Session(std::size_t from, std::size_t to) {
    std::size_t first = from;
    while (first < to && !c_.human[first]) ++first;
    if (first == to) return;
    const std::string_view id = c_.Value(kSession, from);
    if (window_.inbox_sessions && window_.inbox_sessions->contains(std::string(id))) {
      for (std::size_t r = first; r < to; ++r) {
        if (c_.human[r] && !InInbox(r)) merged_.push_back(RowOf(c_, r));
      }
      return;
    }
    if (!InWindow(c_.at[first])) return;
    Begin(first, true);
    for (std::size_t r = first; r < to; ++r) {
      if (!c_.human[r]) continue;
      if (visit_.visitor.empty()) visit_.visitor = VisitorOf(c_, r);
      AddEvent(r);
    }
    each_(visit_);
  }

  // The visit's acquisition, place and device are its first event's.
  void Begin(std::size_t r, bool in_visit) {
    visit_.in_visit = in_visit;
    visit_.visitor.clear();
    visit_.events.clear();
    std::string* fields[] = {&visit_.source,      &visit_.channel,    &visit_.referrer,
                             &visit_.utm_source,  &visit_.utm_medium, &visit_.utm_campaign,
                             &visit_.utm_term,    &visit_.utm_content, &visit_.country,
                             &visit_.region,      &visit_.city,       &visit_.browser,
                             &visit_.os,          &visit_.device};
    const Text columns[] = {kSource,    kAcquisition, kReferrer, kUtmSource, kUtmMedium,
                            kUtmCampaign, kUtmTerm,   kUtmContent, kCountry, kRegion,
                            kCity,      kBrowser,     kOs,       kDevice};
    for (std::size_t f = 0; f < std::size(fields); ++f) fields[f]->assign(c_.Value(columns[f], r));
  }

  void AddEvent(std::size_t r) {
    VisitEvent& event = visit_.events.emplace_back();
    event.at_ms = c_.at[r];
    event.name = c_.Value(kEvent, r);
    event.channel = c_.Value(kChannel, r);
    event.page = c_.Value(kPath, r);
    if (window_.with_properties) event.properties = Properties(c_.text[kTags].codes[r]);
  }

  // Each distinct tags value parsed once.
  const std::vector<std::pair<std::string, std::string>>& Properties(std::uint32_t code) {
    auto& cached = properties_[code];
    if (!cached) cached = PropertiesOf(c_.text[kTags].values[code]);
    return *cached;
  }

  const Columns& c_;
  const BlockWindow& window_;
  const std::function<void(const Visit&)>& each_;
  std::vector<std::optional<std::vector<std::pair<std::string, std::string>>>> properties_;
  Visit visit_;
  std::vector<storage::RollupEvent> merged_;
};

}  // namespace

std::vector<std::pair<std::string, std::string>> PropertiesOf(std::string_view tags) {
  std::vector<std::pair<std::string, std::string>> properties;
  if (tags.empty()) return properties;
  boost::system::error_code failed;
  const boost::json::value parsed = boost::json::parse(tags, failed);
  if (failed || !parsed.is_object()) return properties;
  for (const auto& [key, value] : parsed.as_object()) {
    if (key.starts_with("$") || key.starts_with("__")) continue;  // Sightline's and the SDK's
    if (value.is_string()) {
      properties.emplace_back(std::string(key), std::string(value.as_string()));
    } else if (value.is_bool() || value.is_number()) {
      properties.emplace_back(std::string(key), core::ToJson(value));
    }
  }
  return properties;
}

Result<std::vector<storage::RollupEvent>> EachVisitOfBlock(
    std::string_view block, const BlockWindow& window,
    const std::function<void(const Visit&)>& each) {
  auto reader = storage::blocks::BlockReader::Open(block);
  if (!reader) return reader.error();
  auto columns = Decode(*reader, window);
  if (!columns) return columns.error();
  return Reader(*columns, window, each).Run();
}

}  // namespace sightline::query
