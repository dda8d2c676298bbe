// The single translation unit that compiles Asio and Beast (separate compilation), so that no
// other file pays for their implementation.
#include <boost/asio/impl/src.hpp>
#include <boost/asio/ssl/impl/src.hpp>
#include <boost/beast/src.hpp>
