// Records the names of the Kokkos profiling regions batchol's calls open,
// while a RegionRecorder lives (the callbacks it replaces come back after).
#ifndef BATCHOL_TEST_REGIONS_HPP
#define BATCHOL_TEST_REGIONS_HPP

#include <Kokkos_Core.hpp>

#include <cstring>
#include <string>
#include <vector>

namespace batchol_test {

class RegionRecorder {
 public:
  RegionRecorder() : saved_(Kokkos::Tools::Experimental::get_callbacks()) {
    names().clear();
    Kokkos::Tools::Experimental::set_push_region_callback(record);
  }
  ~RegionRecorder() { Kokkos::Tools::Experimental::set_callbacks(saved_); }
  RegionRecorder(const RegionRecorder&) = delete;
  RegionRecorder& operator=(const RegionRecorder&) = delete;

  // The regions named "batchol::..." opened so far.
  static std::vector<std::string>& names() {
    static std::vector<std::string> recorded;
    return recorded;
  }

 private:
  static void record(const char* name) {
    if (std::strncmp(name, "batchol::", 9) == 0) names().push_back(name);
  }
  decltype(Kokkos::Tools::Experimental::get_callbacks()) saved_;
};

}  // namespace batchol_test

#endif
