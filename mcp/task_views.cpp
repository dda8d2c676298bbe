#include "mcp/task_views.h"

#include "core/clock.h"

#include <algorithm>
#include <array>
#include <string>

namespace sightline::mcp {
namespace {

namespace json = boost::json;

std::optional<std::int64_t> TimeField(const json::object& job, std::string_view key) {
  const json::value* value = job.if_contains(key);
  if (!value || !value->is_string()) return std::nullopt;
  return core::ParseRfc3339(value->as_string());
}

std::optional<std::int64_t> WholeNumber(const json::object& object, std::string_view key) {
  const json::value* value = object.if_contains(key);
  if (value && value->is_int64()) return value->as_int64();
  if (value && value->is_uint64()) return static_cast<std::int64_t>(value->as_uint64());
  return std::nullopt;
}

// What went wrong, as the job says it: `error` as a string or as an object with a `message`.
std::string JobError(const json::object& job) {
  const json::value* error = job.if_contains("error");
  if (error && error->is_string()) return std::string(error->as_string());
  if (error && error->is_object()) {
    const json::value* message = error->as_object().if_contains("message");
    if (message && message->is_string()) return std::string(message->as_string());
  }
  return {};
}

std::string StatusMessage(JobState state, const json::object& job) {
  switch (state) {
    case JobState::kQueued:
      return "Queued: waiting to start.";
    case JobState::kRunning: {
      const json::value* progress = job.if_contains("progress");
      if (progress && progress->is_object()) {
        const auto done = WholeNumber(progress->as_object(), "done");
        const auto total = WholeNumber(progress->as_object(), "total");
        if (done && total) {
          return "Running: " + std::to_string(*done) + " of " + std::to_string(*total) + " done.";
        }
      }
      return "Running.";
    }
    case JobState::kCompleted:
      return "Completed.";
    case JobState::kFailed: {
      const std::string error = JobError(job);
      return error.empty() ? "Failed." : "Failed: " + error;
    }
    case JobState::kCancelled:
      return "Cancelled.";
  }
  return {};
}

}  // namespace

std::optional<JobState> JobStateOf(const json::value& job) {
  if (!job.is_object()) return std::nullopt;
  const json::value* status = job.as_object().if_contains("status");
  if (!status || !status->is_string()) return std::nullopt;
  const std::string_view name = status->as_string();
  if (name == "queued") return JobState::kQueued;
  if (name == "running") return JobState::kRunning;
  if (name == "completed") return JobState::kCompleted;
  if (name == "failed") return JobState::kFailed;
  if (name == "cancelled") return JobState::kCancelled;
  return std::nullopt;
}

bool IsTerminal(JobState state) {
  return state != JobState::kQueued && state != JobState::kRunning;
}

std::string_view TaskStatusName(Era era, JobState state) {
  switch (state) {
    case JobState::kQueued:
    case JobState::kRunning:
      return "working";
    case JobState::kCompleted:
      return "completed";
    case JobState::kFailed:
      // 2026-07-28 keeps `failed` for JSON-RPC errors: a job that ran and failed is a tool error.
      return era == Era::kModern ? "completed" : "failed";
    case JobState::kCancelled:
      return "cancelled";
  }
  return "working";
}

json::object TaskObject(Era era, std::string_view task_id, const TaskHandle& handle,
                        const json::object& job) {
  const JobState state = *JobStateOf(job);
  const std::int64_t created = TimeField(job, "createdAt").value_or(handle.created_at);
  std::int64_t updated = created;
  for (std::string_view key : std::array<std::string_view, 3>{"finishedAt", "startedAt",
                                                              "updatedAt"}) {
    if (const auto at = TimeField(job, key)) updated = std::max(updated, *at);
  }
  const bool modern = era == Era::kModern;
  return {{"taskId", task_id},
          {"status", TaskStatusName(era, state)},
          {"statusMessage", StatusMessage(state, job)},
          {"createdAt", core::FormatRfc3339(created)},
          {"lastUpdatedAt", core::FormatRfc3339(updated)},
          // The task lasts as long as its job: there is no separate record to expire.
          {modern ? "ttlMs" : "ttl", nullptr},
          {modern ? "pollIntervalMs" : "pollInterval", kTaskPollIntervalMs}};
}

bool DeclaresTasks(const json::object& client_capabilities) {
  const json::value* extensions = client_capabilities.if_contains("extensions");
  return extensions && extensions->is_object() &&
         extensions->as_object().contains(kTasksExtension);
}

}  // namespace sightline::mcp
