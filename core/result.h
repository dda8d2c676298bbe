// Result<T>: a value or a core::Error. Operations, storage and services return it; exceptions
// are kept for bugs and impossible states.
#pragma once

#include "core/error.h"

#include <boost/assert/source_location.hpp>
#include <boost/system/result.hpp>

namespace sightline::core {

template <class T>
using Result = boost::system::result<T, Error>;

// Called by Result<T>::value() when it holds an error: a programming mistake, so throw.
[[noreturn]] void throw_exception_from_error(const Error& error, const boost::source_location& loc);

}  // namespace sightline::core
