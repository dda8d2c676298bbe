// AI visibility (docs/ai-visibility.md): the tracked brands, prompts and engines of a project
// and its settings (setup_operations.cpp); runs and their answers (run_operations.cpp); and the
// reports (report_operations.cpp).
#pragma once

#include "tools/operation.h"

namespace sightline::tools {

extern const OperationSpec kListAiBrands, kCreateAiBrand, kUpdateAiBrand, kDeleteAiBrand;
extern const OperationSpec kListAiPrompts, kCreateAiPrompt, kCreateAiPrompts, kUpdateAiPrompt,
    kDeleteAiPrompt;
extern const OperationSpec kListAiEngines, kCreateAiEngine, kUpdateAiEngine, kDeleteAiEngine;
extern const OperationSpec kGetAiVisibilitySettings, kUpdateAiVisibilitySettings;
extern const OperationSpec kStartAiVisibilityRun, kListAiVisibilityRuns, kGetAiVisibilityRun,
    kCancelAiVisibilityRun, kListAiAnswers, kGetAiAnswer;
extern const OperationSpec kGetAiVisibility, kGetAiVisibilitySources, kGetAiVisibilityGaps,
    kGetAiVisibilityLoop;

}  // namespace sightline::tools
