// Projects: create, list, get, update settings, delete.
#pragma once

#include "tools/operation.h"

namespace sightline::tools {

extern const OperationSpec kGetProject;
extern const OperationSpec kUpdateProject;
extern const OperationSpec kCreateProject;
extern const OperationSpec kListProjects;
extern const OperationSpec kDeleteProject;

// The JSON shape of a project, shared by every operation that returns one.
boost::json::object ProjectToJson(const storage::ProjectRecord& project,
                                  const storage::OrganizationRecord* organization);

}  // namespace sightline::tools
