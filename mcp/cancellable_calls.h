// Legacy-era tool calls that may still be cancelled (`notifications/cancelled`), by session and
// request id. A cancellation reaching another node than the call's finds nothing here, and the
// call completes: cancelling is a SHOULD of the protocol, best effort. (The modern era cancels
// by closing the call's stream and needs no registry.) Thread-safe.
#pragma once

#include "mcp/answers.h"

#include <boost/json/value.hpp>

#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>

namespace sightline::mcp {

class CancellableCalls {
 public:
  static std::string Key(std::string_view session_hash, const boost::json::value& id);
  void Add(const std::string& key, const std::shared_ptr<CallState>& state);
  void Remove(const std::string& key);
  void Cancel(const std::string& key);

 private:
  std::mutex mutex_;
  std::unordered_map<std::string, std::weak_ptr<CallState>> calls_;
};

}  // namespace sightline::mcp
