// The signed-in user's connected MCP clients (OAuth grants): list_mcp_clients and
// revoke_mcp_client.
#pragma once

#include "tools/operation.h"

namespace sightline::tools {

extern const OperationSpec kListMcpClients;
extern const OperationSpec kRevokeMcpClient;

}  // namespace sightline::tools
