// Server-sent events from a language model provider. The stream may be split anywhere, so the
// input fed in arbitrary chunks must decode to the events it decodes to in one piece.
#include "agent/sse_decoder.h"
#include "fuzz/fuzz_check.h"

#include <vector>

using sightline::agent::SseDecoder;
using sightline::agent::SseEvent;

namespace {

std::vector<std::pair<std::string, std::string>> Decode(const std::vector<std::string>& chunks) {
  std::vector<std::pair<std::string, std::string>> events;
  SseDecoder decoder([&](const SseEvent& event) { events.emplace_back(event.name, event.data); });
  for (const auto& chunk : chunks) decoder.Feed(chunk);
  return events;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzedDataProvider input(data, size);
  std::vector<std::string> chunks;
  std::string whole;
  while (input.remaining_bytes() > 0) {
    chunks.push_back(input.ConsumeRandomLengthString(64));
    whole += chunks.back();
  }
  sightline::fuzz::Check(Decode(chunks) == Decode({whole}), "chunking does not change events");
  return 0;
}
