// What operations reach beyond the store, the clock and the caller: the server's services,
// built once by the composition root (app/) and the same for every call. A service a server
// does not run is null (a test server without ingestion or an assistant); the operations that
// need it say so. Not owned; outlives the dispatcher.
#pragma once

#include "reports/report_windows.h"

namespace sightline::site_audit {
class SiteAuditService;
}
namespace sightline::core {
class SealedBox;
}
namespace sightline::identity {
class PasskeyService;
class SessionService;
}  // namespace sightline::identity
namespace sightline::ingest {
class IngestService;
}
namespace sightline::oauth {
class DeviceLogin;
}

namespace sightline::tools {

class Assistant;

struct Services {
  identity::SessionService& sessions;
  ingest::IngestService* ingest = nullptr;
  Assistant* assistant = nullptr;
  identity::PasskeyService* passkeys = nullptr;
  oauth::DeviceLogin* device_login = nullptr;  // command-line logins
  // Whether reports roll up the changed days they read first, or leave that to the server's
  // background refresher (`--rollup-interval`).
  reports::ChangedDays changed_days = reports::ChangedDays::kRollUpFirst;
  // Seals AI-visibility engines' API keys (--encryption-key-file).
  const core::SealedBox* ai_keys = nullptr;
  // Whether engines' base URLs may name private addresses (--ai-engines-private-urls).
  bool ai_engines_private_urls = false;
  // ServiceAuditBot's ownership checks, key and AI-crawler list (site-audit operations).
  sightline::site_audit::SiteAuditService* site_audit = nullptr;
};

}  // namespace sightline::tools
