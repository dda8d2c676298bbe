// SDK ingestion: validates tracked events, enriches them (browser, OS and device from the
// User-Agent and client hints; page and UTM attribution; UA-level bot attribution), applies the
// project's switches (event storage, bot detection, IP logging), counts usage, raises
// notifications, and hands the rows to the group-committing writer. Callbacks run once the
// rows are committed — or at once, for requests that store nothing. Thread-safe.
#pragma once

#include "ingest/log_drain.h"

#include "core/clock.h"
#include "core/http_types.h"
#include "core/ip_address.h"
#include "core/result.h"
#include "detection/geo.h"
#include "detection/request_classifier.h"
#include "detection/user_agent.h"
#include "ingest/daily_visitor_ids.h"
#include "ingest/event_writer.h"
#include "ingest/server_item.h"
#include "storage/account_records.h"

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <functional>
#include <optional>
#include <string>

namespace sightline::ingest {

constexpr std::size_t kMaxBatchEvents = 500;

// What enrichment needs from the HTTP request, copied so it outlives the request.
struct RequestSignals {
  std::string client_ip;
  std::optional<std::string> user_agent;
  std::optional<std::string> referer;  // the Referer header: the page, for browser SDKs
  detection::ClientHints hints;
  std::optional<detection::GeoLocation> location;
};

struct IngestOptions {
  core::CidrList trusted_proxies;
  const detection::GeoDatabase* geo = nullptr;  // null: geolocation tags stay empty
  const detection::RequestClassifier* classifier = nullptr;  // for server-side ingestion
};

using JsonCallback = std::function<void(core::Result<boost::json::value>)>;

class IngestService {
 public:
  IngestService(const core::Clock& clock, EventWriter& writer, IngestOptions options)
      : clock_(clock), writer_(writer), options_(std::move(options)), daily_ids_(writer.store()) {}

  // Copies what enrichment needs from the request, and geolocates the client IP.
  RequestSignals ReadSignals(const core::HttpHeaders& headers, std::string_view peer) const;

  // POST /sdk/v1/logs → {id, event, timestamp}.
  void TrackOne(const storage::ProjectRecord& project, const boost::json::object& body,
                const RequestSignals& signals, JsonCallback done);
  // POST /sdk/v1/logs/batch → {accepted, total, errors: [{index, error}]}; invalid items are
  // reported, the valid ones stored.
  void TrackBatch(const storage::ProjectRecord& project, const boost::json::array& events,
                  const RequestSignals& signals, JsonCallback done);
  // POST /ingest/v1/server → {accepted, total}: every item is classified; bots are stored
  // with their attribution, humans are skipped, and nothing is stored for a project whose bot
  // detection is off. An invalid item rejects the request (VAL_003 naming events[i].field).
  void TrackServerEvents(const storage::ProjectRecord& project, const boost::json::array& events,
                         JsonCallback done);
  // POST /ingest/v1/{source}: a hosting platform's log batch (see log_drain.h), classified
  // like server items. → {accepted, received}, or for the CloudFront/Firehose stream form
  // {requestId, timestamp} echoing the delivery. VAL_002 for an unreadable batch.
  void TrackLogDrain(const storage::ProjectRecord& project, std::string_view source,
                     std::string_view body, const DrainOptions& options, JsonCallback done);
  // POST /bots/classify: the attribution of one ingestion item, stored nowhere.
  core::Result<boost::json::value> Classify(const boost::json::object& item) const;
  // POST /sdk/v1/identify → {success: true}.
  void Identify(const storage::ProjectRecord& project, const boost::json::object& body,
                JsonCallback done);

 private:
  void Submit(IngestBatch batch, boost::json::value answer, JsonCallback done);
  // Gives the events of `batch` that have neither an anonymous nor a user id the daily visitor
  // id of the request's IP and User-Agent.
  core::Result<void> AddDailyVisitors(IngestBatch& batch, const RequestSignals& signals,
                                      std::int64_t now);
  // Classifies each item and adds the bots (with usage) to `batch`, recorded as coming from
  // `source` ("server" or a drain's name); nothing when the project's bot detection is off.
  // Returns how many were added.
  std::int64_t AddBotRequests(const storage::ProjectRecord& project,
                              const std::vector<ServerItem>& items, std::string_view source,
                              std::int64_t now, IngestBatch& batch) const;

  const core::Clock& clock_;
  EventWriter& writer_;
  const IngestOptions options_;
  DailyVisitorIds daily_ids_;
};

}  // namespace sightline::ingest
