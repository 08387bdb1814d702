// Result<T>: a value or an Error, returned across module boundaries instead of throwing.
//
// A minimal `std::expected<T, Error>` for C++20 (GCC 12 and clang 14 lack a usable one).
// Result<void> is spelled `Status`.
#pragma once

#include "engine/support/error.h"

#include <cassert>
#include <utility>
#include <variant>

namespace hashline {

template <class T> class [[nodiscard]] Result {
public:
  Result(T value) : state_(std::in_place_index<0>, std::move(value)) {}
  Result(Error error) : state_(std::in_place_index<1>, std::move(error)) {}

  bool ok() const { return state_.index() == 0; }
  explicit operator bool() const { return ok(); }

  T& value() & {
    assert(ok());
    return std::get<0>(state_);
  }
  const T& value() const& {
    assert(ok());
    return std::get<0>(state_);
  }
  T&& value() && {
    assert(ok());
    return std::get<0>(std::move(state_));
  }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

  const Error& error() const& {
    assert(!ok());
    return std::get<1>(state_);
  }
  Error&& error() && {
    assert(!ok());
    return std::get<1>(std::move(state_));
  }

private:
  std::variant<T, Error> state_;
};

/// Success or an Error.
class [[nodiscard]] Status {
public:
  Status() = default;
  Status(Error error) : error_(std::move(error)), failed_(true) {}
  static Status success() { return Status(); }

  bool ok() const { return !failed_; }
  explicit operator bool() const { return ok(); }
  const Error& error() const& {
    assert(failed_);
    return error_;
  }
  Error&& error() && {
    assert(failed_);
    return std::move(error_);
  }

private:
  Error error_{ErrorCode::IoError, {}, {}, {}};
  bool failed_ = false;
};

} // namespace hashline
