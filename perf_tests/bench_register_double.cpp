// The double series of batchol_bench, compiled on their own (see bench_register.hpp).
#include <bench_register.hpp>

namespace bench {
template int register_precision<double>(const Grid&, std::size_t);
template std::vector<PathSupport> available_paths<double>();
}  // namespace bench
