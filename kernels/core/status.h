#pragma once
#include <string>
#include <utility>

namespace cvz {

// How an operation failed; the CLI maps these onto its exit codes and the GUI onto its messages.
enum class ErrorKind {
    None,
    InvalidInput,   // the data or the launch configuration was rejected before anything ran
    Unavailable,    // the asked-for backend or device does not exist here
    Device,         // the device or its runtime reported an error while running
};

// Errors travel as values (ARCHITECTURE.md, invariant 7): every fallible call in kernels/ returns one.
class Status {
public:
    Status() = default;
    static Status ok() { return {}; }
    static Status error(ErrorKind kind, std::string message) { return Status(kind, std::move(message)); }

    bool is_ok() const { return kind_ == ErrorKind::None; }
    explicit operator bool() const { return is_ok(); }
    ErrorKind kind() const { return kind_; }
    const std::string& message() const { return message_; }

private:
    Status(ErrorKind kind, std::string message) : kind_(kind), message_(std::move(message)) {}
    ErrorKind kind_ = ErrorKind::None;
    std::string message_;
};

}  // namespace cvz
