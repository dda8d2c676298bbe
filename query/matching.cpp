#include "query/matching.h"

#include <algorithm>

#include <re2/re2.h>

namespace sightline::query {
namespace {

char FoldAscii(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }
bool SameFolded(char x, char y) { return FoldAscii(x) == FoldAscii(y); }

}  // namespace

bool ValueMatches(const Filter& f, std::string_view value) {
  switch (f.op) {
    case FilterOp::kIs:
    case FilterOp::kIsNot:
      return std::any_of(f.clauses.begin(), f.clauses.end(), [&](const std::string& clause) {
        return f.case_sensitive ? value == clause
                                : value.size() == clause.size() &&
                                      std::equal(value.begin(), value.end(), clause.begin(),
                                                 SameFolded);
      });
    case FilterOp::kContains:
    case FilterOp::kContainsNot:
      return std::any_of(f.clauses.begin(), f.clauses.end(), [&](const std::string& clause) {
        return f.case_sensitive
                   ? value.find(clause) != std::string_view::npos
                   : std::search(value.begin(), value.end(), clause.begin(), clause.end(),
                                 SameFolded) != value.end();
      });
    default:
      return std::any_of(f.patterns.begin(), f.patterns.end(),
                         [&](const auto& pattern) { return RE2::PartialMatch(value, *pattern); });
  }
}

bool IsNegative(FilterOp op) {
  return op == FilterOp::kIsNot || op == FilterOp::kContainsNot || op == FilterOp::kMatchesNot;
}

}  // namespace sightline::query
