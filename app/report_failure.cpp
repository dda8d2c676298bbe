#include "app/commands.h"
#include "core/error.h"

#include <iostream>

namespace sightline::app {

int ReportFailure(const core::Error& error) {
  std::cerr << "sightline: " << error.message();
  if (!error.internal().empty()) std::cerr << " (" << error.internal() << ")";
  std::cerr << " [" << error.info().id << "]" << std::endl;
  return error.info().id.starts_with("VAL_") ? 2 : 1;
}

}  // namespace sightline::app
