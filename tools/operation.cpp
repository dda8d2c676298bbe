#include "tools/operation.h"

namespace sightline::tools {

std::string_view EffectName(Effect effect) {
  switch (effect) {
    case Effect::kReadOnly: return "read-only";
    case Effect::kIdempotentWrite: return "idempotent write";
    case Effect::kWrite: return "write";
    case Effect::kDestructive: return "destructive";
  }
  return "write";
}

}  // namespace sightline::tools
