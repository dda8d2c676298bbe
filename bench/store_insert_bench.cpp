// The ceiling for bench/ingest_bench.sh: how fast the store takes the same enriched event rows
// the ingestion path writes, inserted directly through the repository in transactions of
// `batch` rows (no HTTP, no parsing, no enrichment). Prints rows per second.
// Usage: store_insert_bench (--data DIR | --database-url URL) [rows] [batch]
#include "core/crypto.h"
#include "storage/event_repository.h"
#include "storage/store.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

using namespace sightline;

namespace {

storage::EventRecord Row(std::int64_t i) {
  storage::EventRecord e;
  e.id = core::NewUuidV7(1767225600000 + i);  // time-ordered, as the server writes them
  e.project_id = "bench-project";
  e.occurred_at = e.received_at = 1767225600000 + i;
  e.event = "page_view";
  e.channel = "pages";
  e.anonymous_id = core::NewUuidV4();
  e.session_id = core::NewUuidV4();
  e.tags_json = R"({"plan":"pro","$url":"https://shop.test/pricing"})";
  e.user_agent = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) Safari/604.1";
  e.browser = "Safari";
  e.browser_version = "17.1";
  e.os = "iOS";
  e.os_version = "17.1";
  e.device = "mobile";
  e.brand = "Apple";
  e.model = "iPhone";
  e.device_confidence = 0.75;
  e.signal_source = "UA_ONLY";
  e.country = "US";
  e.region = "California";
  e.city = "Mountain View";
  e.path = "/pricing";
  e.actor_type = "human";
  e.verification_method = "none";
  e.actor_confidence = 0.75;
  return e;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: store_insert_bench (--data DIR | --database-url URL) [rows] [batch]\n");
    return 2;
  }
  storage::StoreOptions options;
  if (std::string(argv[1]) == "--data") options.sqlite_path = std::string(argv[2]) + "/sightline.db";
  else options.database_url = argv[2];
  const std::int64_t rows = argc > 3 ? std::atoll(argv[3]) : 200000;
  const std::int64_t batch = argc > 4 ? std::atoll(argv[4]) : 1000;
  auto store = storage::OpenStore(options);
  if (!store || !(*store)->Migrate()) {
    std::fprintf(stderr, "cannot open the store\n");
    return 1;
  }
  std::vector<storage::EventRecord> chunk;
  const auto started = std::chrono::steady_clock::now();
  for (std::int64_t done = 0; done < rows; done += batch) {
    chunk.clear();
    for (std::int64_t i = 0; i < batch; ++i) chunk.push_back(Row(done + i));
    auto written =
        (*store)->Write([&](storage::Transaction& tx) { return tx.events().InsertEvents(chunk); });
    if (!written) {
      std::fprintf(stderr, "insert failed: %s\n", written.error().internal().c_str());
      return 1;
    }
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  std::printf("%.0f\n", static_cast<double>(rows) / seconds);
  return 0;
}
