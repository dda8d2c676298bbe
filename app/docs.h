// Generated documentation (see docs_command.cpp).
#pragma once

#include <string>

namespace sightline::app {

std::string ErrorCodesMarkdown();
std::string PermissionsMarkdown();
std::string SiteAuditRulesMarkdown();

}  // namespace sightline::app
