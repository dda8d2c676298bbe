// Task ids of the Tasks extension (`io.modelcontextprotocol/tasks` in 2026-07-28, the
// experimental tasks of 2025-11-25): a sealed reference to the job a long-running operation
// started (tools/operation.h `LongRunning`), not a record of its own. The job is the one
// durable state; the id only says where to find it, so any node answers any task request and
// nothing is stored per task.
//
// An id names the operation that started the job, the job's id, when the task was created, and
// the credential it belongs to (a digest of identity::CredentialName, which for a key or an
// OAuth connection outlives token refreshes); HMAC-SHA-256 with a server secret every node
// shares seals all of it, so an id can be neither forged nor used by another credential. The
// credential is bound to one project, so it also fixes the project the job is looked up in.
// Pure functions; thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace sightline::mcp {

struct TaskHandle {
  std::string operation;        // the long-running operation that started the job
  std::string job_id;           // the job's `id`
  std::int64_t created_at = 0;  // unix ms, when the task was created
};

// The task id for `handle`, belonging to `credential`. `key` is the sealing secret.
std::string SealTaskId(std::string_view key, const TaskHandle& handle,
                       std::string_view credential);

// The handle `task_id` names, or nullopt when it is malformed, was not sealed with `key`, or
// belongs to another credential than `credential` (all three read as an unknown task).
std::optional<TaskHandle> OpenTaskId(std::string_view key, std::string_view task_id,
                                     std::string_view credential);

}  // namespace sightline::mcp
