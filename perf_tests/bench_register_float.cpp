// The float series of batchol_bench, compiled on their own (see bench_register.hpp).
#include <bench_register.hpp>

namespace bench {
template int register_precision<float>(const Grid&, std::size_t);
}  // namespace bench
