// How the job of a long-running operation (tools/operation.h `LongRunning`: an object whose
// `id` names it and whose `status` is queued, running, completed, failed or cancelled) reads as
// an MCP task, in each era's words:
// - 2025-11-25 (experimental tasks): `{taskId, status, statusMessage, createdAt, lastUpdatedAt,
//   ttl, pollInterval}`; a failed job is a `failed` task.
// - 2026-07-28 (`io.modelcontextprotocol/tasks`): the same with `ttlMs` and `pollIntervalMs`; a
//   failed job is a `completed` task whose result is a tool error, since `failed` is kept for
//   JSON-RPC errors there.
// Pure functions; thread-safe.
#pragma once

#include "mcp/era.h"
#include "mcp/task_handles.h"

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <cstdint>
#include <optional>
#include <string_view>

namespace sightline::mcp {

// The extension's identifier (2026-07-28 capabilities, client and server).
inline constexpr std::string_view kTasksExtension = "io.modelcontextprotocol/tasks";
// 2025-11-25: the `_meta` key tying a tasks/result answer to its task.
inline constexpr std::string_view kRelatedTaskMeta = "io.modelcontextprotocol/related-task";
// 2025-11-25: the text a host may hand the model while the task runs.
inline constexpr std::string_view kImmediateResponseMeta =
    "io.modelcontextprotocol/model-immediate-response";
// How often clients should ask (jobs such as crawls take seconds to minutes).
inline constexpr std::int64_t kTaskPollIntervalMs = 2000;

// The job's own state, as the operations report it.
enum class JobState { kQueued, kRunning, kCompleted, kFailed, kCancelled };

// The state of a job object; nullopt when it has no known `status` (not a job).
std::optional<JobState> JobStateOf(const boost::json::value& job);
bool IsTerminal(JobState state);

// The task's status in `era`: queued and running are `working`; a failed job is `failed` in
// 2025-11-25 and `completed` (with a tool error) in 2026-07-28.
std::string_view TaskStatusName(Era era, JobState state);

// The Task object for a job: `taskId`, `status`, `statusMessage`, `createdAt` (the job's, else
// the task's), `lastUpdatedAt` (the latest of the job's finishedAt, startedAt, updatedAt and
// createdAt), the time to live (null: the task lasts as long as its job) and the poll interval,
// named as `era` names them. REQUIRES: JobStateOf(job).
boost::json::object TaskObject(Era era, std::string_view task_id, const TaskHandle& handle,
                               const boost::json::object& job);

// Whether a 2026-07-28 request's client capabilities declare the Tasks extension.
bool DeclaresTasks(const boost::json::object& client_capabilities);

}  // namespace sightline::mcp
