// User-Agents the end-to-end suites send, written from each product's published format.
#pragma once

namespace sightline::e2e {

inline constexpr char kGptBot[] =
    "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.1; "
    "+https://openai.com/gptbot)";
inline constexpr char kGooglebot[] =
    "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
inline constexpr char kSlackbot[] = "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)";
inline constexpr char kChrome[] =
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/126.0.0.0 Safari/537.36";

}  // namespace sightline::e2e
