#include "core/compression.h"

#include <zlib.h>

#include <array>

namespace sightline::core {
namespace {

constexpr int kGzipWindow = 15 + 16;  // zlib: 15-bit window, gzip framing

}  // namespace

Result<std::string> Gunzip(std::string_view compressed, std::size_t max_output) {
  z_stream stream{};
  if (inflateInit2(&stream, kGzipWindow) != Z_OK) return Error();
  std::string out;
  std::array<unsigned char, 64 * 1024> chunk;
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(compressed.data()));
  stream.avail_in = static_cast<uInt>(compressed.size());
  int status = Z_OK;
  while (true) {
    stream.next_out = chunk.data();
    stream.avail_out = chunk.size();
    status = inflate(&stream, Z_NO_FLUSH);
    out.append(reinterpret_cast<const char*>(chunk.data()), chunk.size() - stream.avail_out);
    if (out.size() > max_output) {
      inflateEnd(&stream);
      return Error(ErrorCode::kValBodyTooLarge, "The decompressed request body is too large.");
    }
    if (status == Z_STREAM_END && stream.avail_in > 0) {
      inflateReset(&stream);  // another gzip member follows
      continue;
    }
    if (status != Z_OK) break;
  }
  inflateEnd(&stream);
  if (status != Z_STREAM_END) {
    return Error(ErrorCode::kValBadRequest, "The request body is not valid gzip data.");
  }
  return out;
}

std::string Gzip(std::string_view data) {
  z_stream stream{};
  deflateInit2(&stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, kGzipWindow, 8, Z_DEFAULT_STRATEGY);
  std::string out(deflateBound(&stream, static_cast<uLong>(data.size())) + 32, '\0');
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  stream.avail_in = static_cast<uInt>(data.size());
  stream.next_out = reinterpret_cast<Bytef*>(out.data());
  stream.avail_out = static_cast<uInt>(out.size());
  deflate(&stream, Z_FINISH);
  out.resize(stream.total_out);
  deflateEnd(&stream);
  return out;
}

}  // namespace sightline::core
