#include "cuda/Batchol_CudaFactorTable.cuh"
using namespace batchol::cuda;
template <class T>
void all(const Batch<T>& p, cudaStream_t s) {
  launch_table<Mode::Potrf, T, Sm90Table>(p, s);
  launch_table<Mode::Posv, T, Sm90Table>(p, s);
}
template void all<double>(const Batch<double>&, cudaStream_t);
template void all<float>(const Batch<float>&, cudaStream_t);
