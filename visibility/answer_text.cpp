#include "visibility/answer_text.h"

#include <unicode/brkiter.h>
#include <unicode/normalizer2.h>
#include <unicode/uchar.h>
#include <unicode/uscript.h>
#include <unicode/unistr.h>

#include <algorithm>
#include <memory>

namespace sightline::visibility {
namespace {

// Scripts written without spaces between words: a name matches anywhere in them.
bool WrittenWithoutSpaces(UChar32 c) {
  UErrorCode status = U_ZERO_ERROR;
  switch (uscript_getScript(c, &status)) {
    case USCRIPT_HAN:
    case USCRIPT_HIRAGANA:
    case USCRIPT_KATAKANA:
    case USCRIPT_THAI:
    case USCRIPT_LAO:
    case USCRIPT_KHMER:
    case USCRIPT_MYANMAR:
      return true;
    default:
      return false;
  }
}

bool IsWordCharacter(UChar32 c) { return u_isalnum(c) || c == '_' || u_charType(c) == U_NON_SPACING_MARK; }

// Where a link starts ("http://", "https://", "www."), so its text is not taken for a name.
bool LinkStartsAt(const icu::UnicodeString& text, int32_t i) {
  for (const char16_t* prefix : {u"https://", u"http://", u"www."}) {
    const int32_t length = static_cast<int32_t>(std::char_traits<char16_t>::length(prefix));
    if (text.compare(i, length, icu::UnicodeString(prefix)) == 0) return true;
  }
  return false;
}

bool EndsLink(char16_t c) {
  return u_isspace(c) || c == ')' || c == ']' || c == '>' || c == '"' || c == '\'' || c == '<';
}

// Appends the folded form of `c` (combining marks removed, case folded) to `out`.
void AppendFolded(UChar32 c, icu::UnicodeString& out) {
  UErrorCode status = U_ZERO_ERROR;
  const icu::Normalizer2* nfd = icu::Normalizer2::getNFDInstance(status);
  icu::UnicodeString decomposed = nfd->normalize(icu::UnicodeString(c), status);
  if (U_FAILURE(status)) decomposed = icu::UnicodeString(c);
  for (int32_t i = 0; i < decomposed.length();) {
    const UChar32 part = decomposed.char32At(i);
    i += U16_LENGTH(part);
    if (u_charType(part) == U_NON_SPACING_MARK) continue;
    icu::UnicodeString folded(part);
    out.append(folded.foldCase());
  }
}

}  // namespace

struct AnswerText::Impl {
  icu::UnicodeString original;
  icu::UnicodeString folded;
  std::vector<int32_t> origin;  // per unit of `folded`: where it came from in `original`

  explicit Impl(std::string_view utf8)
      : original(icu::UnicodeString::fromUTF8(icu::StringPiece(utf8.data(),
                                                               static_cast<int32_t>(utf8.size())))) {
    bool in_link = false;
    for (int32_t i = 0; i < original.length();) {
      const UChar32 c = original.char32At(i);
      if (!in_link && LinkStartsAt(original, i)) in_link = true;
      if (in_link && EndsLink(original.charAt(i))) in_link = false;
      const int32_t before = folded.length();
      if (in_link) {
        folded.append(u' ');
      } else {
        AppendFolded(c, folded);
      }
      origin.insert(origin.end(), folded.length() - before, i);
      i += U16_LENGTH(c);
    }
    origin.push_back(original.length());
  }

  bool BoundaryBefore(int32_t at, const icu::UnicodeString& name) const {
    if (at == 0) return true;
    const UChar32 first = name.char32At(0);
    const UChar32 previous = folded.char32At(folded.moveIndex32(at, -1));
    return WrittenWithoutSpaces(first) || WrittenWithoutSpaces(previous) ||
           !IsWordCharacter(previous) || !IsWordCharacter(first);
  }

  bool BoundaryAfter(int32_t end, const icu::UnicodeString& name) const {
    if (end >= folded.length()) return true;
    const UChar32 last = name.char32At(name.moveIndex32(name.length(), -1));
    const UChar32 next = folded.char32At(end);
    return WrittenWithoutSpaces(last) || WrittenWithoutSpaces(next) || !IsWordCharacter(next) ||
           !IsWordCharacter(last);
  }
};

AnswerText::AnswerText(std::string_view utf8) : impl_(new Impl(utf8)) {}
AnswerText::~AnswerText() { delete impl_; }

std::vector<std::size_t> AnswerText::Find(std::string_view name) const {
  icu::UnicodeString wanted;
  const icu::UnicodeString raw = icu::UnicodeString::fromUTF8(
      icu::StringPiece(name.data(), static_cast<int32_t>(name.size())));
  for (int32_t i = 0; i < raw.length();) {
    const UChar32 c = raw.char32At(i);
    AppendFolded(c, wanted);
    i += U16_LENGTH(c);
  }
  wanted.trim();
  std::vector<std::size_t> offsets;
  if (wanted.isEmpty()) return offsets;
  for (int32_t at = impl_->folded.indexOf(wanted); at >= 0;
       at = impl_->folded.indexOf(wanted, at + 1)) {
    const int32_t end = at + wanted.length();
    if (impl_->BoundaryBefore(at, wanted) && impl_->BoundaryAfter(end, wanted)) {
      offsets.push_back(static_cast<std::size_t>(impl_->origin[at]));
    }
  }
  return offsets;
}

std::string AnswerText::SentenceAround(std::size_t offset, std::size_t max_chars) const {
  const icu::UnicodeString& text = impl_->original;
  const int32_t at = std::min<int32_t>(static_cast<int32_t>(offset), text.length());
  UErrorCode status = U_ZERO_ERROR;
  std::unique_ptr<icu::BreakIterator> sentences(
      icu::BreakIterator::createSentenceInstance(icu::Locale::getRoot(), status));
  int32_t start = 0, end = text.length();
  if (U_SUCCESS(status)) {
    sentences->setText(text);
    start = std::max(0, sentences->preceding(at + 1));
    end = sentences->following(at);
    if (end == icu::BreakIterator::DONE) end = text.length();
  }
  // Lists and headings end at the line even without a full stop.
  const int32_t line_start = text.lastIndexOf(u'\n', 0, at) + 1;
  const int32_t line_end = text.indexOf(u'\n', at);
  start = std::max(start, line_start);
  if (line_end >= 0) end = std::min(end, line_end);
  icu::UnicodeString sentence(text, start, end - start);
  sentence.trim();
  const int32_t limit = static_cast<int32_t>(max_chars);
  if (sentence.countChar32() > limit) {
    int32_t cut = sentence.moveIndex32(0, limit);
    const int32_t space = sentence.lastIndexOf(u' ', 0, cut);
    if (space > limit / 2) cut = space;
    sentence.truncate(cut);
    sentence.append(u"…");
  }
  std::string out;
  sentence.toUTF8String(out);
  return out;
}

}  // namespace sightline::visibility
