// `sightline serve`: parses the options into a ServeConfig, then builds and runs the Server
// (app/server.h, the composition root).
#include "app/commands.h"
#include "app/options.h"
#include "app/serve_config.h"
#include "app/serve_hooks.h"
#include "app/server.h"
#include "core/logging.h"

#include <iostream>

namespace sightline::app {

int RunServe(std::span<char*> args) { return RunServe(args, ServeHooks{}); }

int RunServe(std::span<char*> args, const ServeHooks& hooks) {
  auto options = ParseOptions(ServeOptionDefs(), args);
  if (!options) return ReportFailure(options.error());
  if (options->help) {
    std::cout << HelpText("sightline serve [options]",
                          "Runs the HTTP server: the REST API and its OpenAPI document.",
                          ServeOptionDefs());
    return 0;
  }
  core::SetupLogging(options->Get("log-level"));
  auto config = ParseServeConfig(*options);
  if (!config) return ReportFailure(config.error());
  auto server = Server::Start(std::move(*config), hooks);
  if (!server) return ReportFailure(server.error());
  return (*server)->Run();
}

}  // namespace sightline::app
