# Generates a C++ source that embeds built web assets and defines api::EmbeddedAssets(), the
# table of api/embedded_assets.h: per asset its URL path, content type, bytes, gzip form, SHA-384
# digest and ETag. Run at build time (see CMakeLists.txt), after the assets are built.
# Inputs:
#   ASSET_LIST  "<url path>=<file>" items separated by "|" (a CMake list would be split by the
#               custom command line), e.g. "/sdk/v1/script.js=/src/web/sdk/dist/sightline.min.js"
#   MANIFESTS   built folders separated by "|" whose manifest.txt lists more items, a line each,
#               "<url path>=<file relative to the folder>" (the dashboard's hashed names are
#               known only once it is built)
#   WORK_DIR    a scratch directory for compressing
#   OUTPUT      the .cpp to write (rewritten only when its content changes)
# A file that comes with a precompressed "<file>.gz" (the dashboard's build) keeps that one;
# other text assets are gzip-compressed here. A "<file>.br" beside it is its brotli form. The
# output is the same for the same input bytes.

function(content_type_of file out)
  get_filename_component(ext "${file}" LAST_EXT)
  string(TOLOWER "${ext}" ext)
  if(ext MATCHES "^\\.m?js$")
    set(type "text/javascript; charset=utf-8")
  elseif(ext STREQUAL ".css")
    set(type "text/css; charset=utf-8")
  elseif(ext STREQUAL ".html")
    set(type "text/html; charset=utf-8")
  elseif(ext STREQUAL ".txt")
    set(type "text/plain; charset=utf-8")
  elseif(ext STREQUAL ".json" OR ext STREQUAL ".map")
    set(type "application/json")
  elseif(ext STREQUAL ".webmanifest")
    set(type "application/manifest+json")
  elseif(ext STREQUAL ".svg")
    set(type "image/svg+xml")
  elseif(ext STREQUAL ".png")
    set(type "image/png")
  elseif(ext STREQUAL ".ico")
    set(type "image/x-icon")
  elseif(ext STREQUAL ".woff2")
    set(type "font/woff2")
  else()
    message(FATAL_ERROR "embed_web_assets: no content type for '${file}'; add its extension")
  endif()
  set(${out} "${type}" PARENT_SCOPE)
endfunction()

# Hex digits → a C++ string literal of \xNN escapes, 32 bytes per line. Only escapes, so no
# digit after an escape can be read as part of it.
function(hex_to_literal hex out)
  string(REGEX REPLACE "([0-9a-f][0-9a-f])" "\\\\x\\1" escaped "${hex}")
  string(REPEAT "." 128 line)
  string(REGEX REPLACE "(${line})" "\\1\"\n      \"" escaped "${escaped}")
  set(${out} "\"${escaped}\"" PARENT_SCOPE)
endfunction()

function(string_view_of hex out)
  string(LENGTH "${hex}" digits)
  math(EXPR bytes "${digits} / 2")
  hex_to_literal("${hex}" literal)
  set(${out} "std::string_view(${literal}, ${bytes})" PARENT_SCOPE)
endfunction()

# The gzip form of `file` in hex, or "" when compressing does not make it smaller.
function(gzip_hex file body_hex out)
  set(${out} "" PARENT_SCOPE)
  if(EXISTS "${file}.gz")
    file(READ "${file}.gz" gzip HEX)
  else()
    # -n leaves the name and time out of the header: the bytes depend on the content alone.
    find_program(GZIP gzip REQUIRED)
    file(MAKE_DIRECTORY "${WORK_DIR}")
    get_filename_component(name "${file}" NAME)
    execute_process(COMMAND "${GZIP}" -9 -n -c "${file}" OUTPUT_FILE "${WORK_DIR}/${name}.gz"
                    RESULT_VARIABLE failed)
    if(failed)
      message(FATAL_ERROR "embed_web_assets: gzip ${file} failed")
    endif()
    file(READ "${WORK_DIR}/${name}.gz" gzip HEX)
    file(REMOVE "${WORK_DIR}/${name}.gz")
  endif()
  string(LENGTH "${gzip}" gzip_digits)
  string(LENGTH "${body_hex}" body_digits)
  if(gzip_digits LESS body_digits)
    set(${out} "${gzip}" PARENT_SCOPE)
  endif()
endfunction()

function(asset_entry url file out)
  if(NOT EXISTS "${file}")
    message(FATAL_ERROR "embed_web_assets: ${file} (for ${url}) is not built")
  endif()
  content_type_of("${file}" type)
  file(READ "${file}" body HEX)
  file(SHA384 "${file}" digest)
  string(SUBSTRING "${digest}" 0 12 tag)
  string(FIND "${type}" "text/" text_at)
  set(gzip "")
  if(text_at EQUAL 0 OR type MATCHES "json|svg")
    gzip_hex("${file}" "${body}" gzip)
  endif()
  set(brotli "")
  if(EXISTS "${file}.br")
    file(READ "${file}.br" brotli HEX)
  endif()
  string_view_of("${body}" body_view)
  string_view_of("${gzip}" gzip_view)
  string_view_of("${brotli}" brotli_view)
  string_view_of("${digest}" digest_view)
  set(${out} "    {\"${url}\", \"${type}\",\n     ${body_view},\n     ${gzip_view},\n     ${brotli_view},\n     ${digest_view},\n     \"\\\"${tag}\\\"\"},\n" PARENT_SCOPE)
endfunction()

string(REPLACE "|" ";" assets "${ASSET_LIST}")
string(REPLACE "|" ";" manifests "${MANIFESTS}")
foreach(folder IN LISTS manifests)
  if(NOT EXISTS "${folder}/manifest.txt")
    message(FATAL_ERROR "embed_web_assets: ${folder}/manifest.txt is not built")
  endif()
  file(STRINGS "${folder}/manifest.txt" lines)
  foreach(line IN LISTS lines)
    string(FIND "${line}" "=" eq)
    string(SUBSTRING "${line}" 0 ${eq} url)
    math(EXPR start "${eq} + 1")
    string(SUBSTRING "${line}" ${start} -1 relative)
    list(APPEND assets "${url}=${folder}/${relative}")
  endforeach()
endforeach()
set(entries "")
foreach(item IN LISTS assets)
  string(FIND "${item}" "=" eq)
  string(SUBSTRING "${item}" 0 ${eq} url)
  math(EXPR start "${eq} + 1")
  string(SUBSTRING "${item}" ${start} -1 file)
  asset_entry("${url}" "${file}" entry)
  string(APPEND entries "${entry}")
endforeach()

set(content "// Generated by cmake/embed_web_assets.cmake; do not edit.
#include \"api/embedded_assets.h\"

namespace sightline::api {
namespace {
constexpr EmbeddedAsset kAssets[] = {
${entries}};
}  // namespace

std::span<const EmbeddedAsset> EmbeddedAssets() { return kAssets; }

}  // namespace sightline::api
")
file(WRITE "${OUTPUT}.tmp" "${content}")
file(COPY_FILE "${OUTPUT}.tmp" "${OUTPUT}" ONLY_IF_DIFFERENT)
