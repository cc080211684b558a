// Plain values in and out of one message's bytes: what the batch's dealer
// and workers send each other (items out, results back).
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "grundy/core/input_error.hpp"

namespace grundy::dist {

class WireWriter {
 public:
  void u64(std::uint64_t v) { bytes_.append(reinterpret_cast<const char*>(&v), sizeof v); }
  void f64(double v) { bytes_.append(reinterpret_cast<const char*>(&v), sizeof v); }
  void text(std::string_view s) {
    u64(s.size());
    bytes_.append(s);
  }
  std::string& bytes() { return bytes_; }

 private:
  std::string bytes_;
};

class WireReader {
 public:
  explicit WireReader(std::string_view bytes) : bytes_(bytes) {}
  std::uint64_t u64() {
    std::uint64_t v;
    std::memcpy(&v, take(sizeof v).data(), sizeof v);
    return v;
  }
  double f64() {
    double v;
    std::memcpy(&v, take(sizeof v).data(), sizeof v);
    return v;
  }
  std::string text() { return std::string(take(u64())); }
  bool done() const { return at_ == bytes_.size(); }

 private:
  std::string_view take(std::size_t n) {
    if (n > bytes_.size() - at_) throw InputError("grundy-mpi: a message between ranks is cut short");
    const std::string_view part = bytes_.substr(at_, n);
    at_ += n;
    return part;
  }
  std::string_view bytes_;
  std::size_t at_ = 0;
};

}  // namespace grundy::dist
